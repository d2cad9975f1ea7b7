import type {
  HitCacheRecord,
  IHitCacheImplementation,
  IVisitorCacheImplementation,
} from '../../protocol/index.js';

/** The stores a cache keeps: visitors (id → JSON text), hits (hid → record), meta (marks). */
export type StoreName = 'visitors' | 'hits' | 'meta';

/**
 * The few key-value operations both caches need. The memory and IndexedDB caches are the same logic over
 * two implementations of this, so they cannot drift apart.
 */
export interface KeyValueStore {
  get(store: StoreName, key: string): Promise<unknown>;
  put(store: StoreName, entries: Array<[string, unknown]>): Promise<void>;
  /** Deletes the keys, or everything in the store when `keys` is null. */
  delete(store: StoreName, keys: string[] | null): Promise<void>;
  entries(store: StoreName): Promise<Array<[string, unknown]>>;
}

/**
 * A {@link KeyValueStore} in memory. Values are copied in and out, so the tracker's pool and the cache never
 * share an object: changing one can never silently rewrite the other (IndexedDB copies the same way).
 */
export class MapStore implements KeyValueStore {
  private readonly maps = { visitors: new Map<string, unknown>(), hits: new Map(), meta: new Map() };

  /** A copy of the value, or undefined. */
  get(store: StoreName, key: string): Promise<unknown> {
    return Promise.resolve(structuredClone(this.maps[store].get(key)));
  }

  /** Stores copies of the values, replacing older ones. */
  put(store: StoreName, entries: Array<[string, unknown]>): Promise<void> {
    for (const [key, value] of entries) this.maps[store].set(key, structuredClone(value));
    return Promise.resolve();
  }

  /** Deletes the keys (unknown ones are ignored), or all of them when `keys` is null. */
  delete(store: StoreName, keys: string[] | null): Promise<void> {
    const map = this.maps[store];
    if (keys) for (const key of keys) map.delete(key);
    else map.clear();
    return Promise.resolve();
  }

  /** Copies of every entry. */
  entries(store: StoreName): Promise<Array<[string, unknown]>> {
    return Promise.resolve(structuredClone([...this.maps[store]]));
  }
}

/**
 * The visitor cache (SPEC.md `IVisitorCacheImplementation`) over a key-value store, in memory by default:
 * Node's default, where it lives as long as the process.
 */
export class MemoryVisitorCache implements IVisitorCacheImplementation {
  /** `kv` defaults to memory; the IndexedDB cache passes its own store. */
  constructor(protected readonly kv: KeyValueStore = new MapStore()) {}

  /** Upserts the visitor's JSON text. */
  cacheVisitor(visitorId: string, json: string): Promise<void> {
    return this.kv.put('visitors', [[visitorId, json]]);
  }

  /** The visitor's JSON text, or null. */
  async lookupVisitor(visitorId: string): Promise<string | null> {
    const json = await this.kv.get('visitors', visitorId);
    return typeof json === 'string' ? json : null;
  }

  /** Erases the visitor's data. */
  flushVisitor(visitorId: string): Promise<void> {
    return this.kv.delete('visitors', [visitorId]);
  }
}

/**
 * The hit cache (SPEC.md `IHitCacheImplementation`, PROTOCOL.md §11) over a key-value store, in memory by
 * default: Node's default. The tracker checks every record it reads back, so this stores them as given.
 */
export class MemoryHitCache implements IHitCacheImplementation {
  /** `kv` defaults to memory; the IndexedDB cache passes its own store. */
  constructor(protected readonly kv: KeyValueStore = new MapStore()) {}

  /** Stores each record under its hit id, replacing an older copy. */
  cacheHits(hits: Record<string, HitCacheRecord>): Promise<void> {
    return this.kv.put('hits', Object.entries(hits));
  }

  /** Every stored record, as one map (no map when there is none). */
  async lookupHits(): Promise<Array<Record<string, HitCacheRecord>>> {
    const entries = (await this.kv.entries('hits')) as Array<[string, HitCacheRecord]>;
    return entries.length > 0 ? [Object.fromEntries(entries)] : [];
  }

  /** Erases the given hits; unknown ids are ignored. */
  flushHits(hitIds: string[]): Promise<void> {
    return this.kv.delete('hits', hitIds);
  }

  /** Erases every hit. */
  flushAllHits(): Promise<void> {
    return this.kv.delete('hits', null);
  }
}

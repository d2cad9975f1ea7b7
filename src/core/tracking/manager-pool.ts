import {
  CACHE_VERSION,
  HIT_LIMITS,
  type HitCacheRecord,
  type IHitCacheImplementation,
} from '../../protocol/index.js';
import type { Logger } from '../logger.js';
import { utf8Bytes, type PooledItem } from './batches.js';
import type { PoolBounds } from './manager-bounds.js';
import { wireJson } from './wire.js';

/** The item's hit id, its key in the pool and in the cache. */
export const hidOf = (item: PooledItem): string => item.record.data.content.hid;

/** Older than the 4-hour limit of PROTOCOL.md §5.3 and §11: never sent. */
export const expired = (item: PooledItem, now: number): boolean =>
  now - item.record.data.content.createdAt > HIT_LIMITS.maxItemAgeMs;

/**
 * Creates a pool item; `cached` ones come from the cache, so their copy is stored and known to be there. Its
 * wire JSON is built now, once: its length weighs the item against the pool's bounds.
 */
export const pooled = (record: HitCacheRecord, cached: boolean, onAck?: () => void): PooledItem => {
  const wire = wireJson(record);
  return {
    record,
    cached,
    stored: cached,
    seen: cached,
    bytes: utf8Bytes(wire),
    wire,
    inFlight: false,
    beaconed: false,
    onAck,
  };
};

/** The tracker's pool and its copies in the hit cache: see {@link createHitPool}. */
export interface HitPool {
  /** The items, oldest first. */
  items(): PooledItem[];
  get(hid: string): PooledItem | undefined;
  readonly size: number;
  /** Adds an item (a hid already pooled keeps its item) and evicts the oldest past the bounds. */
  add(item: PooledItem): Promise<void>;
  /** Takes items out of the pool and erases their cached copies. */
  remove(list: readonly PooledItem[]): Promise<void>;
  /** Runs a cache call; false when it failed (logged once per kind). */
  call(kind: string, call: () => unknown): Promise<boolean>;
  /** Copies the items not yet cached to the cache. */
  write(list: readonly PooledItem[]): Promise<void>;
  /** Erases cached copies. */
  flush(hids: readonly string[]): Promise<void>;
  /**
   * Pools what an earlier page view or process left in the cache, without callbacks; erases the records
   * older than 4 hours, of another version or unreadable (PROTOCOL.md §11), which are never sent.
   */
  load(): Promise<void>;
  /**
   * Run inside the tab lock before a send: drops the items another tab (or process) has taken from the
   * cache since this one stored or read them (sent, or dropped for consent), and what is older than 4 hours.
   */
  recheck(): Promise<void>;
  /** Logs the evictions since the last call, in one warning: one per eviction episode, not one per item. */
  report(): void;
}

const readable = (record: unknown, now: number): record is HitCacheRecord => {
  try {
    const { version, data } = record as { version: unknown; data: HitCacheRecord['data'] };
    return (
      version === CACHE_VERSION &&
      typeof data.content.hid === 'string' &&
      now - data.content.createdAt <= HIT_LIMITS.maxItemAgeMs
    );
  } catch {
    return false; // not even an object: unreadable, so stale
  }
};

/**
 * The tracker's pool and its copies in the hit cache (PROTOCOL.md §11), oldest first, within `bounds`: past
 * one, the oldest items not in flight are evicted from both and counted for one warning. Cache failures are
 * logged once per kind and never thrown: the SDK goes on without the cache (DESIGN.md errors).
 *
 * A record missing from the cache is read as taken by another tab only where the cache is known to keep what
 * it is given: the IndexedDB cache says so while it has not fallen back to memory (`isShared()`), and says
 * when it has, after which nothing is checked (the memory store misses what IndexedDB held); of any other
 * cache, only the records it gave back at start are checked. So a cache that keeps nothing, or one that lost its records,
 * never makes the tracker drop a hit.
 */
export const createHitPool = (
  cache: IHitCacheImplementation,
  logger: Logger,
  clock: () => number,
  bounds: PoolBounds,
): HitPool => {
  const map = new Map<string, PooledItem>();
  let bytes = 0;
  let evicted = 0;
  const items = (): PooledItem[] => [...map.values()];
  const insert = (item: PooledItem): void => {
    if (map.has(hidOf(item))) return;
    map.set(hidOf(item), item);
    bytes += item.bytes;
  };
  const drop = (list: ReadonlyArray<PooledItem | undefined>): void => {
    for (const item of list)
      if (item && map.get(hidOf(item)) === item) {
        map.delete(hidOf(item));
        bytes -= item.bytes;
      }
  };
  const call = async (kind: string, work: () => unknown): Promise<boolean> => {
    try {
      await work();
      return true;
    } catch (error) {
      logger.error(`Tracking: hit cache ${kind} failed: ${String(error)}`, `hit-cache-${kind}`);
      return false;
    }
  };
  const flush = async (hids: readonly string[]): Promise<void> => {
    if (hids.length > 0) await call('flush', () => cache.flushHits([...new Set(hids)]));
  };
  const remove = (list: readonly PooledItem[]): Promise<void> => {
    drop(list);
    return flush(list.filter((item) => item.cached).map(hidOf));
  };
  /** Evicts the oldest items not in flight (an answer will settle those) until the pool fits its bounds. */
  const bound = async (): Promise<void> => {
    // Within bounds (nearly always) nothing is walked: a Map's iteration from its start also steps over the
    // slots of every item removed since its last rehash, which made each add cost more as a busy pool aged.
    if (map.size <= bounds.maxItems && bytes <= bounds.maxBytes) return;
    const over: PooledItem[] = [];
    let [count, weight] = [map.size, bytes];
    for (const item of map.values()) {
      if (count <= bounds.maxItems && weight <= bounds.maxBytes) break;
      if (item.inFlight) continue;
      over.push(item);
      count -= 1;
      weight -= item.bytes;
    }
    evicted += over.length;
    await remove(over);
  };

  return {
    items,
    get: (hid) => map.get(hid),
    get size() {
      return map.size;
    },
    add(item) {
      insert(item);
      return bound();
    },
    remove,
    call,
    flush,
    async write(list) {
      const fresh = list.filter((item) => !item.cached);
      if (fresh.length === 0) return;
      const records: Record<string, HitCacheRecord> = {};
      for (const item of fresh) {
        // Marked before the write so an acknowledgement landing meanwhile also flushes the copy.
        item.cached = true;
        item.record.data.time = clock();
        records[hidOf(item)] = item.record;
      }
      const written = await call('write', () => cache.cacheHits(records));
      for (const item of fresh) {
        item.stored = written && item.cached;
        item.cached &&= written;
      }
    },
    async load() {
      const stale: string[] = [];
      let batches: Array<Record<string, unknown>> = [];
      await call('read', async () => (batches = await cache.lookupHits()));
      const all = items();
      for (const batch of batches)
        for (const [hid, record] of Object.entries(batch))
          if (readable(record, clock())) all.push(pooled(record, true));
          else stale.push(hid);
      map.clear();
      bytes = 0;
      for (const item of all.sort(
        (a, b) => a.record.data.content.createdAt - b.record.data.content.createdAt,
      ))
        insert(item);
      await flush(stale);
      await bound();
    },
    async recheck() {
      const shared = (cache as { isShared?: () => boolean }).isShared?.();
      const known =
        shared === false
          ? []
          : items().filter((item) => !item.inFlight && item.stored && (item.seen || shared));
      let cached: Array<[string, unknown]> | undefined;
      if (known.length > 0)
        await call('read', async () => {
          cached = (await cache.lookupHits()).flatMap((batch) => Object.entries(batch));
        });
      if (cached) {
        const present = new Set(cached.map(([hid]) => hid));
        await remove(known.filter((item) => !present.has(hidOf(item))));
      }
      const now = clock();
      const old = items().filter((item) => !item.inFlight && expired(item, now));
      if (old.length > 0) logger.warning(`Tracking: ${old.length} items older than 4 hours dropped`);
      await remove(old);
    },
    report() {
      if (evicted > 0) logger.warning(`Tracking: pool full, ${evicted} oldest items dropped`);
      evicted = 0;
    },
  };
};

import { openDB, type DBSchema, type IDBPDatabase, type IDBPObjectStore } from 'idb';
import type { Logger } from '../logger.js';
import {
  MapStore,
  MemoryHitCache,
  MemoryVisitorCache,
  type KeyValueStore,
  type StoreName,
} from './memory.js';

interface FeatureDb extends DBSchema {
  visitors: { key: string; value: unknown };
  hits: { key: string; value: unknown };
  meta: { key: string; value: unknown };
}

type Store<M extends IDBTransactionMode> = IDBPObjectStore<FeatureDb, [StoreName], StoreName, M>;

/** Options of the IndexedDB caches. */
export interface IdbCacheOptions {
  /** The database name; default `feature-ts`. Instances that must not share storage use different names. */
  dbName?: string;
  /** Where the one fallback warning goes; default `console.warn`. */
  logger?: Pick<Logger, 'warning'>;
}

// One memory fallback per database name for the page's lifetime, so every cache and the first-start mark
// of that name agree with each other once IndexedDB has failed.
const fallbacks = new Map<string, MapStore>();

/**
 * A {@link KeyValueStore} in IndexedDB with a memory fallback: the first storage error (no IndexedDB,
 * private mode, quota, a database of a newer version) is logged once, and from then on every call goes to
 * memory. Caches are an optimisation: the SDK must work the same without them.
 */
class IdbStore implements KeyValueStore {
  private db: Promise<IDBPDatabase<FeatureDb>> | undefined;
  /** The database name, also the key of its memory fallback. */
  readonly name: string;

  constructor(private readonly options: IdbCacheOptions) {
    this.name = options.dbName ?? 'feature-ts';
  }

  private async run<T, M extends IDBTransactionMode>(
    name: StoreName,
    mode: M,
    work: (store: Store<M>) => Promise<T>,
    fallback: (memory: MapStore) => Promise<T>,
  ): Promise<T> {
    let memory = fallbacks.get(this.name);
    if (!memory)
      try {
        this.db ??= openDB<FeatureDb>(this.name, 1, {
          upgrade(db) {
            for (const store of ['visitors', 'hits', 'meta'] as const) db.createObjectStore(store);
          },
        });
        const tx = (await this.db).transaction(name, mode);
        // Resolved only once the transaction committed: a write is durable when the promise resolves.
        const [result] = await Promise.all([work(tx.store), tx.done]);
        return result;
      } catch (error) {
        fallbacks.set(this.name, (memory = new MapStore()));
        const message = `Storage: IndexedDB "${this.name}" failed (${String(error)}); caching in memory instead`;
        if (this.options.logger) this.options.logger.warning(message, `idb-fallback:${this.name}`);
        else console.warn(`[feature-ts] ${message}`);
      }
    return fallback(memory);
  }

  get(name: StoreName, key: string): Promise<unknown> {
    return this.run(
      name,
      'readonly',
      (store) => store.get(key),
      (m) => m.get(name, key),
    );
  }

  put(name: StoreName, entries: Array<[string, unknown]>): Promise<void> {
    return this.run(
      name,
      'readwrite',
      async (store) => {
        await Promise.all(entries.map(([key, value]) => store.put(value, key)));
      },
      (m) => m.put(name, entries),
    );
  }

  delete(name: StoreName, keys: string[] | null): Promise<void> {
    const erase = async (store: Store<'readwrite'>): Promise<void> => {
      await (keys ? Promise.all(keys.map((key) => store.delete(key))) : store.clear());
    };
    return this.run(name, 'readwrite', erase, async (m) => {
      await m.delete(name, keys);
      // What IndexedDB held before it failed would go again from the next page: erase it there too while the
      // database lets us (a full origin still takes deletes).
      try {
        const tx = (await this.db)?.transaction(name, 'readwrite');
        if (tx) await Promise.all([erase(tx.store), tx.done]);
      } catch {
        // IndexedDB is gone altogether: nothing of it to erase.
      }
    });
  }

  entries(name: StoreName): Promise<Array<[string, unknown]>> {
    return this.run(
      name,
      'readonly',
      async (store) => {
        // Keys and values from one transaction, so they pair up.
        const [keys, values] = await Promise.all([store.getAllKeys(), store.getAll()]);
        return keys.map((key, i): [string, unknown] => [key, values[i]]);
      },
      (m) => m.entries(name),
    );
  }

  async close(): Promise<void> {
    const db = this.db;
    this.db = undefined;
    (await db?.catch(() => undefined))?.close();
  }
}

/** The browser's default visitor cache: {@link MemoryVisitorCache}'s logic over IndexedDB. */
export class IdbVisitorCache extends MemoryVisitorCache {
  declare protected readonly kv: IdbStore;

  /** Opens the database lazily, at the first call. */
  constructor(options: IdbCacheOptions = {}) {
    super(new IdbStore(options));
  }

  /** Closes the connection; the next call opens it again. */
  close(): Promise<void> {
    return this.kv.close();
  }
}

/** The browser's default hit cache: {@link MemoryHitCache}'s logic over IndexedDB (PROTOCOL.md §11). */
export class IdbHitCache extends MemoryHitCache {
  declare protected readonly kv: IdbStore;

  /** Opens the database lazily, at the first call. */
  constructor(options: IdbCacheOptions = {}) {
    super(new IdbStore(options));
  }

  /**
   * Whether the records live where the other tabs of the origin see them: true in IndexedDB, false once it
   * fell back to memory. The tracker reads a record missing from a shared cache as sent by another tab;
   * the memory store misses what IndexedDB held, so reading it that way would lose hits.
   */
  isShared(): boolean {
    return !fallbacks.has(this.kv.name);
  }

  /** Closes the connection; the next call opens it again. */
  close(): Promise<void> {
    return this.kv.close();
  }
}

/**
 * Marks that the SDK started with this browser storage (PROTOCOL.md §16.5, `sdk_firstTimeInit`): true the
 * first time, false after. The mark sits beside the caches, so clearing site data makes the next start a
 * first one again; without IndexedDB it is kept in memory, so it is true once per page.
 */
export const markFirstStart = async (options: IdbCacheOptions = {}): Promise<boolean> => {
  const kv = new IdbStore(options);
  const first = (await kv.get('meta', 'firstStart')) === undefined;
  if (first) await kv.put('meta', [['firstStart', Date.now()]]);
  await kv.close();
  return first;
};

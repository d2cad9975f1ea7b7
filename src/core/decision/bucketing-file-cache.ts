import { openDB } from 'idb';
import { isJsonObject } from '../../protocol/index.js';
import type { Logger } from '../logger.js';

/** The bucketing file as last downloaded: its text and its validators (PROTOCOL.md §2.5). */
export interface CachedBucketingFile {
  /** The body exactly as received, parsed again when loaded. */
  readonly body: string;
  readonly etag: string | null;
  readonly lastModified: string | null;
  /** When it was downloaded, epoch ms. */
  readonly savedAt: number;
}

/**
 * Where the bucketing source keeps its file between starts, keyed by the file's URL: IndexedDB in browsers,
 * memory in Node. A store that fails is a miss, never an error of the SDK.
 */
export interface BucketingFileCache {
  /** The file saved for `url`, or null. */
  load(url: string): Promise<CachedBucketingFile | null>;
  /** Replaces the file saved for `url`. */
  save(url: string, file: CachedBucketingFile): Promise<void>;
}

const orNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The record in `value` when it has the shape of a saved file (storage may hold anything), else null. */
const asCachedFile = (value: unknown): CachedBucketingFile | null =>
  isJsonObject(value) && typeof value.body === 'string'
    ? {
        body: value.body,
        etag: orNull(value.etag),
        lastModified: orNull(value.lastModified),
        savedAt: typeof value.savedAt === 'number' ? value.savedAt : 0,
      }
    : null;

/** A {@link BucketingFileCache} in memory. */
export class MemoryBucketingFileCache implements BucketingFileCache {
  private readonly files = new Map<string, CachedBucketingFile>();

  /** The file saved for `url`, or null. */
  load(url: string): Promise<CachedBucketingFile | null> {
    return Promise.resolve(this.files.get(url) ?? null);
  }

  /** Replaces the file saved for `url`. */
  save(url: string, file: CachedBucketingFile): Promise<void> {
    this.files.set(url, { ...file });
    return Promise.resolve();
  }
}

// Node's default store lives as long as the process, as IndexedDB lives as long as the browser profile: an SDK
// closed and started again in the same process starts at once from the last file.
const processFiles = new MemoryBucketingFileCache();

const STORE = 'files';

/**
 * A {@link BucketingFileCache} in IndexedDB (database `feature-ts-bucketing`, apart from the visitor and hit
 * caches so neither schema has to know the other). The first storage error is logged once and every later
 * call goes to memory. The connection is opened per call and closed after it: calls are rare (one load per
 * start, one save per new file), and an open connection would block another tab's upgrade.
 */
export class IdbBucketingFileCache implements BucketingFileCache {
  private fallback: MemoryBucketingFileCache | null = null;

  /** A cache in the database `dbName` (default `feature-ts-bucketing`). */
  constructor(
    private readonly logger: Pick<Logger, 'warning'>,
    private readonly dbName = 'feature-ts-bucketing',
  ) {}

  /** The file saved for `url`, or null. */
  load(url: string): Promise<CachedBucketingFile | null> {
    return this.run(
      async (db) => asCachedFile(await db.get(STORE, url)),
      (memory) => memory.load(url),
    );
  }

  /** Replaces the file saved for `url`. */
  save(url: string, file: CachedBucketingFile): Promise<void> {
    return this.run(
      async (db) => {
        await db.put(STORE, { ...file }, url);
      },
      (memory) => memory.save(url, file),
    );
  }

  private async run<T>(
    work: (db: Awaited<ReturnType<typeof openDB>>) => Promise<T>,
    fallback: (memory: MemoryBucketingFileCache) => Promise<T>,
  ): Promise<T> {
    if (this.fallback === null)
      try {
        const db = await openDB(this.dbName, 1, {
          upgrade: (database) => void database.createObjectStore(STORE),
        });
        try {
          return await work(db);
        } finally {
          db.close();
        }
      } catch (error) {
        this.fallback = new MemoryBucketingFileCache();
        this.logger.warning(
          `Storage: IndexedDB "${this.dbName}" failed (${String(error)}); the bucketing file is kept in memory instead`,
          `idb-fallback:${this.dbName}`,
        );
      }
    return fallback(this.fallback);
  }
}

/** The platform's default store: IndexedDB where the global exists (browsers), else the process's memory. */
export const defaultBucketingFileCache = (logger: Pick<Logger, 'warning'>): BucketingFileCache =>
  typeof indexedDB === 'undefined' ? processFiles : new IdbBucketingFileCache(logger);

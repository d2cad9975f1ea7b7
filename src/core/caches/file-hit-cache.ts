// `feature-ts/file-hit-cache` (Node only): the hit cache in one JSON file, so hits and activations that the
// server has not taken yet survive a restart and are sent at the next start (docs/caches.md, "File"). The
// SDK's other entries never import this module, so no browser build holds `node:fs`.
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { HitCacheRecord, IHitCacheImplementation } from '../../protocol/index.js';
import { withFileLock } from './file-lock.js';

/** Options of {@link fileHitCache}. */
export interface FileHitCacheOptions {
  /**
   * The cache file, e.g. `.feature-ts/hits-{envId}.json` (relative to the working directory); its folder is
   * made when missing. Give each environment its own file: the SDK sends what it finds there to its own.
   */
  path: string;
  /** Most records kept; past it the oldest (by `createdAt`) are dropped. Default 10 000, as the SDK's pool. */
  maxItems?: number;
  /** Most bytes of the file; past it the oldest records are dropped. Default 5 MB, as the SDK's pool. */
  maxBytes?: number;
}

const DEFAULT_MAX_ITEMS = 10_000;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

type HitMap = Record<string, HitCacheRecord>;

const positiveInteger = (value: number | undefined, fallback: number, name: string): number => {
  if (value === undefined) return fallback;
  if (Number.isInteger(value) && value > 0) return value;
  throw new Error(`fileHitCache: ${name} must be a positive integer, got ${String(value)}`);
};

const isMap = (value: unknown): value is HitMap =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Epoch ms of a record's creation; a record without one sorts first, so it is the first dropped. */
const createdAt = (record: unknown): number => {
  const at = (record as { data?: { content?: { createdAt?: unknown } } } | null)?.data?.content?.createdAt;
  return typeof at === 'number' ? at : -Infinity;
};

/**
 * The hit cache (SPEC.md `IHitCacheImplementation`) in one file: a JSON object of PROTOCOL.md §11 records keyed
 * by `hid`, one record per line, the same map `cacheHits` takes (docs/caches.md shows it).
 *
 * - **Atomic.** Every change writes a temporary file next to it, flushes it to disk and renames it over the
 *   cache file, so a crash or a reader never sees half a file.
 * - **Shared safely.** Each change reads the file, applies itself and writes it back under a `{path}.lock`
 *   file, so processes sharing one file (cluster workers) never lose each other's records. Each of them
 *   sends what it finds at start; a hit sent twice that way is counted once by the server (its `hid`).
 * - **Bounded.** At most `maxItems` records and `maxBytes` bytes: past either, the oldest records are dropped
 *   (counted in {@link FileHitCache.evicted}); the SDK's pool has the same bounds and warns when it drops.
 * - **Unreadable file.** One that is not a JSON object is moved aside to `{path}.unreadable-{time}`, and the
 *   call fails naming both (the SDK logs it once); the cache starts over empty.
 */
export class FileHitCache implements IHitCacheImplementation {
  /** The cache file's absolute path. */
  readonly path: string;
  readonly #maxItems: number;
  readonly #maxBytes: number;
  // This process's changes, one after another: the lock file orders processes, this orders our own calls
  // without their polling each other's lock.
  #queue: Promise<unknown> = Promise.resolve();
  #evicted = 0;

  /** A cache in `options.path`; throws when an option cannot work. See {@link FileHitCacheOptions}. */
  constructor(options: FileHitCacheOptions) {
    const given: unknown = options;
    if (!isMap(given) || typeof options.path !== 'string' || options.path.trim() === '')
      throw new Error(
        'fileHitCache: path must name the cache file, e.g. fileHitCache({ path: `.feature-ts/hits-${envId}.json` })',
      );
    this.path = resolve(options.path);
    this.#maxItems = positiveInteger(options.maxItems, DEFAULT_MAX_ITEMS, 'maxItems');
    this.#maxBytes = positiveInteger(options.maxBytes, DEFAULT_MAX_BYTES, 'maxBytes');
  }

  /** How many records the bounds have dropped since this object was made. */
  get evicted(): number {
    return this.#evicted;
  }

  /** Stores each record under its hit id, replacing an older copy. */
  cacheHits(hits: HitMap): Promise<void> {
    const entries = Object.entries(hits);
    if (entries.length === 0) return Promise.resolve();
    return this.#change((map) => {
      for (const [hid, record] of entries) map.set(hid, record);
      return true;
    });
  }

  /** Every stored record, as one map (no map when there is none). */
  async lookupHits(): Promise<HitMap[]> {
    // No lock: the file is only ever replaced whole (rename), so a read sees one complete version.
    await this.#queue;
    const map = await this.#read();
    return map.size > 0 ? [Object.fromEntries(map)] : [];
  }

  /** Erases the given hits; unknown ids are ignored. */
  flushHits(hitIds: string[]): Promise<void> {
    if (hitIds.length === 0) return Promise.resolve();
    return this.#change((map) => {
      let changed = false;
      for (const hid of hitIds) changed = map.delete(hid) || changed;
      return changed;
    });
  }

  /** Erases every hit: the file is removed. */
  flushAllHits(): Promise<void> {
    return this.#serial(() => withFileLock(this.path, () => rm(this.path, { force: true })));
  }

  #serial(work: () => Promise<void>): Promise<void> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** Applies `edit` to the file's map under the lock; writes when it says it changed something. */
  #change(edit: (map: Map<string, HitCacheRecord>) => boolean): Promise<void> {
    return this.#serial(() =>
      withFileLock(this.path, async () => {
        const map = await this.#read();
        if (edit(map)) await this.#write(map);
      }),
    );
  }

  async #read(): Promise<Map<string, HitCacheRecord>> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return new Map();
      throw error;
    }
    let map: unknown;
    try {
      map = JSON.parse(text);
    } catch {
      // reported below with the file moved aside, as JSON of the wrong shape
    }
    // Records are handed over as stored: the SDK checks every record it reads back (PROTOCOL.md §11).
    if (isMap(map)) return new Map(Object.entries(map));
    const aside = `${this.path}.unreadable-${Date.now()}`;
    await rename(this.path, aside);
    throw new Error(
      `fileHitCache: ${this.path} is not a JSON object of hit records; moved to ${aside}, starting empty`,
    );
  }

  /** Writes `map` within the bounds (oldest records dropped first), or removes the file when it is empty. */
  async #write(map: Map<string, HitCacheRecord>): Promise<void> {
    const lines = [...map]
      .sort(([, a], [, b]) => createdAt(a) - createdAt(b))
      .map(([hid, record]) => `${JSON.stringify(hid)}:${JSON.stringify(record)}`);
    // The file is `{`, the lines joined by `,\n`, `}` and newlines: 4 bytes plus 2 per line besides the lines.
    let bytes = 4 + lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 2, 0);
    let first = 0;
    while (lines.length - first > this.#maxItems || (bytes > this.#maxBytes && first < lines.length)) {
      bytes -= Buffer.byteLength(lines[first] ?? '') + 2;
      first += 1;
    }
    this.#evicted += first;
    const kept = lines.slice(first);
    if (kept.length === 0) return rm(this.path, { force: true });
    await mkdir(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}-${globalThis.crypto.randomUUID().slice(0, 8)}.tmp`;
    try {
      const handle = await open(temporary, 'w');
      try {
        await handle.writeFile(`{\n${kept.join(',\n')}\n}\n`);
        // On disk before the rename: else a power cut after it could leave an empty file under the name.
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await rename(temporary, this.path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}

/**
 * The hit cache in a file, for `withCacheHitManager`: pending hits survive a restart and are sent at the next
 * start. `fileHitCache('.feature-ts/hits.json')` or `fileHitCache({ path, maxItems, maxBytes })`; see
 * {@link FileHitCache}.
 */
export const fileHitCache = (options: FileHitCacheOptions | string): FileHitCache =>
  new FileHitCache(typeof options === 'string' ? { path: options } : options);

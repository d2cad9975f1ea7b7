// `feature-ts/redis` (Node only): the visitor cache and the hit cache in Redis, so the processes of a fleet
// share visitors' sticky variations and each other's pending hits (docs/caches.md, "Redis"). The client is the
// application's: this module imports no Redis package, and the SDK's other entries never import this one.
import {
  HIT_LIMITS,
  type HitCacheRecord,
  type IHitCacheImplementation,
  type IVisitorCacheImplementation,
} from '../../protocol/index.js';
import { CACHE_SCRIPT, FLUSH_SCRIPT, LOOKUP_SCRIPT, RELEASE_SCRIPT, RENEW_SCRIPT } from './redis-scripts.js';

/**
 * What the Redis caches need of a client: one raw command at a time. A node-redis client (`createClient()`
 * of the `redis` package, connected) has this method as it is; another client fits in one line, e.g. ioredis:
 * `{ sendCommand: ([name, ...args]) => ioredis.call(name, ...args) }`.
 */
export interface RedisCommandClient {
  /** Sends one command (`['SET', key, value]`) and resolves with its reply. */
  sendCommand(args: string[]): Promise<unknown>;
}

/** Options both Redis caches take. */
export interface RedisCacheOptions {
  /** The environment id: every key lives under `{prefix}:{envId}:`, so environments never share records. */
  envId: string;
  /** The first part of every key; default `feature-ts`. */
  prefix?: string;
}

/** Options of {@link redisVisitorCache}. */
export interface RedisVisitorCacheOptions extends RedisCacheOptions {
  /** Seconds a visitor's record lives after its last write; default 90 days; 0 keeps records forever. */
  ttlSeconds?: number;
}

/** Options of {@link redisHitCache}. */
export interface RedisHitCacheOptions extends RedisCacheOptions {
  /**
   * Seconds a process's claim on cached hits outlives its last sign of life; default 30. A process that dies
   * leaves its hits to the next process that starts once this has passed.
   */
  leaseSeconds?: number;
}

/** The default lifetime of a visitor record: long enough for a visitor to keep a variation through a test. */
const DEFAULT_TTL_SECONDS = 90 * 24 * 60 * 60;
const DEFAULT_LEASE_SECONDS = 30;

/** `{prefix}:{envId}`; a configuration that cannot work throws here, at construction (DESIGN.md errors). */
const keyBase = (options: RedisCacheOptions, cache: string): string => {
  if (typeof options.envId !== 'string' || options.envId === '')
    throw new Error(`${cache}: envId must be the environment id (a non-empty string)`);
  if (options.prefix === '') throw new Error(`${cache}: prefix must not be empty (default "feature-ts")`);
  return `${options.prefix ?? 'feature-ts'}:${options.envId}`;
};

const positive = (value: number, cache: string, name: string, zeroAllowed: boolean): number => {
  if (!Number.isFinite(value) || value < 0 || (!zeroAllowed && value === 0))
    throw new Error(
      `${cache}: ${name} must be a ${zeroAllowed ? 'non-negative' : 'positive'} number of seconds`,
    );
  return value;
};

/**
 * The visitor cache (SPEC.md `IVisitorCacheImplementation`) in Redis: one string key per visitor,
 * `{prefix}:{envId}:visitor:{visitorId}`, holding the JSON text of PROTOCOL.md §10, with a time to live
 * renewed at each write. Every process reading the same keys keeps a visitor's assignments (§8.4).
 */
export class RedisVisitorCache implements IVisitorCacheImplementation {
  private readonly base: string;
  private readonly ttlSeconds: number;

  /** Keys under `options.prefix` and `options.envId`; see {@link RedisVisitorCacheOptions}. */
  constructor(
    private readonly client: RedisCommandClient,
    options: RedisVisitorCacheOptions,
  ) {
    this.base = keyBase(options, 'redisVisitorCache');
    this.ttlSeconds = Math.ceil(
      positive(options.ttlSeconds ?? DEFAULT_TTL_SECONDS, 'redisVisitorCache', 'ttlSeconds', true),
    );
  }

  /** The key of a visitor's record. */
  keyOf(visitorId: string): string {
    return `${this.base}:visitor:${visitorId}`;
  }

  /** Upserts the visitor's JSON text and restarts its time to live. */
  async cacheVisitor(visitorId: string, json: string): Promise<void> {
    const expiry = this.ttlSeconds > 0 ? ['EX', String(this.ttlSeconds)] : [];
    await this.client.sendCommand(['SET', this.keyOf(visitorId), json, ...expiry]);
  }

  /** The visitor's JSON text, or null. */
  async lookupVisitor(visitorId: string): Promise<string | null> {
    const json = await this.client.sendCommand(['GET', this.keyOf(visitorId)]);
    return typeof json === 'string' ? json : null;
  }

  /** Erases the visitor's record. */
  async flushVisitor(visitorId: string): Promise<void> {
    await this.client.sendCommand(['DEL', this.keyOf(visitorId)]);
  }
}

// One owner token per cache object, `{pid}-{random}`: the pid helps an operator reading the owners hash.
const ownerToken = (): string => `${process.pid}-${globalThis.crypto.randomUUID().slice(0, 8)}`;

/**
 * The hit cache (SPEC.md `IHitCacheImplementation`, PROTOCOL.md §11) in Redis, shared by a fleet. Records
 * live in one hash per environment; a claim per record says which process sends it, so each cached hit goes
 * out from one process (the server counts a `hid` once anyway, PROTOCOL.md §5.4: claims save the duplicates).
 *
 * - `cacheHits` stores records claimed by this process: its tracker holds them in its pool.
 * - The first `lookupHits` (the tracker's, at start: it pools what it gets) claims, in one atomic script, the
 *   records whose owner is gone (no claim, or a lease that ended) and returns them with this process's own.
 *   Later lookups (the tracker checking what the cache still holds before a send, or looking for a visitor's
 *   copies on consent withdrawal) return the same kinds of records but claim nothing: records this process
 *   does not pool stay free for the next process that starts.
 * - A process renews its lease every third of `leaseSeconds` on a timer that never keeps Node alive; if it
 *   dies, its claims end with its lease and the next process to start sends its hits.
 * - {@link RedisHitCache.release} ends the lease at once, for a clean shutdown after `Feature.close()`.
 */
export class RedisHitCache implements IHitCacheImplementation {
  /** The three hashes: records, claims, owners (see redis-scripts.ts). */
  readonly keys: readonly [records: string, claims: string, owners: string];
  /** This object's owner token: the value of its claims and its key in the owners hash. */
  readonly owner: string = ownerToken();
  private readonly leaseMs: number;
  private lookups = 0;
  private heartbeat: ReturnType<typeof setInterval> | undefined;

  /** Keys under `options.prefix` and `options.envId`; see {@link RedisHitCacheOptions}. */
  constructor(
    private readonly client: RedisCommandClient,
    options: RedisHitCacheOptions,
  ) {
    const base = keyBase(options, 'redisHitCache');
    this.keys = [`${base}:hits`, `${base}:hit-claims`, `${base}:hit-owners`];
    const lease = positive(
      options.leaseSeconds ?? DEFAULT_LEASE_SECONDS,
      'redisHitCache',
      'leaseSeconds',
      false,
    );
    this.leaseMs = Math.max(1, Math.ceil(lease * 1000));
  }

  private script(script: string, args: string[]): Promise<unknown> {
    return this.client.sendCommand(['EVAL', script, String(this.keys.length), ...this.keys, ...args]);
  }

  /** Starts renewing the lease, once this object holds records. */
  private alive(): void {
    if (this.heartbeat !== undefined) return;
    this.heartbeat = setInterval(
      () => {
        // A failed renewal is retried at the next tick; the tracker's own calls report Redis failures.
        this.script(RENEW_SCRIPT, [this.owner, String(this.leaseMs)]).catch(() => undefined);
      },
      Math.max(1, Math.floor(this.leaseMs / 3)),
    );
    this.heartbeat.unref();
  }

  /** Stores each record under its hit id, claimed by this process. */
  async cacheHits(hits: Record<string, HitCacheRecord>): Promise<void> {
    const entries = Object.entries(hits);
    if (entries.length === 0) return;
    this.alive();
    const args = [this.owner, String(this.leaseMs), String(HIT_LIMITS.maxItemAgeMs + this.leaseMs)];
    for (const [hid, record] of entries) args.push(hid, JSON.stringify(record));
    await this.script(CACHE_SCRIPT, args);
  }

  /**
   * The records this process may send: its own and those nobody alive holds, claimed by the first lookup
   * only (one map, none when empty).
   */
  async lookupHits(): Promise<Array<Record<string, HitCacheRecord>>> {
    this.alive();
    const claim = this.lookups === 0 ? '1' : '0';
    const reply = await this.script(LOOKUP_SCRIPT, [this.owner, String(this.leaseMs), claim]);
    this.lookups += 1;
    if (!Array.isArray(reply)) throw new Error(`redisHitCache: unexpected lookup reply ${String(reply)}`);
    const found: Record<string, HitCacheRecord> = {};
    for (let i = 0; i + 1 < reply.length; i += 2) {
      let record: unknown = null;
      try {
        record = JSON.parse(String(reply[i + 1]));
      } catch {
        // Unreadable: handed over as null, which the tracker drops and flushes (PROTOCOL.md §11).
      }
      found[String(reply[i])] = record as HitCacheRecord;
    }
    return Object.keys(found).length > 0 ? [found] : [];
  }

  /** Erases the given hits and their claims; unknown ids are ignored. */
  async flushHits(hitIds: string[]): Promise<void> {
    if (hitIds.length > 0) await this.script(FLUSH_SCRIPT, hitIds);
  }

  /** Erases every hit of this environment, whichever process holds it (other keys are left alone). */
  async flushAllHits(): Promise<void> {
    await this.client.sendCommand(['DEL', this.keys[0], this.keys[1]]);
  }

  /**
   * Stops renewing and ends this process's lease at once, so other processes take what it left in the cache
   * at their next start. Call it after `Feature.close()` (which caches what the server did not take yet).
   */
  async release(): Promise<void> {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    await this.script(RELEASE_SCRIPT, [this.owner]);
  }
}

/** The visitor cache in Redis, for `withCacheVisitorManager` (see {@link RedisVisitorCache}). */
export const redisVisitorCache = (
  client: RedisCommandClient,
  options: RedisVisitorCacheOptions,
): RedisVisitorCache => new RedisVisitorCache(client, options);

/** The hit cache in Redis, for `withCacheHitManager` (see {@link RedisHitCache}). */
export const redisHitCache = (client: RedisCommandClient, options: RedisHitCacheOptions): RedisHitCache =>
  new RedisHitCache(client, options);

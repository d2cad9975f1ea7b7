import {
  CACHE_VERSION,
  activateRoute,
  eventsRoute,
  type CachedHitType,
  type HitCacheRecord,
  type JsonValue,
} from '../../protocol/index.js';
import { BatchCachingStrategy } from '../status.js';
import { VisitorExposures } from './exposures.js';
import { HitProtocol } from './hits.js';
import { DEFAULT_POOL_BOUNDS, type PoolBounds } from './manager-bounds.js';
import { beaconPool } from './manager-page-hide.js';
import { createHitPool, pooled } from './manager-pool.js';
import { createSchedule, type SendSchedule } from './manager-schedule.js';
import { sendPool, type SendTarget } from './manager-send.js';
import { withTabLock } from './manager-tab-lock.js';
import type { Tracker, TrackerDeps, TrackedVisitor } from './tracker.js';
import { uuidV4 } from './uuid.js';

/** The longest server-asked wait `close()` waits out before its last pass (a 429's `Retry-After`, a backoff). */
export const CLOSE_WAIT_LIMIT_MS = 10_000;

/** Knobs tests turn; the SDK uses the defaults. */
export interface TrackerTuning {
  /** The clock for `createdAt`, `qt` and the 4-hour limit; default `Date.now`. */
  now?: () => number;
  /** Per-request timeout; default 10 000 ms. */
  requestTimeoutMs?: number;
  /** The first backoff delay; default 1000 ms (PROTOCOL.md §5.3). */
  retryBaseMs?: number;
  /** Bounds of the pool and the hit cache; default {@link DEFAULT_POOL_BOUNDS}. */
  bounds?: Partial<PoolBounds>;
}

/**
 * Creates the tracking manager (PROTOCOL.md §5.3): one pool for hits and activations ({@link createHitPool}),
 * flushed every `batchIntervals` seconds or at `poolMaxSize` items, one request at a time ({@link sendPool}),
 * cached per strategy, retried with the same `hid` (the server counts each once) and never before the wait a
 * failed send set ({@link createSchedule}), removed from the cache once acknowledged. Records an earlier page
 * view or process left in the cache are queued again at creation, without callbacks. Page hide sends the pool
 * by beacon ({@link beaconPool}).
 *
 * Tabs of one origin share the IndexedDB cache: each send pass holds the origin's Web Lock for the
 * environment and first re-reads the cache, so an item another tab sent and flushed meanwhile is dropped,
 * not sent again ({@link withTabLock}). The pool is bounded (`tuning.bounds`), and with it the cache it
 * mirrors (what several tabs left is bounded again when a page loads it): past a bound the oldest items are
 * evicted from both, with one warning per send pass that says how many.
 */
export const createTracker = (deps: TrackerDeps, tuning: TrackerTuning = {}): Tracker => {
  const { envId, config, hitCache, logger } = deps;
  const clock = tuning.now ?? Date.now;
  const continuous = config.batchStrategy === BatchCachingStrategy.BATCH_CONTINUOUS_CACHING;
  const target: SendTarget = {
    envId,
    apiKey: deps.apiKey,
    urls: [activateRoute(deps.decisionApiUrl), eventsRoute(deps.eventsUrl)],
    timeoutMs: tuning.requestTimeoutMs ?? 10_000,
    clock,
    logger,
    serverHint: deps.serverHint,
  };
  const pool = createHitPool(hitCache, logger, clock, { ...DEFAULT_POOL_BOUNDS, ...tuning.bounds });
  const items = () => pool.items();
  let closed = false;

  const ready = pool.load();
  const schedule: SendSchedule = createSchedule({
    pass: async () => {
      await ready;
      await withTabLock(`feature-ts-hits:${envId}`, () => sendPool(target, pool, schedule));
    },
    beforeInterval: () => (continuous ? Promise.resolve() : pool.write(items())),
    intervalMs: config.batchIntervals * 1000,
    clock,
    logger,
    retryBaseMs: tuning.retryBaseMs,
  });

  const add = async (
    visitor: TrackedVisitor,
    type: CachedHitType,
    fields: Readonly<Record<string, JsonValue>>,
    onAck?: () => void,
    authenticated = false,
  ): Promise<void> => {
    if (closed) return logger.warning(`Tracking: ${type} not sent: the SDK is closed`, 'tracker-closed');
    const now = clock();
    const hid = uuidV4();
    const { visitorId, anonymousId } = visitor;
    // One object, the fields spread once: the hit's content as the cache stores it.
    const content: HitCacheRecord['data']['content'] = { hid, createdAt: now, ...fields };
    if (authenticated) content.authenticated = true;
    const item = pooled(
      { version: CACHE_VERSION, data: { visitorId, anonymousId, type, time: now, content } },
      false,
      onAck,
    );
    await pool.add(item);
    if (continuous && pool.get(hid) === item) await pool.write([item]);
    if (pool.size >= config.poolMaxSize) void schedule.run();
  };

  const unregisterPageHide = deps.onPageHide?.(() => beaconPool(target, pool, schedule));

  /** Pools a hit whose content is known to be valid (checked by `sendHit`, or built by the SDK). */
  const addHit: Tracker['addHit'] = (visitor, hit) =>
    // Only this case needs the flag: the ids alone cannot tell it from an anonymous visitor (wire.ts).
    add(visitor, hit.type, hit.content, undefined, visitor.authenticated && visitor.anonymousId === null);

  const addActivation: Tracker['addActivation'] = (visitor, a, onAcknowledged) =>
    add(
      visitor,
      'ACTIVATE',
      { variationGroupId: a.variationGroupId, variationId: a.variationId, flagKey: a.flagKey },
      onAcknowledged,
    );
  const exposures = new WeakMap<object, VisitorExposures>();

  return {
    addHit,
    sendHit(visitor, hit) {
      if (!(hit instanceof HitProtocol))
        logger.error('sendHit takes a Screen, Page, Transaction, Item or Event hit.');
      else {
        // The one validation point of a hit (PROTOCOL.md §5.1): a hit its builder already asked about (the
        // `<feature-hit>` element, to report the problem) answers from that check.
        const problem = hit.validate();
        if (problem === null) return addHit(visitor, hit.toTrackedHit());
        logger.error(`hit not sent: ${problem}`);
      }
      return Promise.resolve();
    },
    addActivation,
    expose(owner, exposure) {
      let mine = exposures.get(owner);
      if (mine === undefined)
        exposures.set(owner, (mine = new VisitorExposures(addActivation, deps.onVisitorExposed, logger)));
      return mine.expose(exposure);
    },
    async dropVisitor(visitorId, owner) {
      if (owner !== undefined) exposures.get(owner)?.dropUnacknowledged();
      await ready;
      const owned = (record: unknown): boolean => {
        const data = (record as Partial<HitCacheRecord> | undefined)?.data;
        return data?.visitorId === visitorId || data?.anonymousId === visitorId;
      };
      const hids: string[] = [];
      const mine = items().filter((item) => owned(item.record));
      await pool.remove(mine);
      // Copies may also sit in the cache outside the pool (beaconed, or another tab's): consent covers them.
      await pool.call('read', async () => {
        for (const batch of await hitCache.lookupHits())
          for (const [hid, record] of Object.entries(batch)) if (owned(record)) hids.push(hid);
      });
      await pool.flush(hids);
    },
    flush: () => schedule.run(),
    async close() {
      if (!closed) {
        closed = true;
        schedule.stop();
        unregisterPageHide?.();
      }
      // Like any pass, this one sends nothing before the server's wait is over. `close()` flushes and waits
      // (§5.3): a wait of up to CLOSE_WAIT_LIMIT_MS is waited out, so a process that closes right after a 429
      // still sends; after a longer one, what is left stays in the hit cache for the next start.
      await schedule.waitOut(CLOSE_WAIT_LIMIT_MS);
      await schedule.run();
      // That pass failed and set a wait (a refused connection, a 503): a process that closes usually exits next,
      // so one more attempt once a short wait is over, then no more (two passes at most).
      if (pool.size > 0 && !schedule.due()) {
        schedule.final = true;
        await schedule.waitOut(CLOSE_WAIT_LIMIT_MS);
        await schedule.run();
      }
      pool.report();
      // What the server would not take yet stays in the cache for the next start, if the cache outlives us.
      await pool.write(items());
      if (pool.size > 0) deps.reportUndelivered?.(items());
    },
  };
};

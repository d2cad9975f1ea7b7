import {
  CACHE_VERSION,
  HIT_LIMITS,
  activateRoute,
  eventsRoute,
  isJsonObject,
  type CachedHitType,
  type HitCacheRecord,
  type JsonValue,
} from '../../protocol/index.js';
import { BatchCachingStrategy } from '../status.js';
import { backoffDelay, nextBatch, type Batch, type PooledItem } from './batches.js';
import { VisitorExposures } from './exposures.js';
import { validateHitContent } from './hit-fields.js';
import { HitProtocol } from './hits.js';
import { beaconPlan } from './manager-page-hide.js';
import { DEFAULT_POOL_BOUNDS, type PoolBounds } from './manager-bounds.js';
import { createHitPool, expired, hidOf, pooled } from './manager-pool.js';
import { withTabLock } from './manager-tab-lock.js';
import type { Tracker, TrackerDeps, TrackedVisitor } from './tracker.js';
import { postText, sendBeacon, type SendResult } from './transport.js';
import { uuidV4 } from './uuid.js';

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
 * Creates the tracking manager (PROTOCOL.md §5.3): one pool for hits and activations, flushed every
 * `batchIntervals` seconds or at `poolMaxSize` items, one request at a time (so an item is never in two
 * sends at once), cached per strategy, retried with the same `hid` (the server counts each once), removed
 * from the cache once acknowledged. Records an earlier page view or process left in the cache are queued
 * again at creation, without callbacks.
 *
 * Page hide sends the pool by beacon, within the page's 64 KiB keepalive budget ({@link beaconPlan}). A
 * beacon's answer cannot be read, so beaconed items stay pooled and cached: if the page lives on (a tab
 * switch) the next flush sends them again and reads the answer; if it dies, the next page view sends them
 * from the cache. Either way the server counts each `hid` once.
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
  const timeoutMs = tuning.requestTimeoutMs ?? 10_000;
  const continuous = config.batchStrategy === BatchCachingStrategy.BATCH_CONTINUOUS_CACHING;
  const urls = [activateRoute(deps.decisionApiUrl), eventsRoute(deps.eventsUrl)] as const;
  const pool = createHitPool(hitCache, logger, clock, { ...DEFAULT_POOL_BOUNDS, ...tuning.bounds });
  const items = () => pool.items();
  let closed = false;
  let failures = 0;
  let retryAt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const ready = pool.load();

  /** Applies an answer; false when the pass must stop because the server asked us to wait. */
  const settle = async (batch: Batch, result: SendResult): Promise<boolean> => {
    const what = `${batch.items.length} ${batch.activation ? 'activations' : 'hits'}`;
    if (result.kind === 'retry') {
      const delay = result.retryAfterMs ?? backoffDelay(failures++, Math.random(), tuning.retryBaseMs);
      retryAt = clock() + delay;
      clearTimeout(retryTimer);
      // Forced: this timer is the schedule, and a timer may fire a millisecond before the clock says so.
      if (!closed) retryTimer = setTimeout(() => void run(true), delay);
      logger.warning(`Tracking: ${what} kept, next attempt in ${Math.round(delay)} ms (${result.reason})`);
      return false;
    }
    failures = 0;
    // Items dropped meanwhile (consent withdrawn) are no longer ours to acknowledge.
    const mine = batch.items.filter((item) => pool.get(hidOf(item)) === item);
    const rejected = new Set<PooledItem | undefined>();
    if (result.kind === 'drop') logger.error(`Tracking: ${what} dropped (${result.reason})`);
    else if (isJsonObject(result.body) && Array.isArray(result.body.rejected))
      for (const { index, message } of result.body.rejected as Array<{ index: number; message: string }>) {
        const item = batch.items[index];
        rejected.add(item);
        if (item) logger.error(`Tracking: ${item.record.data.type} ${hidOf(item)} rejected: ${message}`);
      }
    await pool.remove(mine);
    if (result.kind === 'ok')
      for (const item of mine)
        if (!rejected.has(item))
          try {
            item.onAck?.();
          } catch (error) {
            logger.error(`Tracking: an exposure callback threw: ${String(error)}`);
          }
    return true;
  };

  const pass = async (forced: boolean): Promise<void> => {
    await ready;
    if (!forced && clock() < retryAt) return;
    await withTabLock(`feature-ts-hits:${envId}`, () => send());
  };

  /** Sends the pool, one request after another; stops at the first answer that says to wait. */
  const send = async (): Promise<void> => {
    await pool.recheck();
    pool.report();
    let rest = items().filter((item) => !item.inFlight);
    for (;;) {
      // What left the pool since (the previous request's items, a visitor's consent withdrawn) is not sent.
      rest = rest.filter((item) => pool.get(hidOf(item)) === item);
      // qt is measured here, when this request's body is built (PROTOCOL.md §5.3).
      const next = nextBatch(rest, envId, HIT_LIMITS.maxBatchBytes, clock());
      if (next === null) return;
      const { batch, body } = next;
      for (const item of batch.items) item.inFlight = true;
      const result = await postText(
        urls[batch.activation ? 0 : 1],
        body,
        // Hits go as text/plain, a CORS-safelisted type: no preflight. Activations carry the API key.
        batch.activation
          ? { contentType: 'application/json', headers: { 'x-api-key': deps.apiKey }, timeoutMs }
          : { contentType: 'text/plain', timeoutMs },
      );
      for (const item of batch.items) item.inFlight = false;
      if (!(await settle(batch, result))) return;
    }
  };

  // Passes run one after another; calls made while one waits share it, so a burst costs one pass.
  let chain: Promise<void> = Promise.resolve();
  let pending: Promise<void> | null = null;
  let forceNext = false;
  const run = (forced: boolean): Promise<void> => {
    forceNext ||= forced;
    if (pending) return pending;
    pending = chain = chain.then(async () => {
      pending = null;
      const force = forceNext;
      forceNext = false;
      await pass(force).catch((error: unknown) => logger.error(`Tracking: batch failed: ${String(error)}`));
    });
    return pending;
  };

  const add = async (
    visitor: TrackedVisitor,
    type: CachedHitType,
    fields: Record<string, JsonValue>,
    onAck?: () => void,
  ): Promise<void> => {
    if (closed) return logger.warning(`Tracking: ${type} not sent: the SDK is closed`, 'tracker-closed');
    const now = clock();
    const hid = uuidV4();
    const { visitorId, anonymousId } = visitor;
    const item = pooled(
      {
        version: CACHE_VERSION,
        data: { visitorId, anonymousId, type, time: now, content: { hid, createdAt: now, ...fields } },
      },
      false,
      onAck,
    );
    await pool.add(item);
    if (continuous && pool.get(hid) === item) await pool.write([item]);
    if (pool.size >= config.poolMaxSize) void run(false);
  };

  const interval = setInterval(() => {
    void (continuous ? Promise.resolve() : pool.write(items())).then(() => run(false));
  }, config.batchIntervals * 1000);
  // A background timer must not keep a Node process alive: `close()` is the way to flush before exit.
  (interval as { unref?: () => void }).unref?.();

  const unregisterPageHide = deps.onPageHide?.(() => {
    const now = clock();
    const list = items().filter((item) => !expired(item, now));
    // Periodic strategy: every item gets a copy for the next page view before any beacon goes (nobody reads
    // a beacon's answer, and what does not fit the budget waits there), in-flight ones too (their answer may
    // never come). Best effort: the page may end before the write does.
    void pool.write(list);
    const waiting = list.filter((item) => !item.inFlight && !item.beaconed);
    for (const { batch, body } of beaconPlan(waiting, envId, now)) {
      for (const item of batch.items) item.beaconed = true;
      sendBeacon(urls[batch.activation ? 0 : 1], body);
    }
  });

  /** Pools a hit whose content has already been checked. */
  const addChecked: Tracker['addHit'] = (visitor, hit) => {
    // Only this case needs the flag: the ids alone cannot tell it from an anonymous visitor (wire.ts).
    const flag = visitor.authenticated && visitor.anonymousId === null ? { authenticated: true } : {};
    return add(visitor, hit.type, { ...hit.content, ...flag });
  };

  const addHit: Tracker['addHit'] = (visitor, hit) => {
    const problem = validateHitContent(hit.type, hit.content);
    if (problem === null) return addChecked(visitor, hit);
    logger.error(`Tracking: hit not sent: ${problem}`);
    return Promise.resolve();
  };

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
        const problem = hit.validate();
        // `validate()` ran the same checks on the same fields: no second pass through addHit's.
        if (problem === null) return addChecked(visitor, hit.toTrackedHit());
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
    flush: () => run(true),
    async close() {
      if (!closed) {
        closed = true;
        clearInterval(interval);
        unregisterPageHide?.();
      }
      await run(true);
      clearTimeout(retryTimer);
      pool.report();
      // What the server would not take yet stays in the cache for the next start.
      await pool.write(items());
    },
  };
};

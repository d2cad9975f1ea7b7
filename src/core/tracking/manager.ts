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
import { backoffDelay, batchBody, planBatches, type Batch, type PooledItem } from './batches.js';
import { VisitorExposures } from './exposures.js';
import { validateHitContent } from './hit-fields.js';
import { HitProtocol } from './hits.js';
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
}

const pooled = (record: HitCacheRecord, cached: boolean, onAck?: () => void): PooledItem => ({
  record,
  cached,
  inFlight: false,
  beaconed: false,
  onAck,
});

/**
 * Creates the tracking manager (PROTOCOL.md §5.3): one pool for hits and activations, flushed every
 * `batchIntervals` seconds or at `poolMaxSize` items, one request at a time (so an item is never in two
 * sends at once), cached per strategy, retried with the same `hid` (the server counts each once), removed
 * from the cache once acknowledged. Records an earlier page view or process left in the cache are queued
 * again at creation, without callbacks.
 *
 * Page hide sends the pool by beacon. A beacon's answer cannot be read, so beaconed items stay pooled and
 * cached: if the page lives on (a tab switch) the next flush sends them again and reads the answer; if it
 * dies, the next page view sends them from the cache. Either way the server counts each `hid` once.
 */
export const createTracker = (deps: TrackerDeps, tuning: TrackerTuning = {}): Tracker => {
  const { envId, config, hitCache, logger } = deps;
  const clock = tuning.now ?? Date.now;
  const timeoutMs = tuning.requestTimeoutMs ?? 10_000;
  const continuous = config.batchStrategy === BatchCachingStrategy.BATCH_CONTINUOUS_CACHING;
  const urls = [activateRoute(deps.decisionApiUrl), eventsRoute(deps.eventsUrl)] as const;
  const pool = new Map<string, PooledItem>();
  const items = () => [...pool.values()];
  const hidOf = (item: PooledItem): string => item.record.data.content.hid;
  let closed = false;
  let failures = 0;
  let retryAt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  // Cache failures are logged once per kind: the SDK goes on without the cache (DESIGN.md errors).
  const cacheCall = async (kind: string, call: () => unknown): Promise<boolean> => {
    try {
      await call();
      return true;
    } catch (error) {
      logger.error(`Tracking: hit cache ${kind} failed: ${String(error)}`, `hit-cache-${kind}`);
      return false;
    }
  };

  const cacheItems = async (list: readonly PooledItem[]): Promise<void> => {
    const fresh = list.filter((item) => !item.cached);
    if (fresh.length === 0) return;
    const records: Record<string, HitCacheRecord> = {};
    for (const item of fresh) {
      // Marked before the write so an acknowledgement landing meanwhile also flushes the copy.
      item.cached = true;
      item.record.data.time = clock();
      records[hidOf(item)] = item.record;
    }
    if (!(await cacheCall('write', () => hitCache.cacheHits(records))))
      for (const item of fresh) item.cached = false;
  };

  const uncache = async (hids: readonly string[]): Promise<void> => {
    if (hids.length > 0) await cacheCall('flush', () => hitCache.flushHits([...new Set(hids)]));
  };

  /** Takes items out of the pool and erases their cached copies. */
  const remove = (list: readonly PooledItem[]): Promise<void> => {
    for (const item of list) pool.delete(hidOf(item));
    return uncache(list.filter((item) => item.cached).map(hidOf));
  };

  const isFresh = (record: unknown, now: number): record is HitCacheRecord => {
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

  const ready = (async () => {
    const stale: string[] = [];
    let batches: Array<Record<string, unknown>> = [];
    await cacheCall('read', async () => (batches = await hitCache.lookupHits()));
    for (const batch of batches)
      for (const [hid, record] of Object.entries(batch))
        if (!isFresh(record, clock())) stale.push(hid);
        else if (!pool.has(record.data.content.hid)) pool.set(record.data.content.hid, pooled(record, true));
    // Older than 4 hours or of another version (PROTOCOL.md §11): never sent, erased.
    await uncache(stale);
  })();

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
    await remove(mine);
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
    const now = clock();
    const old = items().filter(
      (item) => !item.inFlight && now - item.record.data.content.createdAt > HIT_LIMITS.maxItemAgeMs,
    );
    if (old.length > 0) logger.warning(`Tracking: ${old.length} items older than 4 hours dropped`);
    await remove(old);
    if (!forced && now < retryAt) return;
    for (const batch of planBatches(
      items().filter((item) => !item.inFlight),
      HIT_LIMITS.maxBatchBytes,
      now,
    )) {
      for (const item of batch.items) item.inFlight = true;
      // qt is measured here, when this request's body is built (PROTOCOL.md §5.3).
      const body = batchBody(envId, batch, clock());
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
    pool.set(hid, item);
    if (continuous) await cacheItems([item]);
    if (pool.size >= config.poolMaxSize) void run(false);
  };

  const interval = setInterval(() => {
    void (continuous ? Promise.resolve() : cacheItems(items())).then(() => run(false));
  }, config.batchIntervals * 1000);
  // A background timer must not keep a Node process alive: `close()` is the way to flush before exit.
  (interval as { unref?: () => void }).unref?.();

  const unregisterPageHide = deps.onPageHide?.(() => {
    const list = items().filter((item) => !item.inFlight && !item.beaconed);
    // Periodic strategy: best effort to leave a copy for the next page view, since nobody reads the answer.
    void cacheItems(list);
    const now = clock();
    for (const batch of planBatches(list, HIT_LIMITS.maxBeaconBytes, now)) {
      for (const item of batch.items) item.beaconed = true;
      sendBeacon(urls[batch.activation ? 0 : 1], batchBody(envId, batch, now));
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
      for (const item of items()) if (owned(item.record)) hids.push(hidOf(item));
      for (const hid of hids) pool.delete(hid);
      // Copies may also sit in the cache outside the pool (beaconed, or another tab's): consent covers them.
      await cacheCall('read', async () => {
        for (const batch of await hitCache.lookupHits())
          for (const [hid, record] of Object.entries(batch)) if (owned(record)) hids.push(hid);
      });
      await uncache(hids);
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
      // What the server would not take yet stays in the cache for the next start.
      await cacheItems(items());
    },
  };
};

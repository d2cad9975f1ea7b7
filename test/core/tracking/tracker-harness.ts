// Builds a tracker wired to a protocol double and a memory hit cache, with a captured log and an optional
// fake clock, for the tracking manager tests.
import { MemoryHitCache } from '../../../src/core/caches/memory.js';
import { Level, Logger } from '../../../src/core/logger.js';
import { reportUndelivered } from '../../../src/core/tracking/manager-close.js';
import { createTracker, type TrackerTuning } from '../../../src/core/tracking/manager.js';
import type {
  Tracker,
  TrackedVisitor,
  TrackerDeps,
  TrackingManagerConfig,
} from '../../../src/core/tracking/tracker.js';
import { BatchCachingStrategy } from '../../../src/core/status.js';
import type { HitCacheRecord } from '../../../src/protocol/index.js';
import type { ProtocolDouble } from '../../support/protocol-double.js';

/** A tracker under test and what it talks to. */
export interface Harness {
  tracker: Tracker;
  cache: MemoryHitCache;
  logs: string[];
}

/** An anonymous visitor. */
export const anonymous: TrackedVisitor = { visitorId: 'anon-7', anonymousId: null, authenticated: false };
/** An authenticated visitor with its anonymous id (PROTOCOL.md §5 example). */
export const loggedIn: TrackedVisitor = { visitorId: 'user-42', anonymousId: 'anon-7', authenticated: true };

/**
 * Creates a tracker; `batchIntervals` defaults to an hour so the interval never fires unless mocked. `extra`
 * sets the dependencies the instance derives from the platform (the volatile cache's advice, the server hint).
 */
export const harness = (
  double: Pick<ProtocolDouble, 'url'>,
  config: TrackingManagerConfig = {},
  tuning: TrackerTuning = {},
  cache = new MemoryHitCache(),
  extra: Pick<TrackerDeps, 'serverHint'> & { volatileHitCache?: string } = {},
): Harness => {
  const logs: string[] = [];
  const logger = new Logger(Level.ALL, { log: (_level, name, message) => logs.push(`${name} ${message}`) });
  const tracker = createTracker(
    {
      envId: 'env1',
      apiKey: 'key1',
      decisionApiUrl: `${double.url}/v2/`,
      eventsUrl: `${double.url}/events`,
      config: {
        batchIntervals: 3600,
        poolMaxSize: 10,
        batchStrategy: BatchCachingStrategy.BATCH_CONTINUOUS_CACHING,
        ...config,
      },
      hitCache: cache,
      logger,
      serverHint: extra.serverHint,
      // As in Node: what close() leaves is reported, lost when the test says the cache is volatile.
      reportUndelivered: (left) => reportUndelivered(left, logger, extra.volatileHitCache),
    },
    { requestTimeoutMs: 2_000, retryBaseMs: 10, ...tuning },
  );
  return { tracker, cache, logs };
};

/** Every record in a memory hit cache, by hid. */
export const cached = async (cache: MemoryHitCache): Promise<Record<string, HitCacheRecord>> =>
  Object.assign({}, ...(await cache.lookupHits())) as Record<string, HitCacheRecord>;

/** The `h` array of a hit batch request body. */
export const hitsOf = (body: unknown): Array<Record<string, unknown>> =>
  (body as { h: Array<Record<string, unknown>> }).h;

/** The `batch` array of an activation request body. */
export const activationsOf = (body: unknown): Array<Record<string, unknown>> =>
  (body as { batch: Array<Record<string, unknown>> }).batch;

/** A Screen hit as the hit class hands it over. */
export const screen = (location = 'checkout') => ({ type: 'SCREENVIEW' as const, content: { location } });

// The sending side of the fault-injection test, the same in Node and in the page (bundled for Chromium): a
// tracking manager with short intervals and timeouts (TrackerTuning), a few invalid hits left in its cache as
// by an earlier run (the SDK checks what it builds, so only the cache can carry hits the server refuses), and
// N Event hits through the public `Event` class, each with its own label so the store can be checked hit by hit.
import { MemoryHitCache } from '../../src/core/caches/memory.js';
import { Level, Logger } from '../../src/core/logger.js';
import { BatchCachingStrategy } from '../../src/core/status.js';
import { Event } from '../../src/core/tracking/hits.js';
import { createTracker } from '../../src/core/tracking/manager.js';
import { uuidV4 } from '../../src/core/tracking/uuid.js';
import { EventCategory } from '../../src/core/public.js';
import { CACHE_VERSION, type HitCacheRecord } from '../../src/protocol/index.js';

/** What a run is told. */
export interface FaultRunOptions {
  proxyUrl: string;
  envId: string;
  apiKey: string;
  /** Valid hits to send. */
  n: number;
  /** Invalid hits left in the cache beforehand (`ev` below 0: the server rejects each by index, §5.2). */
  invalid: number;
  /** The label prefix; every valid hit is labelled `{prefix}{i}`. */
  prefix: string;
}

/** A run in progress. */
export interface FaultRun extends FaultSender {
  /** Log lines by level name. */
  logs: Record<string, number>;
}

/** What the test drives, in Node directly, in the page through `evaluate`. */
export interface FaultSender {
  /** Sends the N hits, in bursts, as an application would. */
  send(): Promise<void>;
  /** Hit records still in the cache (sent but unacknowledged, or not sent yet). */
  left(): Promise<number>;
  /** Asks for a pass now (the recovery does not wait for the backoff). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** The label of valid hit `i`. */
export const labelOf = (prefix: string, i: number): string => `${prefix}${i}`;

/** Starts a tracker pointed at the proxy, its cache holding the invalid hits. */
export const startFaultRun = async (options: FaultRunOptions): Promise<FaultRun> => {
  const cache = new MemoryHitCache();
  const now = Date.now();
  const invalid: Record<string, HitCacheRecord> = {};
  for (let i = 0; i < options.invalid; i += 1) {
    const hid = uuidV4();
    invalid[hid] = {
      version: CACHE_VERSION,
      data: {
        visitorId: 'fault-visitor',
        anonymousId: null,
        type: 'EVENT',
        time: now,
        content: {
          hid,
          createdAt: now,
          category: 'Action_Tracking',
          action: 'fault-invalid',
          label: `invalid-${i}`,
          value: -1,
        },
      },
    };
  }
  await cache.cacheHits(invalid);
  const logs: Record<string, number> = {};
  const logger = new Logger(Level.ALL, {
    log: (level) => {
      logs[String(level)] = (logs[String(level)] ?? 0) + 1;
    },
  });
  const tracker = createTracker(
    {
      envId: options.envId,
      apiKey: options.apiKey,
      decisionApiUrl: `${options.proxyUrl}/v2`,
      eventsUrl: `${options.proxyUrl}/events`,
      config: {
        batchIntervals: 1,
        poolMaxSize: 50,
        batchStrategy: BatchCachingStrategy.BATCH_CONTINUOUS_CACHING,
      },
      hitCache: cache,
      logger,
    },
    // Held answers (the proxy's `held`) outlast the 250 ms timeout; backoff starts at 20 ms.
    { requestTimeoutMs: 250, retryBaseMs: 20 },
  );
  const visitor = { visitorId: 'fault-visitor', anonymousId: null, authenticated: false };
  return {
    logs,
    async send() {
      for (let i = 0; i < options.n; i += 1) {
        const hit = new Event({
          category: EventCategory.Action_Tracking,
          action: 'fault-checkout',
          label: labelOf(options.prefix, i),
          value: i % 7,
        });
        await tracker.sendHit(visitor, hit);
        // Bursts of 10 with a pause: many requests while the faults are on, as a busy page makes.
        if (i % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async left() {
      let count = 0;
      for (const batch of await cache.lookupHits()) count += Object.keys(batch).length;
      return count;
    },
    flush: () => tracker.flush(),
    close: () => tracker.close(),
  };
};

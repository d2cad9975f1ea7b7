// PROTOCOL.md §5.1 Repeats: the creation fs_consent event and bucketing mode's SEGMENT hit go out once per
// visitor id per 30 minutes unless they changed, remembered in the visitor cache record (`sent`, §10) or else
// in the SDK's bounded memory. Time moves through the SDK's injected clock (`withClock`), never by waiting.
// "Not sent" is proven by what arrives after it: every test ends with `close`, which sends everything queued,
// and a marker visitor built after the repeat is in the same delivery, so a repeat that went out would be
// there too.
import type { FeatureInstance, IVisitorCacheImplementation, Mode } from '../../../src/core/public.js';
import type { BucketingFile } from '../../../src/protocol/index.js';
import type { CoreHarness, DoubleHandle } from './harness.js';
import { until } from '../../support/until.js';
import { freshEnvId, hitsReceived } from './session.js';

const MINUTE = 60_000;

/** A visitor cache that keeps nothing: every lookup misses, so only the SDK's own memory remembers. */
const keepsNothing: IVisitorCacheImplementation = {
  cacheVisitor: () => undefined,
  lookupVisitor: () => Promise.resolve(null),
  flushVisitor: () => undefined,
};

/** A file with no campaign: every fetch succeeds with no flags, and sends the context (bucketing mode). */
const emptyFile: BucketingFile = { panic: false, campaigns: [] };

/** A clock the test moves. */
interface TestClock {
  t: number;
  now: () => number;
}

const testClock = (): TestClock => {
  const clock: TestClock = { t: Date.UTC(2026, 10, 28, 12), now: () => clock.t };
  return clock;
};

const consentEvents = async (double: DoubleHandle): Promise<string[]> =>
  (await hitsReceived(double))
    .filter((h) => h.ea === 'fs_consent')
    .map((h) => `${String(h.vid)} ${String(h.el)}`);

const segments = async (double: DoubleHandle): Promise<string[]> =>
  (await hitsReceived(double))
    .filter((h) => h.t === 'SEGMENT')
    .map((h) => `${String(h.vid)} ${String((h.s as Record<string, unknown>).plan)}`);

/** Defines the repeats suite on a runtime's harness. */
export const defineRepeatsSuite = (h: CoreHarness): void => {
  const { describe, it, assert } = h;
  const { ConfigBuilder, FeatureInstance, MemoryHitCache, MemoryVisitorCache, Level, FSSdkStatus } = h.sdk;

  /** Starts an SDK on `double` with `cache` and `clock`; nothing is sent until `close` (one batch an hour). */
  const startOn = async (
    double: DoubleHandle,
    cache: IVisitorCacheImplementation,
    clock: TestClock,
    mode: Mode,
    timeout = 2000,
  ): Promise<FeatureInstance> => {
    const instance = new FeatureInstance();
    await instance.start(
      double.envId,
      double.apiKey,
      new ConfigBuilder()
        .withMode(mode)
        .withTimeout(timeout)
        .withServerUrl(double.url)
        .withLogLevel(Level.NONE)
        .withDisableDeveloperUsageTracking(true)
        .withTrackingConfig({ batchIntervals: 3600, poolMaxSize: 1000 })
        .withCacheVisitorManager(cache)
        .withCacheHitManager(new MemoryHitCache())
        .withClock(clock.now)
        .build(),
    );
    if (mode === h.sdk.Mode.BUCKETING)
      await until(() => instance.getStatus() === FSSdkStatus.SDK_INITIALIZED, {
        what: 'the bucketing file',
        timeoutMs: 3000,
      });
    return instance;
  };

  /**
   * The two ways the SDK remembers: with a visitor cache, each phase runs on a new SDK instance (a new page
   * view or process: an empty memory), so only the record's `sent` can stop a repeat; without one, the phases
   * share an instance and its memory.
   */
  const ways = [
    {
      name: 'with a visitor cache (a new SDK instance between page views)',
      cache: () => new MemoryVisitorCache() as IVisitorCacheImplementation,
      restart: true,
    },
    { name: 'without a visitor cache (the in-process memory)', cache: () => keepsNothing, restart: false },
  ];

  /** Runs `body` on a fresh double; `next()` gives the SDK of the next phase (a new one when `restart`). */
  const withDouble = async (
    way: (typeof ways)[number],
    bucketing: boolean,
    body: (next: () => Promise<FeatureInstance>, clock: TestClock, double: DoubleHandle) => Promise<void>,
  ): Promise<void> => {
    const double = await h.startDouble({
      envId: freshEnvId(),
      ...(bucketing ? { bucketing: emptyFile } : {}),
    });
    const cache = way.cache();
    const clock = testClock();
    const mode = bucketing ? h.sdk.Mode.BUCKETING : h.sdk.Mode.DECISION_API;
    const sdk: { current: FeatureInstance | null } = { current: null };
    const next = async (): Promise<FeatureInstance> => {
      if (sdk.current !== null && !way.restart) return sdk.current;
      await sdk.current?.close();
      sdk.current = await startOn(double, cache, clock, mode);
      return sdk.current;
    };
    try {
      await body(next, clock, double);
    } finally {
      await sdk.current?.close();
      await double.stop();
    }
  };

  for (const way of ways)
    describe(`repeats (PROTOCOL.md §5.1), ${way.name}`, () => {
      it('a returning visitor id sends no second creation fs_consent within 30 minutes; after them it does', () =>
        withDouble(way, false, async (next, clock, double) => {
          let sdk = await next();
          // The fetch writes the record, with what was sent (`sent`), when there is a cache to write to.
          await sdk.newVisitor({ visitorId: 'v1', hasConsented: true }).build().fetchFlags();
          sdk = await next();
          clock.t += 29 * MINUTE;
          await sdk.newVisitor({ visitorId: 'v1', hasConsented: true }).build().fetchFlags();
          sdk.newVisitor({ visitorId: 'marker-1', hasConsented: true }).build();
          sdk = await next();
          clock.t += 2 * MINUTE; // 31 minutes after the first event
          sdk.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
          sdk.newVisitor({ visitorId: 'marker-2', hasConsented: true }).build();
          await sdk.close();
          assert.deepEqual(await consentEvents(double), [
            'v1 feature-ts:true',
            'marker-1 feature-ts:true',
            'v1 feature-ts:true',
            'marker-2 feature-ts:true',
          ]);
        }));

      it('a consent change is always sent, and a creation with another value than the last one sent is too', () =>
        withDouble(way, false, async (next, _clock, double) => {
          const sdk = await next();
          const first = sdk.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
          await first.fetchFlags();
          sdk.newVisitor({ visitorId: 'v1', hasConsented: true }).build(); // a repeat
          const second = sdk.newVisitor({ visitorId: 'v1', hasConsented: false }).build(); // another value
          await second.setConsent(true); // a change: sent though true went out minutes ago
          sdk.newVisitor({ visitorId: 'v1', hasConsented: true }).build(); // a repeat of that change
          sdk.newVisitor({ visitorId: 'marker', hasConsented: true }).build();
          await sdk.close();
          assert.deepEqual(await consentEvents(double), [
            'v1 feature-ts:true',
            'v1 feature-ts:false',
            'v1 feature-ts:true',
            'marker feature-ts:true',
          ]);
        }));

      it('bucketing mode: the same context sends no second SEGMENT within 30 minutes; a changed one does', () =>
        withDouble(way, true, async (next, clock, double) => {
          let sdk = await next();
          const build = (visitorId: string, plan: string) =>
            sdk.newVisitor({ visitorId, hasConsented: true }).withContext({ plan }).build();
          await build('v1', 'gold').fetchFlags();
          sdk = await next();
          clock.t += 29 * MINUTE;
          const again = build('v1', 'gold');
          await again.fetchFlags();
          await again.fetchFlags();
          await build('marker-1', 'gold').fetchFlags();
          again.updateContext('plan', 'silver');
          await again.fetchFlags();
          sdk = await next();
          clock.t += 31 * MINUTE;
          await build('v1', 'silver').fetchFlags();
          await build('marker-2', 'gold').fetchFlags();
          await sdk.close();
          assert.deepEqual(await segments(double), [
            'v1 gold',
            'marker-1 gold',
            'v1 silver',
            'v1 silver',
            'marker-2 gold',
          ]);
        }));

      it('bucketing mode: a SEGMENT hit dropped by a consent withdrawal is sent again after consent', () =>
        withDouble(way, true, async (next, _clock, double) => {
          const sdk = await next();
          const visitor = sdk
            .newVisitor({ visitorId: 'v1', hasConsented: true })
            .withContext({ plan: 'gold' })
            .build();
          await visitor.fetchFlags(); // its SEGMENT hit waits in the pool (one batch an hour)
          await visitor.setConsent(false); // drops it
          await visitor.setConsent(true);
          await visitor.fetchFlags();
          await sdk.close();
          assert.deepEqual(await segments(double), ['v1 gold']);
        }));
    });

  describe('repeats (PROTOCOL.md §5.1): while the creation lookup runs', () => {
    it('setConsent(false) takes effect at once: a hit sent right after is not sent', async () => {
      const double = await h.startDouble({ envId: freshEnvId() });
      const slow: IVisitorCacheImplementation = {
        ...keepsNothing,
        lookupVisitor: () => new Promise<string | null>(() => undefined),
      };
      try {
        const sdk = await startOn(double, slow, testClock(), h.sdk.Mode.DECISION_API, 100);
        const visitor = sdk.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        const withdrawing = visitor.setConsent(false);
        assert.equal(visitor.hasConsented, false, 'withdrawn at once, not after the lookup');
        const { Event, EventCategory } = h.sdk;
        await visitor.sendHit(new Event({ category: EventCategory.Action_Tracking, action: 'after' }));
        await withdrawing;
        await sdk.close();
        const received = await hitsReceived(double);
        assert.deepEqual(
          received.filter((hit) => hit.ea === 'after'),
          [],
          'the hit sent after the withdrawal never left',
        );
        // The lookup never answered, so the creation event was not decided before the withdrawal went: it is
        // not sent after it (it would undo it). close() delivers everything queued, so a late one would show.
        assert.deepEqual(await consentEvents(double), ['v1 feature-ts:false']);
      } finally {
        await double.stop();
      }
    });
  });

  describe('repeats (PROTOCOL.md §5.1): close', () => {
    it('a visitor cache lookup that never answers holds close for the timeout at most', async () => {
      const double = await h.startDouble({ envId: freshEnvId() });
      const never: IVisitorCacheImplementation = {
        ...keepsNothing,
        lookupVisitor: () => new Promise<string | null>(() => undefined),
      };
      try {
        const sdk = await startOn(double, never, testClock(), h.sdk.Mode.DECISION_API, 20);
        sdk.newVisitor({ visitorId: 'marker', hasConsented: true }).build();
        await sdk.close(); // resolves: the creation event of a visitor whose lookup never ends is not waited for
        assert.deepEqual(await consentEvents(double), []);
      } finally {
        await double.stop();
      }
    });
  });
};

// SPEC.md's Errors list, one test per item, and the configuration errors `start` refuses (DESIGN.md Errors;
// PROTOCOL.md §16.1: an invalid config throws and the status stays SDK_NOT_INITIALIZED).
import type {
  BatchCachingStrategy,
  CacheMode,
  ConfigBuilder,
  FeatureConfig,
  Level,
  Mode,
} from '../../../src/core/public.js';
import { EMPTY_METADATA, campaign, decision, panicDecision } from './decisions.js';
import type { CoreHarness, DoubleHandle } from './harness.js';
import { activationsReceived, assertRejects, freshEnvId, withSession } from './session.js';

const green = decision('*', [campaign('c1', 'vg1', 'v2', { btn: 'green', size: 2 })]);

/** Defines the errors suite on a runtime's harness. */
export const defineErrorsSuite = (h: CoreHarness): void => {
  const { describe, it, assert } = h;
  const { FSSdkStatus } = h.sdk;

  describe('SPEC.md Errors', () => {
    it('1. no answer within the timeout (decision API): value() returns the default', () =>
      withSession(
        h,
        {
          decisions: { '*': green },
          queued: { decision: [{ status: 200, body: green, delayMs: 400 }] },
          configure: (c) => c.withTimeout(100),
        },
        async ({ instance }) => {
          const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
          await visitor.fetchFlags();
          assert.equal(visitor.getFlag('btn').value('red'), 'red');
          assert.equal(visitor.fetchReasons, 'FLAGS_FETCHING_ERROR');
        },
      ));

    it('2. panic: every value is the default; a failed fetch: defaults and FLAGS_FETCHING_ERROR', () =>
      withSession(
        h,
        {
          decisions: { '*': panicDecision('*') },
          queued: { decision: [{ status: 500, body: { message: 'down', code: 'internal' } }] },
          configure: (c) => c.withTrackingConfig({ poolMaxSize: 1 }),
        },
        async ({ instance, double }) => {
          const failed = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
          await failed.fetchFlags();
          assert.equal(failed.getFlag('btn').value('red'), 'red');
          assert.equal(failed.flagStatus, 'FETCH_REQUIRED');
          assert.equal(failed.fetchReasons, 'FLAGS_FETCHING_ERROR');
          const panicked = instance.newVisitor({ visitorId: 'v2', hasConsented: true }).build();
          await panicked.fetchFlags();
          assert.equal(instance.getStatus(), FSSdkStatus.SDK_PANIC);
          assert.equal(panicked.getFlag('btn').value('red'), 'red');
          assert.deepEqual(panicked.getFlag('btn').metadata(), EMPTY_METADATA);
          await instance.close();
          assert.equal((await activationsReceived(double)).length, 0);
        },
      ));

    it('3. getFlag with an unknown key: an empty flag, exists() false, status NOT_FOUND', () =>
      withSession(h, { decisions: { '*': green } }, async ({ instance }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        const flag = visitor.getFlag('unknown');
        assert.equal(flag.exists(), false);
        assert.equal(flag.getFlagStatus(), 'NOT_FOUND');
        assert.equal(flag.value('d'), 'd');
        assert.deepEqual(flag.metadata(), EMPTY_METADATA);
      }));

    it("4. a default of another type than the flag's: value() gives the default, metadata() an empty object", () =>
      withSession(h, { decisions: { '*': green } }, async ({ instance }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        const flag = visitor.getFlag('size');
        assert.equal(flag.value('2', { visitorExposed: false }), '2');
        assert.deepEqual(flag.metadata(), EMPTY_METADATA);
      }));

    it('5. getCurrentVisitor returns null when no visitor has been set', () =>
      withSession(h, {}, ({ instance }) => {
        assert.equal(instance.getCurrentVisitor(), null);
        instance
          .newVisitor({ visitorId: 'v1', hasConsented: true, instanceType: h.sdk.Instance.NEW_INSTANCE })
          .build();
        assert.equal(instance.getCurrentVisitor(), null);
      }));

    it('6. FlagCollection.toJson returns an empty string when no metadata exists', () =>
      withSession(h, { decisions: { '*': decision('*', []) } }, async ({ instance }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        assert.equal(visitor.getFlags().toJson(), '');
        await visitor.fetchFlags();
        assert.equal(visitor.getFlags().toJson(), '');
      }));
  });

  describe('start validation', () => {
    const base = (double: DoubleHandle): ConfigBuilder =>
      new h.sdk.ConfigBuilder()
        .withServerUrl(double.url)
        .withLogLevel(h.sdk.Level.NONE)
        .withDisableDeveloperUsageTracking(true)
        .withCacheVisitorManager(new h.sdk.MemoryVisitorCache())
        .withCacheHitManager(new h.sdk.MemoryHitCache());

    const refused: Array<[string, (d: DoubleHandle) => [string, string, FeatureConfig | undefined], RegExp]> =
      [
        ['an empty env id', (d) => ['', 'key1', base(d).build()], /envId is empty: pass the environment id/],
        ['a blank env id', (d) => ['  ', 'key1', base(d).build()], /envId is empty/],
        ['an empty API key', (d) => ['env1', '', base(d).build()], /apiKey is empty: pass the API key/],
        [
          'a negative timeout',
          (d) => ['env1', 'key1', base(d).withTimeout(-1).build()],
          /withTimeout \(milliseconds\) must be a positive integer, got -1/,
        ],
        [
          'a zero timeout',
          (d) => ['env1', 'key1', base(d).withTimeout(0).build()],
          /withTimeout .* must be a positive integer, got 0/,
        ],
        [
          'a fractional timeout',
          (d) => ['env1', 'key1', base(d).withTimeout(1.5).build()],
          /must be a positive integer, got 1.5/,
        ],
        [
          'an unknown mode',
          (d) => [
            'env1',
            'key1',
            base(d)
              .withMode('FAST' as Mode)
              .build(),
          ],
          /mode "FAST" is unknown: use Mode.DECISION_API or Mode.BUCKETING/,
        ],
        [
          'an unknown log level',
          (d) => [
            'env1',
            'key1',
            base(d)
              .withLogLevel(42 as Level)
              .build(),
          ],
          /withLogLevel 42 is unknown/,
        ],
        [
          'an unknown cache mode',
          (d) => [
            'env1',
            'key1',
            base(d)
              .withCacheMode('cache-only' as CacheMode)
              .build(),
          ],
          /cacheMode "cache-only" is unknown: use CacheMode.LOCAL_CACHE_FIRST \("local-cache-first"\), CacheMode.NETWORK_FIRST/,
        ],
        [
          'live updates that are not a boolean',
          (d) => [
            'env1',
            'key1',
            base(d)
              .withLiveUpdates('yes' as unknown as boolean)
              .build(),
          ],
          /withLiveUpdates takes true or false, got "yes"/,
        ],
        [
          'a negative polling interval',
          (d) => ['env1', 'key1', base(d).withBucketingPollingIntervals(-5).build()],
          /withBucketingPollingIntervals \(seconds\) must be a positive integer/,
        ],
        [
          'a zero batch interval',
          (d) => ['env1', 'key1', base(d).withTrackingConfig({ batchIntervals: 0 }).build()],
          /trackingConfig.batchIntervals \(seconds\) must be a positive integer/,
        ],
        [
          'a fractional pool size',
          (d) => ['env1', 'key1', base(d).withTrackingConfig({ poolMaxSize: 2.5 }).build()],
          /trackingConfig.poolMaxSize must be a positive integer/,
        ],
        [
          'an unknown batch strategy',
          (d) => [
            'env1',
            'key1',
            base(d)
              .withTrackingConfig({ batchStrategy: 'X' as BatchCachingStrategy })
              .build(),
          ],
          /batchStrategy "X" is unknown/,
        ],
        [
          'a server URL that is not http(s)',
          (d) => ['env1', 'key1', base(d).withServerUrl('ftp://x').build()],
          /withServerUrl must be an absolute http\(s\) URL/,
        ],
        [
          'a relative events URL',
          (d) => ['env1', 'key1', base(d).withEventsUrl('/events').build()],
          /withEventsUrl must be an absolute http\(s\) URL/,
        ],
        [
          'a status listener that is not a function',
          (d) => ['env1', 'key1', { ...base(d).build(), statusListener: 3 as never }],
          /statusListener must be a function/,
        ],
        [
          'a visitor cache without its methods',
          (d) => [
            'env1',
            'key1',
            base(d)
              .withCacheVisitorManager({} as never)
              .build(),
          ],
          /withCacheVisitorManager takes an object with the methods cacheVisitor, lookupVisitor, flushVisitor/,
        ],
        [
          'a hit cache without its methods',
          (d) => [
            'env1',
            'key1',
            base(d)
              .withCacheHitManager({ cacheHits: () => undefined } as never)
              .build(),
          ],
          /withCacheHitManager takes an object with the methods cacheHits, lookupHits, flushHits, flushAllHits/,
        ],
        [
          'a log manager without log()',
          (d) => [
            'env1',
            'key1',
            base(d)
              .withLogManager({} as never)
              .build(),
          ],
          /withLogManager takes an object with the methods log/,
        ],
      ];

    for (const [what, args, message] of refused)
      it(`start throws with what to change for ${what}; the status stays SDK_NOT_INITIALIZED, no callback`, async () => {
        const double = await h.startDouble({ envId: freshEnvId() });
        const statuses: string[] = [];
        const instance = new h.sdk.FeatureInstance();
        instance.$status.listen((s) => statuses.push(s));
        try {
          const [envId, apiKey, config] = args(double);
          await assertRejects(assert, instance.start(envId, apiKey, config), message);
          assert.equal(instance.getStatus(), FSSdkStatus.SDK_NOT_INITIALIZED);
          assert.deepEqual(statuses, []);
        } finally {
          await instance.close();
          await double.stop();
        }
      });

    it('a failed start leaves a running instance running', async () => {
      const double = await h.startDouble({ envId: freshEnvId() });
      const instance = new h.sdk.FeatureInstance();
      try {
        await instance.start(double.envId, double.apiKey, base(double).build());
        await assertRejects(assert, instance.start('', 'key1', base(double).build()), /envId is empty/);
        assert.equal(instance.getStatus(), FSSdkStatus.SDK_INITIALIZED);
      } finally {
        await instance.close();
        await double.stop();
      }
    });
  });
};

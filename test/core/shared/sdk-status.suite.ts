// The static facade and the SDK status (SPEC.md "Static operations" and SDK status; PROTOCOL.md §16.1, rows of
// decision-API mode; the bucketing rows are the bucketing tests'). Both status callbacks are asserted exactly.
import type { ConfigBuilder, FeatureConfig } from '../../../src/core/public.js';
import { until } from '../../support/until.js';
import { campaign, decision, panicDecision } from './decisions.js';
import type { CoreHarness, DoubleHandle } from './harness.js';
import {
  assertThrows,
  freshEnvId,
  hitsReceived,
  recordingLogs,
  startSession,
  withSession,
} from './session.js';

/** Defines the SDK status suite on a runtime's harness. */
export const defineSdkStatusSuite = (h: CoreHarness): void => {
  const { describe, it, assert } = h;
  const { Feature, FSSdkStatus, Instance, Level } = h.sdk;

  const config = (
    double: DoubleHandle,
    extra: (b: ConfigBuilder) => ConfigBuilder = (b) => b,
  ): FeatureConfig =>
    extra(
      new h.sdk.ConfigBuilder()
        .withServerUrl(double.url)
        .withLogLevel(Level.NONE)
        .withDisableDeveloperUsageTracking(true)
        .withCacheVisitorManager(new h.sdk.MemoryVisitorCache())
        .withCacheHitManager(new h.sdk.MemoryHitCache()),
    ).build();

  /** Runs `body` with a fresh double; the global facade is closed afterwards whatever happens. */
  const withFeature = async (body: (double: DoubleHandle) => Promise<void>): Promise<void> => {
    const double = await h.startDouble({ envId: freshEnvId() });
    try {
      await body(double);
    } finally {
      await Feature.close();
      await double.stop();
    }
  };

  describe('Feature facade', () => {
    it('status: NOT_INITIALIZED → INITIALIZING → INITIALIZED → (close) NOT_INITIALIZED, each change once to both callbacks, in order', () =>
      withFeature(async (double) => {
        const calls: string[] = [];
        assert.equal(Feature.getStatus(), FSSdkStatus.SDK_NOT_INITIALIZED);
        await Feature.start(
          double.envId,
          double.apiKey,
          config(double, (b) =>
            b
              .withStatusListener((s) => calls.push(`listener ${s}`))
              .onSdkStatusChanged((s) => calls.push(`changed ${s}`)),
          ),
        );
        assert.equal(Feature.getStatus(), FSSdkStatus.SDK_INITIALIZED);
        await Feature.close();
        assert.equal(Feature.getStatus(), FSSdkStatus.SDK_NOT_INITIALIZED);
        assert.deepEqual(calls, [
          'listener SDK_INITIALIZING',
          'changed SDK_INITIALIZING',
          'listener SDK_INITIALIZED',
          'changed SDK_INITIALIZED',
          'listener SDK_NOT_INITIALIZED',
          'changed SDK_NOT_INITIALIZED',
        ]);
      }));

    it('start called again closes the running instance first', () =>
      withFeature(async (double) => {
        const first: string[] = [];
        const second: string[] = [];
        await Feature.start(
          double.envId,
          double.apiKey,
          config(double, (b) => b.withStatusListener((s) => first.push(s))),
        );
        const visitor = Feature.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await Feature.start(
          double.envId,
          double.apiKey,
          config(double, (b) => b.withStatusListener((s) => second.push(s))),
        );
        assert.deepEqual(first, ['SDK_INITIALIZING', 'SDK_INITIALIZED', 'SDK_NOT_INITIALIZED']);
        assert.deepEqual(second, ['SDK_INITIALIZING', 'SDK_INITIALIZED']);
        // The first run's pooled fs_consent event was flushed by its close.
        assert.equal((await hitsReceived(double)).filter((hit) => hit.vid === 'v1').length, 1);
        assert.equal(Feature.getCurrentVisitor(), null, 'a closed run keeps no current visitor');
        assert.equal(visitor.visitorId, 'v1');
      }));

    it('the default mode is DECISION_API: each fetchFlags makes one decision request', () =>
      withFeature(async (double) => {
        await Feature.start(double.envId, double.apiKey, config(double));
        const visitor = Feature.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        await visitor.fetchFlags();
        assert.equal((await double.requests('decision')).length, 2);
        assert.equal((await double.requests('bucketing')).length, 0);
      }));

    it('getCurrentVisitor is null until a visitor is set; SINGLE_INSTANCE saves it, NEW_INSTANCE does not', () =>
      withFeature(async (double) => {
        await Feature.start(double.envId, double.apiKey, config(double));
        assert.equal(Feature.getCurrentVisitor(), null);
        const other = Feature.newVisitor({
          visitorId: 'n1',
          hasConsented: true,
          instanceType: Instance.NEW_INSTANCE,
        }).build();
        assert.equal(Feature.getCurrentVisitor(), null);
        const single = Feature.newVisitor({ visitorId: 's1', hasConsented: true }).build();
        assert.equal(Feature.getCurrentVisitor(), single);
        const explicit = Feature.newVisitor({
          visitorId: 's2',
          hasConsented: true,
          instanceType: Instance.SINGLE_INSTANCE,
        }).build();
        assert.equal(Feature.getCurrentVisitor(), explicit);
        Feature.setCurrentVisitor(other);
        assert.equal(Feature.getCurrentVisitor(), other);
      }));

    it('newVisitor before start, or with a missing id or consent, throws with what to change', () =>
      withFeature(async (double) => {
        assertThrows(
          assert,
          () => Feature.newVisitor({ visitorId: 'v1', hasConsented: true }),
          /await Feature.start\(envId, apiKey\) first/,
        );
        await Feature.start(double.envId, double.apiKey, config(double));
        assertThrows(
          assert,
          () => Feature.newVisitor({ visitorId: '', hasConsented: true }),
          /visitorId must be a string of 1 to 256 characters/,
        );
        assertThrows(
          assert,
          () => Feature.newVisitor({ visitorId: 'x'.repeat(257), hasConsented: true }),
          /1 to 256/,
        );
        assertThrows(
          assert,
          () => Feature.newVisitor({ visitorId: 'v', hasConsented: 'yes' as never }),
          /hasConsented must be true or false/,
        );
        assertThrows(
          assert,
          () => Feature.newVisitor({ visitorId: 'v', hasConsented: true, instanceType: 'MANY' as never }),
          /instanceType must be Instance.SINGLE_INSTANCE or Instance.NEW_INSTANCE/,
        );
      }));

    it('setLoggerLevel changes what is written at run time', () =>
      withFeature(async (double) => {
        const logs = recordingLogs();
        await Feature.start(
          double.envId,
          double.apiKey,
          config(double, (b) => b.withLogManager(logs.manager).withLogLevel(Level.ALL)),
        );
        assert.equal(logs.lines.filter((l) => l.level === 'INFO').length, 1);
        Feature.setLoggerLevel(Level.ERROR);
        const visitor = Feature.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        visitor.getFlag('x').value(1);
        visitor.updateContext('bad', null as never);
        assert.deepEqual(
          logs.lines.slice(1).map((l) => l.level),
          ['ERROR'],
        );
        Feature.setLoggerLevel(Level.NONE);
        visitor.updateContext('bad', null as never);
        assert.equal(logs.lines.length, 2);
      }));

    it('close flushes pooled hits and returns to SDK_NOT_INITIALIZED', () =>
      withFeature(async (double) => {
        const hitCache = new h.sdk.MemoryHitCache();
        await Feature.start(
          double.envId,
          double.apiKey,
          config(double, (b) =>
            b
              .withTrackingConfig({
                batchIntervals: 3600,
                poolMaxSize: 100,
                batchStrategy: h.sdk.BatchCachingStrategy.BATCH_CONTINUOUS_CACHING,
              })
              .withCacheHitManager(hitCache),
          ),
        );
        Feature.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        // The creation's fs_consent event reaches the pool (continuous caching writes it to the hit cache as it
        // enters); the pool must keep it until close.
        await until(async () => (await hitCache.lookupHits()).length > 0, {
          what: 'the fs_consent hit pooled',
        });
        assert.equal((await double.requests('events')).length, 0);
        await Feature.close();
        assert.equal((await hitsReceived(double)).length, 1);
        assert.equal(Feature.getStatus(), FSSdkStatus.SDK_NOT_INITIALIZED);
      }));
  });

  describe('SDK status and panic (PROTOCOL.md §16.1)', () => {
    it('a panic answer gives SDK_PANIC (once), the next answer without panic SDK_INITIALIZED; both callbacks see each change once', () => {
      const changed: string[] = [];
      return withSession(
        h,
        {
          decisions: { '*': panicDecision('*') },
          configure: (b) => b.onSdkStatusChanged((s) => changed.push(s)),
        },
        async ({ instance, double, statuses }) => {
          const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
          await visitor.fetchFlags();
          assert.equal(instance.getStatus(), FSSdkStatus.SDK_PANIC);
          await visitor.fetchFlags();
          assert.equal(instance.getStatus(), FSSdkStatus.SDK_PANIC, 'no change, no call');
          await double.setDecisions({ '*': decision('*', []) });
          await visitor.fetchFlags();
          assert.equal(instance.getStatus(), FSSdkStatus.SDK_INITIALIZED);
          await instance.close();
          const expected = [
            'SDK_INITIALIZING',
            'SDK_INITIALIZED',
            'SDK_PANIC',
            'SDK_INITIALIZED',
            'SDK_NOT_INITIALIZED',
          ];
          assert.deepEqual(statuses, expected);
          assert.deepEqual(changed, expected);
        },
      );
    });

    it('instances are isolated: each has its own status, visitors and current visitor', async () => {
      const a = await startSession(h, {
        decisions: { '*': decision('*', [campaign('c1', 'vg1', 'v1', { k: 'a' })]) },
      });
      const b = await startSession(h, { decisions: { '*': panicDecision('*') } });
      try {
        const va = a.instance.newVisitor({ visitorId: 'x', hasConsented: true }).build();
        const vb = b.instance.newVisitor({ visitorId: 'x', hasConsented: true }).build();
        await Promise.all([va.fetchFlags(), vb.fetchFlags()]);
        assert.equal(a.instance.getStatus(), FSSdkStatus.SDK_INITIALIZED);
        assert.equal(b.instance.getStatus(), FSSdkStatus.SDK_PANIC);
        assert.equal(va.getFlag('k').value('d'), 'a');
        assert.equal(vb.getFlag('k').value('d'), 'd');
        assert.equal(a.instance.getCurrentVisitor(), va);
        assert.equal(b.instance.getCurrentVisitor(), vb);
      } finally {
        await a.close();
        await b.close();
      }
    });
  });
};

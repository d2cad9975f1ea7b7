// ConfigBuilder (SPEC.md FeatureConfig) and what `start` accepts (DESIGN.md Errors; PROTOCOL.md SDK configuration).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  BatchCachingStrategy,
  CacheMode,
  ConfigBuilder,
  FeatureInstance,
  Level,
  Mode,
} from '../../src/core/node.js';
import { nodePlatform } from '../../src/core/platform/node.js';
import { startProtocolDouble } from '../support/protocol-double.js';
import { recordingLogs } from './support.js';

void describe('ConfigBuilder', () => {
  void test('every builder method sets its field, and build() freezes a copy', () => {
    const hitCache = {
      cacheHits: () => undefined,
      lookupHits: () => Promise.resolve([]),
      flushHits: () => undefined,
      flushAllHits: () => undefined,
    };
    const visitorCache = {
      cacheVisitor: () => undefined,
      lookupVisitor: () => Promise.resolve(null),
      flushVisitor: () => undefined,
    };
    const listener = (): void => undefined;
    const exposed = (): void => undefined;
    const manager = { log: () => undefined };
    const builder = new ConfigBuilder()
      .withMode(Mode.BUCKETING)
      .withStatusListener(listener)
      .onSdkStatusChanged(listener)
      .withTimeout(500)
      .withLogLevel(Level.WARNING)
      .withLogManager(manager)
      .withBucketingPollingIntervals(30)
      .withTrackingConfig({
        batchIntervals: 2,
        poolMaxSize: 5,
        batchStrategy: BatchCachingStrategy.BATCH_PERIODIC_CACHING,
      })
      .withDisableDeveloperUsageTracking(true)
      .withOnVisitorExposed(exposed)
      .withCacheHitManager(hitCache)
      .withCacheVisitorManager(visitorCache)
      .withServerUrl('http://a.test')
      .withDecisionApiUrl('http://d.test/v2')
      .withBucketingUrl('http://c.test/cdn')
      .withEventsUrl('http://e.test/events')
      .withLiveUpdates(true)
      .withCacheMode(CacheMode.NETWORK_FIRST);
    const config = builder.build();
    assert.deepEqual(config, {
      mode: 'BUCKETING',
      statusListener: listener,
      onSdkStatusChanged: listener,
      timeout: 500,
      logLevel: Level.WARNING,
      logManager: manager,
      bucketingPollingIntervals: 30,
      trackingConfig: { batchIntervals: 2, poolMaxSize: 5, batchStrategy: 'BATCH_PERIODIC_CACHING' },
      disableDeveloperUsageTracking: true,
      onVisitorExposed: exposed,
      hitCache,
      visitorCache,
      serverUrl: 'http://a.test',
      decisionApiUrl: 'http://d.test/v2',
      bucketingUrl: 'http://c.test/cdn',
      eventsUrl: 'http://e.test/events',
      liveUpdates: true,
      cacheMode: 'network-first',
    });
    assert.ok(Object.isFrozen(config));
    builder.withTimeout(1);
    assert.equal(config.timeout, 500);
  });

  void test('an empty builder gives an empty config (SPEC.md defaults apply at start)', () => {
    assert.deepEqual(new ConfigBuilder().build(), {});
  });
});

// start validation (empty ids, negative timeout, …) is in the shared errors suite, run in Node and Chromium:
// test/core/shared/errors.suite.ts.

void describe('service URLs (PROTOCOL.md SDK configuration)', () => {
  void test('the base comes from FEATURE_API_URL in Node, is logged once at INFO, and the routes derive from it', async () => {
    const double = await startProtocolDouble();
    const saved = process.env.FEATURE_API_URL;
    process.env.FEATURE_API_URL = `${double.url}/`;
    const logs = recordingLogs();
    const instance = new FeatureInstance(nodePlatform);
    try {
      await instance.start(
        'env1',
        'key1',
        new ConfigBuilder().withLogManager(logs.manager).withDisableDeveloperUsageTracking(true).build(),
      );
      const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
      await visitor.fetchFlags();
      await instance.close();
      assert.deepEqual(
        logs.lines.filter((l) => l.message.includes('server at')),
        [{ level: 'INFO', message: `the SDK uses the server at ${double.url}.` }],
      );
      const [request] = double.requestsTo('decision');
      assert.equal(request?.path, '/v2/env1/campaigns');
      assert.equal(request.query, '?exposeAllKeys=true&extras[]=accountSettings');
      assert.equal(double.requestsTo('events').length, 1);
    } finally {
      if (saved === undefined) delete process.env.FEATURE_API_URL;
      else process.env.FEATURE_API_URL = saved;
      await double.close();
    }
  });

  void test('without FEATURE_API_URL the Node default is http://127.0.0.1:8080', () => {
    const saved = process.env.FEATURE_API_URL;
    delete process.env.FEATURE_API_URL;
    try {
      assert.equal(nodePlatform.defaultServerUrl(), 'http://127.0.0.1:8080');
    } finally {
      if (saved !== undefined) process.env.FEATURE_API_URL = saved;
    }
  });

  void test('withDecisionApiUrl and withEventsUrl override the base alone', async () => {
    const decisions = await startProtocolDouble();
    const events = await startProtocolDouble();
    const instance = new FeatureInstance(nodePlatform);
    await instance.start(
      'env1',
      'key1',
      new ConfigBuilder()
        .withServerUrl('http://127.0.0.1:9')
        .withDecisionApiUrl(`${decisions.url}/v2/`)
        .withEventsUrl(`${events.url}/events`)
        .withLogLevel(Level.NONE)
        .withDisableDeveloperUsageTracking(true)
        .build(),
    );
    const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    await instance.close();
    assert.equal(decisions.requestsTo('decision').length, 1);
    assert.equal(events.requestsTo('events').length, 1);
    await decisions.close();
    await events.close();
  });
});

// ConfigBuilder (SPEC.md FeatureConfig) and what `start` accepts (DESIGN.md Errors; PROTOCOL.md SDK configuration).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  BatchCachingStrategy,
  ConfigBuilder,
  FeatureInstance,
  FSSdkStatus,
  Level,
  Mode,
  type FeatureConfig,
} from '../../src/core/node.js';
import { nodePlatform } from '../../src/core/platform/node.js';
import { startProtocolDouble, type ProtocolDouble } from '../support/protocol-double.js';
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
      .withEventsUrl('http://e.test/events');
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
    });
    assert.ok(Object.isFrozen(config));
    builder.withTimeout(1);
    assert.equal(config.timeout, 500);
  });

  void test('an empty builder gives an empty config (SPEC.md defaults apply at start)', () => {
    assert.deepEqual(new ConfigBuilder().build(), {});
  });
});

void describe('start validation', () => {
  let double: ProtocolDouble;
  before(async () => {
    double = await startProtocolDouble();
  });
  after(() => double.close());

  const base = (): ConfigBuilder => new ConfigBuilder().withServerUrl(double.url).withLogLevel(Level.NONE);

  const refused: Array<[string, () => [string, string, FeatureConfig | undefined], RegExp]> = [
    ['an empty env id', () => ['', 'key1', base().build()], /envId is empty: pass the environment id/],
    ['a blank env id', () => ['  ', 'key1', base().build()], /envId is empty/],
    ['an empty API key', () => ['env1', '', base().build()], /apiKey is empty: pass the API key/],
    [
      'a negative timeout',
      () => ['env1', 'key1', base().withTimeout(-1).build()],
      /withTimeout \(milliseconds\) must be a positive integer, got -1/,
    ],
    [
      'a zero timeout',
      () => ['env1', 'key1', base().withTimeout(0).build()],
      /withTimeout .* must be a positive integer, got 0/,
    ],
    [
      'a fractional timeout',
      () => ['env1', 'key1', base().withTimeout(1.5).build()],
      /must be a positive integer, got 1.5/,
    ],
    [
      'an unknown mode',
      () => [
        'env1',
        'key1',
        base()
          .withMode('FAST' as Mode)
          .build(),
      ],
      /mode "FAST" is unknown: use Mode.DECISION_API or Mode.BUCKETING/,
    ],
    [
      'an unknown log level',
      () => [
        'env1',
        'key1',
        base()
          .withLogLevel(42 as Level)
          .build(),
      ],
      /withLogLevel 42 is unknown/,
    ],
    [
      'a negative polling interval',
      () => ['env1', 'key1', base().withBucketingPollingIntervals(-5).build()],
      /withBucketingPollingIntervals \(seconds\) must be a positive integer/,
    ],
    [
      'a zero batch interval',
      () => ['env1', 'key1', base().withTrackingConfig({ batchIntervals: 0 }).build()],
      /trackingConfig.batchIntervals \(seconds\) must be a positive integer/,
    ],
    [
      'a fractional pool size',
      () => ['env1', 'key1', base().withTrackingConfig({ poolMaxSize: 2.5 }).build()],
      /trackingConfig.poolMaxSize must be a positive integer/,
    ],
    [
      'an unknown batch strategy',
      () => [
        'env1',
        'key1',
        base()
          .withTrackingConfig({ batchStrategy: 'X' as BatchCachingStrategy })
          .build(),
      ],
      /batchStrategy "X" is unknown/,
    ],
    [
      'a server URL that is not http(s)',
      () => ['env1', 'key1', base().withServerUrl('ftp://x').build()],
      /withServerUrl must be an absolute http\(s\) URL/,
    ],
    [
      'a relative events URL',
      () => ['env1', 'key1', base().withEventsUrl('/events').build()],
      /withEventsUrl must be an absolute http\(s\) URL/,
    ],
    [
      'a status listener that is not a function',
      () => ['env1', 'key1', { ...base().build(), statusListener: 3 as never }],
      /statusListener must be a function/,
    ],
    [
      'a visitor cache without its methods',
      () => [
        'env1',
        'key1',
        base()
          .withCacheVisitorManager({} as never)
          .build(),
      ],
      /withCacheVisitorManager takes an object with the methods cacheVisitor, lookupVisitor, flushVisitor/,
    ],
    [
      'a hit cache without its methods',
      () => [
        'env1',
        'key1',
        base()
          .withCacheHitManager({ cacheHits: () => undefined } as never)
          .build(),
      ],
      /withCacheHitManager takes an object with the methods cacheHits, lookupHits, flushHits, flushAllHits/,
    ],
    [
      'a log manager without log()',
      () => [
        'env1',
        'key1',
        base()
          .withLogManager({} as never)
          .build(),
      ],
      /withLogManager takes an object with the methods log/,
    ],
  ];

  for (const [what, args, message] of refused)
    void test(`start throws with what to change for ${what}, and the status stays SDK_NOT_INITIALIZED`, async () => {
      const statuses: string[] = [];
      const instance = new FeatureInstance(nodePlatform);
      instance.$status.listen((s) => statuses.push(s));
      const [envId, apiKey, config] = args();
      await assert.rejects(instance.start(envId, apiKey, config), message);
      assert.equal(instance.getStatus(), FSSdkStatus.SDK_NOT_INITIALIZED);
      assert.deepEqual(statuses, []);
    });

  void test('a failed start leaves a running instance running', async () => {
    const instance = new FeatureInstance(nodePlatform);
    await instance.start('env1', 'key1', base().build());
    await assert.rejects(instance.start('', 'key1', base().build()), /envId is empty/);
    assert.equal(instance.getStatus(), FSSdkStatus.SDK_INITIALIZED);
    await instance.close();
  });
});

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

// The core SDK in Chromium, against the protocol double on 127.0.0.1: visitor, flags, exposure, consent, the
// browser platform's predefined keys (PROTOCOL.md §16.5) and status sequences.
import { assert } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import {
  ConfigBuilder,
  Feature,
  FeatureInstance,
  FSSdkStatus,
  Level,
  MemoryHitCache,
  MemoryVisitorCache,
  type ExposedFlag,
  type VisitorExposed,
} from '../../src/core/index.js';
import { deviceTypeOf, systemFromUserAgent } from '../../src/core/platform/browser-page.js';
import type { Decision } from '../../src/protocol/index.js';
import { until } from '../support/until.js';

interface Recorded {
  path: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

const decision = (visitorId: string, flags: Record<string, unknown>, variation = 'v2'): Decision =>
  ({
    visitorId,
    campaigns: [
      {
        id: 'c1',
        name: 'Checkout',
        slug: 'checkout',
        type: 'ab',
        variationGroupId: 'vg1',
        variationGroupName: 'Members',
        variation: {
          id: variation,
          name: 'Green',
          reference: false,
          modifications: { type: 'FLAG', value: flags },
        },
      },
    ],
    extras: { accountSettings: { enabledXPC: false, enabled1V1T: false } },
  }) as Decision;

const startDouble = (decisions: Record<string, Decision>) =>
  executeServerCommand<{ id: string; url: string }, object>('double-start', { script: { decisions } });

const requests = (id: string, kind: string) =>
  executeServerCommand<Recorded[], object>('double-requests', { id, kind });

const config = (url: string) =>
  new ConfigBuilder()
    .withServerUrl(url)
    .withLogLevel(Level.NONE)
    .withDisableDeveloperUsageTracking(true)
    .withCacheVisitorManager(new MemoryVisitorCache())
    .withCacheHitManager(new MemoryHitCache());

describe('core SDK in the browser', () => {
  afterEach(async () => {
    await Feature.close();
  });

  it('status callbacks, fetch, flag values, one activation per variation, the exposure callback', async () => {
    const double = await startDouble({ '*': decision('*', { btnColor: 'green', size: 2 }) });
    const statuses: string[] = [];
    const exposed: Array<[VisitorExposed, ExposedFlag]> = [];
    await Feature.start(
      'env1',
      'key1',
      config(double.url)
        .withStatusListener((s) => statuses.push(`l:${s}`))
        .onSdkStatusChanged((s) => statuses.push(`c:${s}`))
        .withTrackingConfig({ poolMaxSize: 1 })
        .withOnVisitorExposed((v, f) => exposed.push([v, f]))
        .build(),
    );
    const visitor = Feature.newVisitor({ visitorId: 'user-42', hasConsented: true })
      .withContext({ plan: 'premium' })
      .build();
    assert.equal(Feature.getCurrentVisitor(), visitor);
    assert.equal(visitor.flagStatus, 'FETCH_REQUIRED');
    assert.equal(visitor.fetchReasons, 'FLAGS_NEVER_FETCHED');
    const flag = visitor.getFlag('btnColor');
    await visitor.fetchFlags();
    assert.equal(visitor.flagStatus, 'FETCHED');
    assert.equal(flag.value('red'), 'green');
    assert.equal(flag.value('red'), 'green');
    assert.equal(visitor.getFlag('size').value(0), 2);
    assert.equal(visitor.getFlag('size').value('0'), '0');
    assert.equal(visitor.getFlag('missing').value('d'), 'd');
    assert.equal(visitor.getFlag('missing').getFlagStatus(), 'NOT_FOUND');
    await until(() => exposed.length === 2, { what: 'two exposures' });
    const [firstVisitor, firstFlag] = exposed[0] ?? [];
    assert.deepEqual(JSON.parse(firstFlag?.toJson() ?? '{}'), {
      key: 'btnColor',
      value: 'green',
      defaultValue: 'red',
      metadata: {
        campaignId: 'c1',
        variationGroupId: 'vg1',
        variationId: 'v2',
        isReference: false,
        campaignType: 'ab',
        slug: 'checkout',
      },
    });
    assert.equal(firstVisitor?.id, 'user-42');
    await Feature.close();
    assert.deepEqual(statuses, [
      'l:SDK_INITIALIZING',
      'c:SDK_INITIALIZING',
      'l:SDK_INITIALIZED',
      'c:SDK_INITIALIZED',
      'l:SDK_NOT_INITIALIZED',
      'c:SDK_NOT_INITIALIZED',
    ]);
    const activations = (await requests(double.id, 'activate')).flatMap(
      (r) => r.body.batch as Array<Record<string, unknown>>,
    );
    assert.deepEqual(
      activations.map((a) => [a.vid, a.caid, a.vaid]),
      [['user-42', 'vg1', 'v2']],
    );
    const [decisionRequest] = await requests(double.id, 'decision');
    assert.equal(decisionRequest?.headers['x-api-key'], 'key1');
    assert.equal(decisionRequest?.body.visitorConsent, true);
    await executeServerCommand('double-stop', { id: double.id });
  });

  it('the browser platform sets the auto keys of §16.5 and the fs_* keys in the context sent', async () => {
    const double = await startDouble({});
    await Feature.start('env1', 'key1', config(double.url).build());
    const visitor = Feature.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    const [request] = await requests(double.id, 'decision');
    const context = request?.body.context as Record<string, unknown>;
    const ua = navigator.userAgent;
    const hints = (navigator as Navigator & { userAgentData?: { mobile: boolean; platform: string } })
      .userAgentData;
    assert.equal(context.sdk_deviceLanguage, navigator.language);
    assert.equal(context.sdk_deviceType, hints?.mobile ? 'mobile' : 'desktop');
    assert.equal(
      context.sdk_osName,
      hints?.platform === 'Linux' || /Linux/.test(ua) ? 'Linux' : context.sdk_osName,
    );
    assert.typeOf(context.sdk_osVersionCode, 'string');
    assert.equal(context.sdk_fsVersion, '0.1.0');
    assert.typeOf(context.sdk_firstTimeInit, 'boolean');
    assert.equal(context.fs_client, 'feature-ts');
    assert.equal(context.fs_version, '0.1.0');
    assert.equal(context.fs_users, 'v1');
    await executeServerCommand('double-stop', { id: double.id });
  });

  it('sdk_firstTimeInit is true on the first start with this storage, false after', async () => {
    const double = await startDouble({});
    const contexts: boolean[] = [];
    for (let i = 0; i < 2; i++) {
      const sdk = new FeatureInstance();
      await sdk.start('env1', 'key1', config(double.url).build());
      contexts.push(
        sdk.newVisitor({ visitorId: 'v', hasConsented: true }).build().context.sdk_firstTimeInit as boolean,
      );
      await sdk.close();
    }
    // Earlier tests in this page may have started already: the last start is never the first.
    assert.equal(contexts[1], false);
    await executeServerCommand('double-stop', { id: double.id });
  });

  it('user agents give the OS name, version and device type of §16.5', () => {
    assert.deepEqual(systemFromUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36'), {
      name: 'Windows',
      version: '10.0',
    });
    assert.deepEqual(systemFromUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_2_1 like Mac OS X)'), {
      name: 'iOS',
      version: '17.2.1',
    });
    assert.deepEqual(systemFromUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile'), {
      name: 'Android',
      version: '14',
    });
    assert.deepEqual(systemFromUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)'), {
      name: 'macOS',
      version: '10.15.7',
    });
    assert.deepEqual(systemFromUserAgent('Mozilla/5.0 (X11; CrOS x86_64 14541.0.0)'), {
      name: 'ChromeOS',
      version: '14541.0.0',
    });
    assert.deepEqual(systemFromUserAgent('Mozilla/5.0 (X11; Linux x86_64)'), {
      name: 'Linux',
      version: '',
    });
    assert.deepEqual(systemFromUserAgent('curl/8'), { name: '', version: '' });
    assert.equal(deviceTypeOf('Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile', undefined), 'mobile');
    assert.equal(deviceTypeOf('Mozilla/5.0 (iPad; CPU OS 17_2 like Mac OS X)', undefined), 'tablet');
    assert.equal(deviceTypeOf('Mozilla/5.0 (Linux; Android 14; SM-X710)', undefined), 'tablet');
    assert.equal(deviceTypeOf('Mozilla/5.0 (X11; Linux x86_64)', { mobile: false }), 'desktop');
    assert.equal(deviceTypeOf('anything', { mobile: true }), 'mobile');
  });

  it('consent false: no activation, flushVisitor, the fs_consent false event only', async () => {
    const double = await startDouble({ '*': decision('*', { btnColor: 'green' }) });
    const cache = new MemoryVisitorCache();
    const flushed: string[] = [];
    const flush = cache.flushVisitor.bind(cache);
    cache.flushVisitor = async (id: string): Promise<void> => {
      flushed.push(id);
      await flush(id);
    };
    await Feature.start('env1', 'key1', config(double.url).withCacheVisitorManager(cache).build());
    const visitor = Feature.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    assert.typeOf(await cache.lookupVisitor('v1'), 'string');
    await visitor.setConsent(false);
    assert.equal(visitor.getFlag('btnColor').value('red'), 'green');
    assert.deepEqual(flushed, ['v1']);
    assert.equal(await cache.lookupVisitor('v1'), null);
    await Feature.close();
    assert.deepEqual(await requests(double.id, 'activate'), []);
    const hits = (await requests(double.id, 'events')).flatMap(
      (r) => r.body.h as Array<Record<string, unknown>>,
    );
    assert.deepEqual(
      hits.map((h) => h.el),
      ['feature-ts:false'],
    );
    await executeServerCommand('double-stop', { id: double.id });
  });

  it('panic: SDK_PANIC, defaults, then back to SDK_INITIALIZED', async () => {
    const double = await startDouble({ '*': { visitorId: '*', campaigns: [], panic: true } });
    await Feature.start('env1', 'key1', config(double.url).build());
    const visitor = Feature.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    assert.equal(Feature.getStatus(), FSSdkStatus.SDK_PANIC);
    assert.equal(visitor.flagStatus, 'PANIC');
    assert.equal(visitor.getFlag('btnColor').value('red'), 'red');
    await executeServerCommand('double-script', {
      id: double.id,
      script: { decisions: { '*': decision('*', { btnColor: 'green' }) } },
    });
    await visitor.fetchFlags();
    assert.equal(Feature.getStatus(), FSSdkStatus.SDK_INITIALIZED);
    assert.equal(visitor.getFlag('btnColor').value('red'), 'green');
    await executeServerCommand('double-stop', { id: double.id });
  });

  it('the default server is the page origin, and the default caches are IndexedDB', async () => {
    const sdk = new FeatureInstance();
    const logs: string[] = [];
    await sdk.start(
      'env1',
      'key1',
      new ConfigBuilder()
        .withDisableDeveloperUsageTracking(true)
        .withLogManager({ log: (_l, _n, m) => logs.push(m) })
        .build(),
    );
    assert.equal(logs[0], `the SDK uses the server at ${location.origin}.`);
    await sdk.close();
  });
});

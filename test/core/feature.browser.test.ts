// The core SDK in Chromium, against the protocol double on 127.0.0.1: visitor, flags, exposure, consent, the
// browser platform's predefined keys (PROTOCOL.md §16.5) and status sequences.
import { expect } from '@open-wc/testing';
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
import { deviceTypeOf, systemFromUserAgent } from '../../src/core/platform/browser.js';
import type { Decision } from '../../src/protocol/index.js';

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

const startDouble = async (decisions: Record<string, Decision>) =>
  (await executeServerCommand('double-start', { script: { decisions } })) as { id: string; url: string };

const requests = async (id: string, kind: string) =>
  (await executeServerCommand('double-requests', { id, kind })) as Recorded[];

const until = async (check: () => boolean | Promise<boolean>): Promise<void> => {
  for (let i = 0; i < 600; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('condition not met in time');
};

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
    expect(Feature.getCurrentVisitor()).to.equal(visitor);
    expect(visitor.flagStatus).to.equal('FETCH_REQUIRED');
    expect(visitor.fetchReasons).to.equal('FLAGS_NEVER_FETCHED');
    const flag = visitor.getFlag('btnColor');
    await visitor.fetchFlags();
    expect(visitor.flagStatus).to.equal('FETCHED');
    expect(flag.value('red')).to.equal('green');
    expect(flag.value('red')).to.equal('green');
    expect(visitor.getFlag('size').value(0)).to.equal(2);
    expect(visitor.getFlag('size').value('0')).to.equal('0');
    expect(visitor.getFlag('missing').value('d')).to.equal('d');
    expect(visitor.getFlag('missing').getFlagStatus()).to.equal('NOT_FOUND');
    await until(() => exposed.length === 2);
    expect(JSON.parse(exposed[0]![1].toJson())).to.deep.equal({
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
    expect(exposed[0]![0].id).to.equal('user-42');
    await Feature.close();
    expect(statuses).to.deep.equal([
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
    expect(activations.map((a) => [a.vid, a.caid, a.vaid])).to.deep.equal([['user-42', 'vg1', 'v2']]);
    const [decisionRequest] = await requests(double.id, 'decision');
    expect(decisionRequest?.headers['x-api-key']).to.equal('key1');
    expect(decisionRequest?.body.visitorConsent).to.equal(true);
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
    expect(context.sdk_deviceLanguage).to.equal(navigator.language);
    expect(context.sdk_deviceType).to.equal(hints?.mobile ? 'mobile' : 'desktop');
    expect(context.sdk_osName).to.equal(
      hints?.platform === 'Linux' || /Linux/.test(ua) ? 'Linux' : context.sdk_osName,
    );
    expect(context.sdk_osVersionCode).to.be.a('string');
    expect(context.sdk_fsVersion).to.equal('0.1.0');
    expect(context.sdk_firstTimeInit).to.be.a('boolean');
    expect(context.fs_client).to.equal('feature-ts');
    expect(context.fs_version).to.equal('0.1.0');
    expect(context.fs_users).to.equal('v1');
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
    expect(contexts[1]).to.equal(false);
    await executeServerCommand('double-stop', { id: double.id });
  });

  it('user agents give the OS name, version and device type of §16.5', () => {
    expect(systemFromUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36')).to.deep.equal(
      { name: 'Windows', version: '10.0' },
    );
    expect(systemFromUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_2_1 like Mac OS X)')).to.deep.equal({
      name: 'iOS',
      version: '17.2.1',
    });
    expect(systemFromUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile')).to.deep.equal({
      name: 'Android',
      version: '14',
    });
    expect(systemFromUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)')).to.deep.equal({
      name: 'macOS',
      version: '10.15.7',
    });
    expect(systemFromUserAgent('Mozilla/5.0 (X11; CrOS x86_64 14541.0.0)')).to.deep.equal({
      name: 'ChromeOS',
      version: '14541.0.0',
    });
    expect(systemFromUserAgent('Mozilla/5.0 (X11; Linux x86_64)')).to.deep.equal({
      name: 'Linux',
      version: '',
    });
    expect(systemFromUserAgent('curl/8')).to.deep.equal({ name: '', version: '' });
    expect(deviceTypeOf('Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile', undefined)).to.equal('mobile');
    expect(deviceTypeOf('Mozilla/5.0 (iPad; CPU OS 17_2 like Mac OS X)', undefined)).to.equal('tablet');
    expect(deviceTypeOf('Mozilla/5.0 (Linux; Android 14; SM-X710)', undefined)).to.equal('tablet');
    expect(deviceTypeOf('Mozilla/5.0 (X11; Linux x86_64)', { mobile: false })).to.equal('desktop');
    expect(deviceTypeOf('anything', { mobile: true })).to.equal('mobile');
  });

  it('consent false: no activation, flushVisitor, the fs_consent false event only', async () => {
    const double = await startDouble({ '*': decision('*', { btnColor: 'green' }) });
    const cache = new MemoryVisitorCache();
    const flushed: string[] = [];
    const flush = cache.flushVisitor.bind(cache);
    cache.flushVisitor = (id: string) => {
      flushed.push(id);
      flush(id);
    };
    await Feature.start('env1', 'key1', config(double.url).withCacheVisitorManager(cache).build());
    const visitor = Feature.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    expect(await cache.lookupVisitor('v1')).to.be.a('string');
    await visitor.setConsent(false);
    expect(visitor.getFlag('btnColor').value('red')).to.equal('green');
    expect(flushed).to.deep.equal(['v1']);
    expect(await cache.lookupVisitor('v1')).to.equal(null);
    await Feature.close();
    expect(await requests(double.id, 'activate')).to.deep.equal([]);
    const hits = (await requests(double.id, 'events')).flatMap(
      (r) => r.body.h as Array<Record<string, unknown>>,
    );
    expect(hits.map((h) => h.el)).to.deep.equal(['feature-ts:false']);
    await executeServerCommand('double-stop', { id: double.id });
  });

  it('panic: SDK_PANIC, defaults, then back to SDK_INITIALIZED', async () => {
    const double = await startDouble({ '*': { visitorId: '*', campaigns: [], panic: true } as Decision });
    await Feature.start('env1', 'key1', config(double.url).build());
    const visitor = Feature.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    expect(Feature.getStatus()).to.equal(FSSdkStatus.SDK_PANIC);
    expect(visitor.flagStatus).to.equal('PANIC');
    expect(visitor.getFlag('btnColor').value('red')).to.equal('red');
    await executeServerCommand('double-script', {
      id: double.id,
      script: { decisions: { '*': decision('*', { btnColor: 'green' }) } },
    });
    await visitor.fetchFlags();
    expect(Feature.getStatus()).to.equal(FSSdkStatus.SDK_INITIALIZED);
    expect(visitor.getFlag('btnColor').value('red')).to.equal('green');
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
    expect(logs[0]).to.equal(`the SDK uses the server at ${location.origin}.`);
    await sdk.close();
  });
});

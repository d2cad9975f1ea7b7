// FeatureWebProvider in Chromium under the real @openfeature/web-sdk, against a protocol double started in the
// runner's Node process: the provider as a page uses it (browser entry, fetch transport).
import { assert } from '@open-wc/testing';
import { OpenFeature, ProviderEvents } from '@openfeature/web-sdk';
import { ConfigBuilder, FeatureInstance, Level, MemoryVisitorCache } from '../../src/core/index.js';
import { FeatureWebProvider } from '../../src/openfeature/index.js';
import type { DoubleHandle } from '../core/shared/harness.js';
import { browserHarness } from '../core/shared/browser-harness.js';
import { campaign, decision } from '../core/shared/decisions.js';

const shop = (visitorId: string, color: string) =>
  decision(visitorId, [
    campaign('c1', 'vg1', color === 'green' ? 'v1' : 'v2', { btnColor: color }, { variationName: color }),
  ]);

describe('FeatureWebProvider in Chromium', () => {
  let double: DoubleHandle;
  let instance: FeatureInstance;

  beforeEach(async () => {
    double = await browserHarness.startDouble({
      decisions: { 'visitor-1': shop('visitor-1', 'green'), 'user-42': shop('user-42', 'gold') },
    });
    instance = new FeatureInstance();
    await instance.start(
      double.envId,
      double.apiKey,
      new ConfigBuilder()
        .withServerUrl(double.url)
        .withLogLevel(Level.NONE)
        .withDisableDeveloperUsageTracking(true)
        .withCacheVisitorManager(new MemoryVisitorCache())
        .build(),
    );
  });

  afterEach(async () => {
    await OpenFeature.clearProviders();
    await instance.close();
    await double.stop();
  });

  it('evaluates synchronously, reconciles a new targetingKey, counts one exposure and sends track hits', async () => {
    const domain = `page-${String(Math.random()).slice(2)}`;
    await OpenFeature.setContext(domain, { targetingKey: 'visitor-1' });
    await OpenFeature.setProviderAndWait(domain, new FeatureWebProvider({ instance, hasConsented: true }));
    const client = OpenFeature.getClient(domain);

    const details = client.getStringDetails('btnColor', 'red');
    assert.deepEqual([details.value, details.variant, details.reason], ['green', 'green', 'SPLIT']);
    client.getStringValue('btnColor', 'red');

    const seen: string[] = [];
    client.addHandler(ProviderEvents.Reconciling, () => seen.push('reconciling'));
    client.addHandler(ProviderEvents.ConfigurationChanged, (d) =>
      seen.push(`changed ${String(d?.flagsChanged)}`),
    );
    await OpenFeature.setContext(domain, { targetingKey: 'user-42' });
    assert.deepEqual(seen, ['reconciling', 'changed btnColor']);
    assert.equal(client.getStringValue('btnColor', 'red'), 'gold');

    client.track('add_to_cart', { value: 2 });
    await instance.close(); // flushes the pool
    const activations = (await double.requests('activate')).flatMap(
      (r) => (r.body as { batch: Array<{ vid: string; vaid: string }> }).batch,
    );
    assert.deepEqual(
      activations.map((a) => `${a.vid}:${a.vaid}`),
      ['visitor-1:v1', 'user-42:v2'],
    );
    const events = (await double.requests('events'))
      .flatMap((r) => (r.body as { h: Array<Record<string, unknown>> }).h)
      .filter((h) => h.ec === 'Action Tracking');
    assert.deepEqual(
      events.map((h) => [h.ea, h.ev, h.cuid]),
      [['add_to_cart', 2, 'user-42']],
    );
  });
});

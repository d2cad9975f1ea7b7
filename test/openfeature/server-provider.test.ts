// FeatureServerProvider (PROTOCOL.md §18.1) under the real @openfeature/server-sdk: one visitor per
// targetingKey in a bounded cache, decision-API mode against the protocol double and bucketing mode on §15's
// file, OFREP's reasons, variants and metadata (§18), exposures once per visitor and variation (§4), track.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { OpenFeature, ProviderEvents, type Provider } from '@openfeature/server-sdk';
import { Mode } from '../../src/core/node.js';
import { FeatureServerProvider, type FeatureServerProviderOptions } from '../../src/openfeature/index.js';
import type { Decision } from '../../src/protocol/index.js';
import { VECTORS, vectorFile } from '../core/decision/bucketing-files.js';
import {
  activationsReceived,
  campaign,
  decision,
  hitsReceived,
  startSdk,
  type Sdk,
} from '../core/support.js';
import type { DoubleScript } from '../support/protocol-double.js';
import { until } from '../support/until.js';

// Compile-time: the provider is what the server SDK takes (the source imports only @openfeature/core's types).
const asServerProvider = (provider: FeatureServerProvider): Provider => provider;

/** A/B test vg1 (v2 for "premium", else v1) and a toggle vg2/v3. */
const shopDecision = (visitorId: string, context: Record<string, unknown>): Decision =>
  decision(visitorId, [
    campaign(
      'c1',
      'vg1',
      context.plan === 'premium' ? 'v2' : 'v1',
      { btnColor: context.plan === 'premium' ? 'gold' : 'green' },
      { slug: 'checkout', variationName: context.plan === 'premium' ? 'Gold' : 'Green' },
    ),
    campaign('c2', 'vg2', 'v3', { price: 10 }, { type: 'toggle' }),
  ]);

const opened: Sdk[] = [];
after(async () => {
  await OpenFeature.clearProviders();
  for (const sdk of opened) await sdk.close();
});

/** An SDK on a fresh double, a provider over it in a domain of its own, and that domain's client. */
const setUp = async (
  script: Partial<DoubleScript> = { decide: (body) => shopDecision(body.visitorId, body.context) },
  options: Partial<FeatureServerProviderOptions> = {},
  bucketing = false,
) => {
  const sdk = await startSdk(script, (b) => (bucketing ? b.withMode(Mode.BUCKETING) : b));
  opened.push(sdk);
  const provider = new FeatureServerProvider({ instance: sdk.instance, hasConsented: true, ...options });
  const domain = randomUUID();
  await OpenFeature.setProviderAndWait(domain, asServerProvider(provider));
  return { sdk, provider, client: OpenFeature.getClient(domain) };
};

const decisionsFor = (sdk: Sdk, visitorId: string) =>
  sdk.double.requestsTo('decision').filter((r) => (r.body as { visitorId: string }).visitorId === visitorId);

void describe('FeatureServerProvider (@openfeature/server-sdk)', () => {
  void it('decision-API mode: value, variant, SPLIT / TARGETING_MATCH and metadata per targetingKey', async () => {
    const { sdk, client } = await setUp();
    const free = await client.getStringDetails('btnColor', 'red', { targetingKey: 'u1' });
    assert.equal(free.value, 'green');
    assert.equal(free.variant, 'Green');
    assert.equal(free.reason, 'SPLIT');
    assert.deepEqual(free.flagMetadata, {
      campaignId: 'c1',
      campaignType: 'ab',
      slug: 'checkout',
      variationGroupId: 'vg1',
      variationId: 'v1',
      isReference: false,
    });
    const premium = await client.getStringDetails('btnColor', 'red', { targetingKey: 'u2', plan: 'premium' });
    assert.equal(premium.value, 'gold');
    assert.equal(premium.flagMetadata.variationId, 'v2');
    const price = await client.getNumberDetails('price', 0, { targetingKey: 'u1' });
    assert.equal(price.value, 10);
    assert.equal(price.reason, 'TARGETING_MATCH');
    assert.equal(decisionsFor(sdk, 'u1').length, 1, 'one fetch per visitor and context');
    assert.equal(decisionsFor(sdk, 'u2').length, 1);
  });

  void it('errors: FLAG_NOT_FOUND, TYPE_MISMATCH, TARGETING_KEY_MISSING, each with the default', async () => {
    const { client } = await setUp();
    const missing = await client.getBooleanDetails('noSuchFlag', true, { targetingKey: 'u1' });
    assert.deepEqual([missing.value, missing.errorCode], [true, 'FLAG_NOT_FOUND']);
    const mismatch = await client.getBooleanDetails('price', false, { targetingKey: 'u1' });
    assert.deepEqual([mismatch.value, mismatch.errorCode], [false, 'TYPE_MISMATCH']);
    const anonymous = await client.getStringDetails('btnColor', 'red', { plan: 'premium' });
    assert.deepEqual([anonymous.value, anonymous.errorCode], ['red', 'TARGETING_KEY_MISSING']);
    assert.match(anonymous.errorMessage ?? '', /targetingKey/);
  });

  void it('panic: DISABLED with the default, nothing exposed', async () => {
    const { sdk, client } = await setUp({
      decide: (body) => ({ visitorId: body.visitorId, campaigns: [], panic: true }),
    });
    const details = await client.getStringDetails('btnColor', 'red', { targetingKey: 'u1' });
    assert.deepEqual([details.value, details.reason], ['red', 'DISABLED']);
    await sdk.instance.close();
    assert.deepEqual(activationsReceived(sdk.double), []);
  });

  void it("the SDK in panic (another visitor's answer) disables a visitor fetched before, nothing exposed", async () => {
    const { sdk, client } = await setUp({
      decide: (body) =>
        body.visitorId === 'u-panic'
          ? { visitorId: body.visitorId, campaigns: [], panic: true }
          : shopDecision(body.visitorId, body.context),
    });
    const before = await client.getStringDetails('btnColor', 'red', { targetingKey: 'u1' });
    assert.deepEqual([before.value, before.reason], ['green', 'SPLIT']);
    await client.getStringDetails('btnColor', 'red', { targetingKey: 'u-panic' });
    assert.equal(sdk.instance.getStatus(), 'SDK_PANIC');
    const during = await client.getStringDetails('btnColor', 'red', { targetingKey: 'u1' });
    assert.deepEqual([during.value, during.reason], ['red', 'DISABLED']);
  });

  void it('an exposure per visitor and variation, however many evaluations; track sends EVENT hits', async () => {
    const { sdk, client } = await setUp();
    for (let i = 0; i < 5; i++) {
      await client.getStringValue('btnColor', 'red', { targetingKey: 'u1' });
      await client.getStringValue('btnColor', 'red', { targetingKey: 'u2' });
    }
    client.track('purchase', { targetingKey: 'u1' }, { value: 40 });
    client.track('purchase', { targetingKey: 'u2' }, { value: -1 });
    client.track('purchase', { plan: 'free' }); // no visitor: nothing sent
    await sdk.instance.close(); // flushes the pool
    const activations = activationsReceived(sdk.double).map(
      (a) => `${String(a.vid)}:${String(a.caid)}:${String(a.vaid)}`,
    );
    assert.deepEqual(activations.sort(), ['u1:vg1:v1', 'u2:vg1:v1']);
    const events = hitsReceived(sdk.double).filter((h) => h.t === 'EVENT' && h.ec === 'Action Tracking');
    assert.deepEqual(
      events.map((h) => [h.vid, h.ea, h.ev]),
      [
        ['u1', 'purchase', 40],
        ['u2', 'purchase', undefined],
      ],
    );
  });

  void it('another context for a kept visitor fetches again; the same context does not', async () => {
    const { sdk, client } = await setUp();
    assert.equal(
      await client.getStringValue('btnColor', 'red', { targetingKey: 'u1', plan: 'free' }),
      'green',
    );
    assert.equal(
      await client.getStringValue('btnColor', 'red', { targetingKey: 'u1', plan: 'free' }),
      'green',
    );
    assert.equal(decisionsFor(sdk, 'u1').length, 1);
    assert.equal(
      await client.getStringValue('btnColor', 'red', { targetingKey: 'u1', plan: 'premium' }),
      'gold',
    );
    assert.equal(decisionsFor(sdk, 'u1').length, 2);
    // Keys left out are removed from the visitor's context.
    assert.equal(await client.getStringValue('btnColor', 'red', { targetingKey: 'u1' }), 'green');
    const last = decisionsFor(sdk, 'u1').at(-1)?.body as { context: Record<string, unknown> };
    assert.equal(last.context.plan, undefined);
  });

  void it('concurrent evaluations of a new visitor share one fetch', async () => {
    const { sdk, client } = await setUp();
    const values = await Promise.all(
      Array.from({ length: 10 }, () => client.getStringValue('btnColor', 'red', { targetingKey: 'u1' })),
    );
    assert.deepEqual(new Set(values), new Set(['green']));
    assert.equal(decisionsFor(sdk, 'u1').length, 1);
  });

  void it('keeps at most maxVisitors, dropping the least recently evaluated', async () => {
    const { sdk, client, provider } = await setUp(undefined, { maxVisitors: 2 });
    await client.getStringValue('btnColor', 'red', { targetingKey: 'a' });
    await client.getStringValue('btnColor', 'red', { targetingKey: 'b' });
    await client.getStringValue('btnColor', 'red', { targetingKey: 'a' }); // a is now the most recent
    await client.getStringValue('btnColor', 'red', { targetingKey: 'c' }); // drops b
    assert.equal(provider.visitorCount, 2);
    assert.ok(provider.getVisitor('a'));
    assert.equal(provider.getVisitor('b'), undefined);
    await client.getStringValue('btnColor', 'red', { targetingKey: 'a' });
    assert.equal(decisionsFor(sdk, 'a').length, 1, 'a was kept');
    await client.getStringValue('btnColor', 'red', { targetingKey: 'b' });
    assert.equal(decisionsFor(sdk, 'b').length, 2, 'b was dropped, so made and fetched again');
    assert.throws(
      () => new FeatureServerProvider({ instance: sdk.instance, hasConsented: true, maxVisitors: 0 }),
      /maxVisitors must be an integer ≥ 1/,
    );
  });

  void it('ConfigurationChanged lists the changed keys when a kept visitor’s flags change by themselves', async () => {
    let color = 'green';
    const { sdk, client, provider } = await setUp({
      decide: (body) =>
        decision(body.visitorId, [
          campaign('c1', 'vg1', color === 'green' ? 'v1' : 'v2', { btnColor: color }),
        ]),
    });
    const changed: string[][] = [];
    client.addHandler(ProviderEvents.ConfigurationChanged, (details) =>
      changed.push(details?.flagsChanged ?? []),
    );
    await client.getStringValue('btnColor', 'red', { targetingKey: 'u1', plan: 'free' });
    // An evaluation's own fetch (a new context) is not a configuration change.
    sdk.double.script.decide = (body) =>
      decision(body.visitorId, [campaign('c1', 'vg1', 'v1', { btnColor: 'green' })]);
    await client.getStringValue('btnColor', 'red', { targetingKey: 'u1', plan: 'premium' });
    assert.deepEqual(changed, []);
    // A refetch that is not the provider's (as a live update makes it).
    color = 'blue';
    sdk.double.script.decide = (body) =>
      decision(body.visitorId, [campaign('c1', 'vg1', color === 'green' ? 'v1' : 'v2', { btnColor: color })]);
    await provider.getVisitor('u1')?.fetchFlags();
    await until(() => changed.length > 0 || null, { what: 'a ConfigurationChanged event' });
    assert.deepEqual(changed, [['btnColor']]);
    assert.equal(
      await client.getStringValue('btnColor', 'red', { targetingKey: 'u1', plan: 'premium' }),
      'blue',
    );
  });

  void it('bucketing mode: flags computed in-process from the file (PROTOCOL.md §15 vectors), no decision request', async () => {
    const { sdk, client } = await setUp({ bucketing: vectorFile() }, {}, true);
    for (const vector of VECTORS) {
      const details = await client.getNumberDetails('variation', -1, { targetingKey: vector.id });
      assert.equal(details.value, vector.variation, vector.id);
      assert.equal(details.variant, `Variation ${vector.variation}`);
      assert.equal(details.reason, 'SPLIT');
      assert.equal(details.flagMetadata.slug, 'quarters');
    }
    assert.equal(sdk.double.requestsTo('decision').length, 0);
  });

  void it('initialize rejects when the SDK was not started, naming what to do', async () => {
    const sdk = await startSdk();
    opened.push(sdk);
    await sdk.instance.close();
    await assert.rejects(
      OpenFeature.setProviderAndWait(
        randomUUID(),
        new FeatureServerProvider({ instance: sdk.instance, hasConsented: true }),
      ),
      /Feature\.start/,
    );
  });
});

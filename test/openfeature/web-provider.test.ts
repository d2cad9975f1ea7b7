// FeatureWebProvider (PROTOCOL.md §18.1) under the real @openfeature/web-sdk, against the protocol double:
// synchronous resolution from the fetched flags, OFREP's reasons, variants and metadata (§18), exposures as
// flag.value() counts them (§4), track → EVENT hits (§5), context changes → Reconciling, ConfigurationChanged.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { OpenFeature, ProviderEvents, type EventDetails, type Provider } from '@openfeature/web-sdk';
import { FeatureWebProvider } from '../../src/openfeature/index.js';
import type { Decision } from '../../src/protocol/index.js';
import type { DoubleScript } from '../support/protocol-double.js';
import {
  activationsReceived,
  campaign,
  decision,
  hitsReceived,
  startSdk,
  type Sdk,
} from '../core/support.js';

// Compile-time: the provider is what the web SDK takes (the source imports only @openfeature/core's types).
const asWebProvider = (provider: FeatureWebProvider): Provider => provider;

/** The decision of the tests: an A/B test (vg1/v2) and a feature toggle (vg2/v3). */
const shopDecision = (visitorId: string, color = 'green'): Decision =>
  decision(visitorId, [
    campaign(
      'c1',
      'vg1',
      'v2',
      { btnColor: color, showBanner: true, unset: null },
      {
        slug: 'checkout',
        variationName: 'Green',
      },
    ),
    campaign('c2', 'vg2', 'v3', { price: 10, layout: { columns: 2 } }, { type: 'toggle' }),
  ]);

/** An SDK on a fresh double, a provider over it in a domain of its own, and that domain's client. */
const setUp = async (
  decide: DoubleScript['decide'] = (body) => shopDecision(body.visitorId),
  context: Record<string, string | number | boolean | object> = { targetingKey: 'visitor-1', plan: 'free' },
) => {
  const sdk = await startSdk({ decide });
  const provider = new FeatureWebProvider({ instance: sdk.instance, hasConsented: true });
  const domain = randomUUID();
  await OpenFeature.setContext(domain, context as never);
  await OpenFeature.setProviderAndWait(domain, asWebProvider(provider));
  return { sdk, provider, domain, client: OpenFeature.getClient(domain) };
};

const opened: Sdk[] = [];
after(async () => {
  await OpenFeature.clearProviders();
  for (const sdk of opened) await sdk.close();
});

void describe('FeatureWebProvider (@openfeature/web-sdk)', () => {
  void it('resolves from the fetched flags: value, variant = variation name, SPLIT / TARGETING_MATCH, metadata', async () => {
    const { sdk, client } = await setUp();
    opened.push(sdk);
    assert.equal(client.providerStatus, 'READY');
    assert.equal(sdk.double.requestsTo('decision').length, 1, 'one fetch, at initialize');

    const color = client.getStringDetails('btnColor', 'red');
    assert.equal(color.value, 'green');
    assert.equal(color.variant, 'Green');
    assert.equal(color.reason, 'SPLIT');
    assert.deepEqual(color.flagMetadata, {
      campaignId: 'c1',
      campaignType: 'ab',
      slug: 'checkout',
      variationGroupId: 'vg1',
      variationId: 'v2',
      isReference: false,
    });
    assert.equal(client.getBooleanValue('showBanner', false), true);

    const price = client.getNumberDetails('price', 0);
    assert.equal(price.value, 10);
    assert.equal(price.reason, 'TARGETING_MATCH');
    assert.equal(price.variant, 'v3 name');
    assert.equal(price.flagMetadata.campaignType, 'toggle');
    assert.equal(price.flagMetadata.slug, '', 'no slug: "" as in §9.5');
    assert.deepEqual(client.getObjectValue('layout', {}), { columns: 2 });
    assert.equal(sdk.double.requestsTo('decision').length, 1, 'evaluations make no request');
  });

  void it('a key the variation does not set (§9.2): the default, with the variation and its reason', async () => {
    const { sdk, client } = await setUp();
    opened.push(sdk);
    const unset = client.getStringDetails('unset', 'fallback');
    assert.equal(unset.value, 'fallback');
    assert.equal(unset.variant, 'Green');
    assert.equal(unset.reason, 'SPLIT');
    assert.equal(unset.flagMetadata.variationId, 'v2');
  });

  void it('a missing flag: the default with FLAG_NOT_FOUND (the provider says DEFAULT); a type mismatch: TYPE_MISMATCH', async () => {
    const { sdk, client, provider } = await setUp();
    opened.push(sdk);
    const missing = client.getBooleanDetails('noSuchFlag', true);
    assert.equal(missing.value, true);
    assert.equal(missing.errorCode, 'FLAG_NOT_FOUND');
    assert.equal(missing.reason, 'ERROR', "OpenFeature's client reports an errorCode as ERROR");
    const direct = provider.resolveBooleanEvaluation('noSuchFlag', true);
    assert.equal(direct.reason, 'DEFAULT');
    assert.equal(direct.errorCode, 'FLAG_NOT_FOUND');

    const mismatch = client.getNumberDetails('btnColor', 7);
    assert.equal(mismatch.value, 7);
    assert.equal(mismatch.errorCode, 'TYPE_MISMATCH');
    assert.match(mismatch.errorMessage ?? '', /btnColor.*string, not a number/);
    // An array is an OpenFeature object; a string is not one.
    assert.equal(client.getObjectDetails('btnColor', {}).errorCode, 'TYPE_MISMATCH');

    await sdk.instance.close(); // flushes: whatever was exposed has reached the double
    assert.deepEqual(
      activationsReceived(sdk.double),
      [],
      'neither a missing flag nor a mismatch is an exposure',
    );
  });

  void it('panic: every flag DISABLED with the default, nothing exposed', async () => {
    const { sdk, client } = await setUp((body) => ({
      visitorId: body.visitorId,
      campaigns: [],
      panic: true,
    }));
    opened.push(sdk);
    const details = client.getStringDetails('btnColor', 'red');
    assert.equal(details.value, 'red');
    assert.equal(details.reason, 'DISABLED');
    assert.equal(details.errorCode, undefined);
    await sdk.instance.close();
    assert.deepEqual(activationsReceived(sdk.double), []);
  });

  void it('reading a value is an exposure, sent once per visitor and variation however often it is read', async () => {
    const { sdk, client } = await setUp();
    opened.push(sdk);
    for (let i = 0; i < 5; i++) client.getStringValue('btnColor', 'red');
    client.getBooleanValue('showBanner', false); // the same variation
    client.getNumberValue('price', 0); // another campaign
    await sdk.instance.close();
    const activations = activationsReceived(sdk.double).map(
      (a) => `${String(a.vid)}:${String(a.caid)}:${String(a.vaid)}`,
    );
    assert.deepEqual(activations.sort(), ['visitor-1:vg1:v2', 'visitor-1:vg2:v3']);
  });

  void it('track sends an EVENT hit: Action Tracking, the name, ev only when an integer ≥ 0', async () => {
    const { sdk, client } = await setUp();
    opened.push(sdk);
    client.track('add_to_cart', { value: 3 });
    client.track('refund', { value: 2.5 });
    client.track('signup');
    await sdk.instance.close(); // flushes the pool
    const events = hitsReceived(sdk.double).filter((h) => h.t === 'EVENT' && h.ec === 'Action Tracking');
    assert.deepEqual(
      events.map((h) => [h.ea, h.ev, h.vid]),
      [
        ['add_to_cart', 3, 'visitor-1'],
        ['refund', undefined, 'visitor-1'],
        ['signup', undefined, 'visitor-1'],
      ],
    );
  });

  void it('a context change updates the visitor and fetches: Reconciling, then the new values and ConfigurationChanged', async () => {
    const { sdk, client, domain } = await setUp((body) =>
      shopDecision(body.visitorId, body.context.plan === 'premium' ? 'gold' : 'green'),
    );
    opened.push(sdk);
    assert.equal(client.getStringValue('btnColor', 'red'), 'green');
    const seen: string[] = [];
    const changed: Array<EventDetails<ProviderEvents.ConfigurationChanged>> = [];
    client.addHandler(ProviderEvents.Reconciling, () => seen.push('reconciling'));
    client.addHandler(ProviderEvents.ContextChanged, () => seen.push('context changed'));
    client.addHandler(ProviderEvents.ConfigurationChanged, (details) => {
      if (details !== undefined) changed.push(details);
    });

    await OpenFeature.setContext(domain, { targetingKey: 'visitor-1', plan: 'premium' });
    assert.deepEqual(seen, ['reconciling', 'context changed']);
    assert.equal(client.getStringValue('btnColor', 'red'), 'gold');
    const requests = sdk.double.requestsTo('decision');
    assert.equal(requests.length, 2);
    assert.equal((requests[1]?.body as { context: Record<string, unknown> }).context.plan, 'premium');
    assert.deepEqual(
      changed.map((d) => d.flagsChanged),
      [['btnColor']],
      'only the key whose value changed',
    );

    // A key the new context no longer holds is removed from the visitor's context.
    await OpenFeature.setContext(domain, { targetingKey: 'visitor-1' });
    const last = sdk.double.requestsTo('decision').at(-1)?.body as { context: Record<string, unknown> };
    assert.equal(last.context.plan, undefined);
    assert.equal(client.getStringValue('btnColor', 'red'), 'green');
  });

  void it('a new targetingKey authenticates the visitor; its anonymous id again unauthenticates it', async () => {
    const { sdk, client, domain, provider } = await setUp();
    opened.push(sdk);
    const visitor = provider.visitor;
    assert.ok(visitor);
    await OpenFeature.setContext(domain, { targetingKey: 'user-42' });
    assert.deepEqual([visitor.visitorId, visitor.anonymousId], ['user-42', 'visitor-1']);
    const body = sdk.double.requestsTo('decision').at(-1)?.body as {
      visitorId: string;
      anonymousId?: string;
    };
    assert.equal(body.visitorId, 'user-42');
    assert.equal(body.anonymousId, 'visitor-1');
    assert.equal(client.getStringValue('btnColor', 'red'), 'green');

    await OpenFeature.setContext(domain, { targetingKey: 'visitor-1' });
    assert.deepEqual([visitor.visitorId, visitor.isAuthenticated], ['visitor-1', false]);
  });

  void it('ConfigurationChanged lists the keys whose value or variation changed after a refetch (a live update)', async () => {
    let color = 'green';
    let price = 10;
    const { sdk, client, provider } = await setUp((body) =>
      decision(body.visitorId, [
        campaign('c1', 'vg1', color === 'green' ? 'v2' : 'v1', { btnColor: color, showBanner: true }),
        campaign('c2', 'vg2', 'v3', { price }, { type: 'toggle' }),
      ]),
    );
    opened.push(sdk);
    const changed: string[][] = [];
    client.addHandler(ProviderEvents.ConfigurationChanged, (details) =>
      changed.push(details?.flagsChanged ?? []),
    );

    await provider.visitor?.fetchFlags(); // the same answer: no event
    assert.deepEqual(changed, []);
    color = 'blue'; // another variation: both of its keys changed variation
    price = 12;
    await provider.visitor?.fetchFlags();
    assert.deepEqual(
      changed.map((keys) => [...keys].sort()),
      [['btnColor', 'price', 'showBanner']],
    );
    assert.equal(client.getStringValue('btnColor', 'red'), 'blue');
  });

  void it('context values other than string, boolean and number are refused, named in the SDK log; the rest is sent', async () => {
    const { sdk } = await setUp(undefined, {
      targetingKey: 'visitor-1',
      plan: 'free',
      address: { city: 'Lyon' },
      tags: ['a'],
    });
    opened.push(sdk);
    const sent = (sdk.double.requestsTo('decision')[0]?.body as { context: Record<string, unknown> }).context;
    assert.equal(sent.plan, 'free');
    assert.equal(sent.address, undefined);
    assert.equal(sent.tags, undefined);
    const text = sdk.logs.lines.map((e) => e.message).join('\n');
    assert.match(text, /context key "address" refused: .*not (an )?object/);
    assert.match(text, /context key "tags" refused: .*not an array/);
  });

  void it('without a targetingKey the provider does not become ready, and says what to set', async () => {
    const sdk = await startSdk();
    opened.push(sdk);
    const domain = randomUUID();
    await OpenFeature.setContext(domain, { plan: 'free' });
    await assert.rejects(
      OpenFeature.setProviderAndWait(
        domain,
        new FeatureWebProvider({ instance: sdk.instance, hasConsented: true }),
      ),
      /targetingKey/,
    );
    assert.equal(OpenFeature.getClient(domain).providerStatus, 'ERROR');
  });

  void it('onClose stops the ConfigurationChanged events; the SDK instance stays started', async () => {
    const { sdk, provider, domain } = await setUp();
    opened.push(sdk);
    const visitor = provider.visitor;
    const emitted: unknown[] = [];
    provider.events.addHandler(ProviderEvents.ConfigurationChanged, (d) => emitted.push(d));
    await OpenFeature.setProviderAndWait(
      domain,
      new FeatureWebProvider({ instance: sdk.instance, hasConsented: true }),
    );
    assert.equal(provider.visitor, null);
    sdk.double.script.decide = (body) => shopDecision(body.visitorId, 'blue');
    await visitor?.fetchFlags();
    assert.deepEqual(emitted, []);
    assert.equal(sdk.instance.getStatus(), 'SDK_INITIALIZED');
  });
});

// The OpenFeature providers (PROTOCOL.md §18.1) against the project's own server: the flags of §15 through
// OpenFeature's clients in both modes, one visit per visitor and variation whatever the number of evaluations,
// and `track` counted by the campaign report as a conversion. Expected figures come from §15's table.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, it } from 'node:test';
import { ProviderEvents, OpenFeature as ServerOpenFeature } from '@openfeature/server-sdk';
import { OpenFeature as WebOpenFeature } from '@openfeature/web-sdk';
import { Mode } from '../../src/core/node.js';
import { FeatureServerProvider, FeatureWebProvider } from '../../src/openfeature/index.js';
import { describeE2eOnEveryStore, report, startSdk, variationOf, visitsOf } from './sdk-server-support.js';
import { VECTORS, campaignsFile } from './sdk-server-campaigns.js';
import { until } from '../support/until.js';

const [A, B] = VECTORS;

after(async () => {
  await ServerOpenFeature.clearProviders();
  await WebOpenFeature.clearProviders();
});

describeE2eOnEveryStore('OpenFeature providers against the server', (fixture) => {
  for (const mode of [Mode.DECISION_API, Mode.BUCKETING])
    void it(`FeatureServerProvider, ${mode}: §15's variations, one visit per visitor, track as a conversion`, async () => {
      const env = await fixture.server.seed();
      const sdk = await startSdk(fixture.server, env, mode, fixture.closers);
      const domain = randomUUID();
      await ServerOpenFeature.setProviderAndWait(
        domain,
        new FeatureServerProvider({ instance: sdk.instance, hasConsented: true }),
      );
      const client = ServerOpenFeature.getClient(domain);
      for (let round = 0; round < 5; round++)
        for (const v of [A, B]) {
          const q = await client.getNumberDetails('q', -1, { targetingKey: v.id });
          assert.deepEqual(
            [q.value, q.variant, q.reason, q.flagMetadata.variationId],
            [v.variation, `Variation ${v.variation}`, 'SPLIT', `q-${v.variation}`],
          );
        }
      client.track('add_to_cart', { targetingKey: A.id }, { value: 3 });
      await sdk.instance.close(); // flushes the pool and waits

      const quarters = await report(fixture.server, env.envId, 'quarters');
      assert.deepEqual(visitsOf(quarters), { [`q-${A.variation}`]: 1, [`q-${B.variation}`]: 1 });
      const exposed = variationOf(quarters, `q-${A.variation}`);
      assert.deepEqual(
        [exposed.events.add_to_cart?.conversions, exposed.events.add_to_cart?.visitors],
        [1, 1],
      );
      assert.equal(variationOf(quarters, `q-${B.variation}`).events.add_to_cart?.conversions, 0);
    });

  void it('FeatureServerProvider, BUCKETING: a new file reaches kept visitors, announced by ConfigurationChanged', async () => {
    const env = await fixture.server.seed();
    const sdk = await startSdk(fixture.server, env, Mode.BUCKETING, fixture.closers, 1);
    const domain = randomUUID();
    await ServerOpenFeature.setProviderAndWait(
      domain,
      new FeatureServerProvider({ instance: sdk.instance, hasConsented: true }),
    );
    const client = ServerOpenFeature.getClient(domain);
    const changed: string[][] = [];
    client.addHandler(ProviderEvents.ConfigurationChanged, (details) =>
      changed.push(details?.flagsChanged ?? []),
    );
    const before = await client.getStringDetails('banner', 'off', { targetingKey: A.id });
    assert.deepEqual([before.value, before.errorCode], ['off', 'FLAG_NOT_FOUND']);

    await fixture.server.importFile(env.envId, campaignsFile({ extra: true }));
    // Polling every second: the kept visitor is re-evaluated when the new file lands (PROTOCOL.md §16.2).
    await until(() => changed.find((keys) => keys.includes('banner')), {
      what: 'a ConfigurationChanged event naming banner',
      timeoutMs: 6000,
    });
    const after = await client.getStringDetails('banner', 'off', { targetingKey: A.id });
    assert.deepEqual([after.value, after.reason], ['on', 'TARGETING_MATCH']);
  });

  void it('FeatureWebProvider: the visitor of the context, one visit, track as a conversion', async () => {
    const env = await fixture.server.seed();
    const sdk = await startSdk(fixture.server, env, Mode.DECISION_API, fixture.closers);
    const domain = randomUUID();
    await WebOpenFeature.setContext(domain, { targetingKey: A.id });
    await WebOpenFeature.setProviderAndWait(
      domain,
      new FeatureWebProvider({ instance: sdk.instance, hasConsented: true }),
    );
    const client = WebOpenFeature.getClient(domain);
    for (let i = 0; i < 5; i++) assert.equal(client.getNumberValue('q', -1), A.variation);
    assert.equal(client.getNumberValue('h', -1), A.variation50);
    client.track('add_to_cart', { value: 2 });
    await sdk.instance.close();

    const quarters = await report(fixture.server, env.envId, 'quarters');
    assert.deepEqual(visitsOf(quarters), { [`q-${A.variation}`]: 1 });
    assert.equal(variationOf(quarters, `q-${A.variation}`).events.add_to_cart?.conversions, 1);
    assert.deepEqual(visitsOf(await report(fixture.server, env.envId, 'halves')), {
      [`h-${A.variation50}`]: 1,
    });
  });
});

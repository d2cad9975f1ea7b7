// The published OFREP provider for Node (`@openfeature/ofrep-provider`, unchanged) through the OpenFeature
// server SDK against a real server (PROTOCOL.md §18): values, variants, reasons and metadata as our routes
// answer them, FLAG_NOT_FOUND, a wrong API key, and panic. The provider evaluates one flag per request
// (`POST /ofrep/v1/evaluate/flags/{key}`): it never calls the bulk route, so it sends no If-None-Match and
// meets no ETag (the Chromium test covers those with the web provider).
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { OFREPProvider } from '@openfeature/ofrep-provider';
import { ErrorCode, OpenFeature, type Client } from '@openfeature/server-sdk';
import type { Decision } from '../../../src/protocol/index.js';
import { checkoutCampaign, describeOnEveryStore, post, premiumToggle, seedEnvironment } from '../support.js';
import { until } from '../../support/until.js';

let domains = 0;

/** A client in a domain of its own, bound to a fresh OFREP provider for `apiKey` at `baseUrl`. */
const clientFor = async (baseUrl: string, apiKey: string): Promise<Client> => {
  const domain = `ofrep-real-${++domains}`;
  await OpenFeature.setProviderAndWait(
    domain,
    new OFREPProvider({ baseUrl, headers: [['Authorization', `Bearer ${apiKey}`]] }),
  );
  return OpenFeature.getClient(domain);
};

after(() => OpenFeature.close());

describeOnEveryStore(
  'OFREP through @openfeature/ofrep-provider',
  [checkoutCampaign(), premiumToggle()],
  (fixture) => {
    /** The decision API's answer for the same visitor: what the provider must agree with. */
    const decide = async (visitorId: string): Promise<Decision> => {
      const res = await post(
        `${fixture.server.url}/v2/${fixture.env.envId}/campaigns?exposeAllKeys=true&sendContextEvent=false`,
        { visitorId, context: {} },
        { 'x-api-key': fixture.env.apiKey },
      );
      assert.equal(res.status, 200);
      return res.body as Decision;
    };

    /** A visitor of the A/B test's variation `variationId`, found through the decision API. */
    const visitorIn = async (variationId: string, prefix: string): Promise<string> => {
      for (let i = 0; i < 40; i++) {
        const decision = await decide(`${prefix}-${i}`);
        if (decision.campaigns.find((c) => c.id === 'c1')?.variation.id === variationId)
          return `${prefix}-${i}`;
      }
      throw new Error(`no visitor in ${variationId} among 40`);
    };

    void it('gives values, variants, reasons and metadata as the server decides them', async () => {
      const client = await clientFor(fixture.server.url, fixture.env.apiKey);
      const banner = await client.getBooleanDetails('banner', false, {
        targetingKey: 'node-1',
        plan: 'premium',
      });
      assert.deepEqual(banner, {
        flagKey: 'banner',
        value: true,
        variant: 'On',
        reason: 'TARGETING_MATCH',
        flagMetadata: {
          campaignId: 'c2',
          campaignType: 'toggle',
          slug: '',
          variationGroupId: 'vg2',
          variationId: 'v3',
          isReference: true,
        },
      });
      const green = await visitorIn('v2', 'node-green');
      assert.deepEqual(await client.getStringDetails('btnColor', 'blue', { targetingKey: green }), {
        flagKey: 'btnColor',
        value: 'green',
        variant: 'Green',
        reason: 'SPLIT',
        flagMetadata: {
          campaignId: 'c1',
          campaignType: 'ab',
          slug: 'checkout',
          variationGroupId: 'vg1',
          variationId: 'v2',
          isReference: false,
        },
      });
    });

    void it("reports FLAG_NOT_FOUND with the server's details", async () => {
      const client = await clientFor(fixture.server.url, fixture.env.apiKey);
      const unknown = await client.getStringDetails('btnColour', 'blue', { targetingKey: 'node-nf' });
      assert.equal(unknown.errorCode, ErrorCode.FLAG_NOT_FOUND);
      assert.equal(unknown.reason, 'ERROR');
      assert.equal(unknown.value, 'blue');
      assert.match(unknown.errorMessage ?? '', /btnColour/);
    });

    void it('reports a wrong API key: the 401 is an OFREPApiUnauthorizedError, GENERAL through the SDK', async () => {
      const wrongKey = `${fixture.env.apiKey}x`;
      const client = await clientFor(fixture.server.url, wrongKey);
      const refused = await client.getBooleanDetails('banner', false, {
        targetingKey: 'node-401',
        plan: 'premium',
      });
      assert.equal(refused.errorCode, ErrorCode.GENERAL);
      assert.equal(refused.reason, 'ERROR');
      assert.equal(refused.value, false);
      // The SDK keeps only the code; the provider itself throws the 401 it met.
      const provider = new OFREPProvider({
        baseUrl: fixture.server.url,
        headers: [['Authorization', `Bearer ${wrongKey}`]],
      });
      await assert.rejects(
        provider.resolveBooleanEvaluation('banner', false, { targetingKey: 'node-401' }),
        (error: { name?: string; response?: { status?: number } }) =>
          error.name === 'OFREPApiUnauthorizedError' && error.response?.status === 401,
      );
    });

    // ofrep-provider 0.1.3 (with @openfeature/ofrep-core 0.1.x) takes a 200 without `value` as a malformed
    // answer. Our server leaves `value` out where the application's default applies (§18: DISABLED in panic,
    // and a variation that sets the flag to null), so there this provider reports GENERAL with the default
    // instead of the server's reason and variant. The value the application gets is the right one.
    void it('falls back to the default, as an error, where the server sends no value (reference, panic)', async () => {
      const client = await clientFor(fixture.server.url, fixture.env.apiKey);
      const reference = await visitorIn('v1', 'node-ref');
      const original = await client.getStringDetails('btnColor', 'blue', { targetingKey: reference });
      assert.equal(original.value, 'blue');
      assert.equal(original.errorCode, ErrorCode.GENERAL);
      assert.match(original.errorMessage ?? '', /does not match the expected format/);

      const env = await seedEnvironment(fixture.store, [premiumToggle('p-')]);
      const panicClient = await clientFor(fixture.server.url, env.apiKey);
      const context = { targetingKey: 'node-panic', plan: 'premium' };
      assert.equal((await panicClient.getBooleanDetails('banner', false, context)).value, true);
      await fixture.store.setPanic(env.envId, true);
      const disabled = await until(
        async () => {
          const res = await post(
            `${fixture.server.url}/ofrep/v1/evaluate/flags/banner`,
            { context },
            { authorization: `Bearer ${env.apiKey}` },
          );
          return (res.body as { reason?: string }).reason === 'DISABLED' && res;
        },
        { what: 'panic to reach the app' },
      );
      assert.equal('value' in (disabled.body as object), false);
      const inPanic = await panicClient.getBooleanDetails('banner', false, context);
      assert.equal(inPanic.value, false);
      assert.equal(inPanic.reason, 'ERROR');
      assert.equal(inPanic.errorCode, ErrorCode.GENERAL);
    });
  },
);

// <feature-hit> against the real server, in both modes: a click inside a <feature-flag> reports the flag's
// exposure before the event (order on the wire, through the proxy) and the report credits the conversion to
// the variation shown; a screen hit goes once per page view; a wrong hit is reported once and never sent.
import { assert, expect, fixture, html, oneEvent } from '@open-wc/testing';
import { IdbHitCache } from '../../src/core/caches/idb.js';
import type { FeatureErrorDetail, FeatureHit, FeatureProvider } from '../../src/elements/index.js';
import { until } from '../support/until.js';
import {
  MODES,
  POOL_MAX_SIZE,
  VECTOR_VISITORS,
  barrier,
  checkout,
  makeProvider,
  newEnv,
  mine,
  newVisitorId,
  pool,
  readyOf,
  report,
  splitCampaign,
  wire,
  type Env,
} from './support.js';

/** PROTOCOL.md §15: in the decision API run the visitor gets variation50 2 ("v-two"), in bucketing 1. */
const CASES = {
  'decision API': { visitorId: VECTOR_VISITORS.second[0], variationId: 'v-two', other: 'v-one', text: 'two' },
  bucketing: { visitorId: VECTOR_VISITORS.first[1], variationId: 'v-one', other: 'v-two', text: 'one' },
} as const;

const connect = async (env: Env, mode: string | null, visitorId: string, content: string) => {
  const provider = await makeProvider({ env, mode, visitorId, content });
  const ready = readyOf(provider);
  await fixture(html`${provider}`);
  assert.strictEqual((await ready).source, 'fetch');
  return provider;
};

const hitOf = (provider: FeatureProvider, selector = 'feature-hit'): FeatureHit => {
  const found = provider.querySelector<FeatureHit>(selector);
  if (found === null) throw new Error(`no ${selector}`);
  return found;
};

const buttonOf = (provider: FeatureProvider): HTMLButtonElement => {
  const found = provider.querySelector('button');
  if (found === null) throw new Error('no button');
  return found;
};

/**
 * Waits until the SDK has taken in the acknowledgement of everything sent so far: the browser's default
 * (continuous) caching writes each pooled item to the env's IndexedDB hit cache, and an acknowledged item
 * leaves the pool before its cached copy is erased, so an empty cache means an empty pool.
 */
const poolEmptied = async (env: Env): Promise<void> => {
  const hitCache = new IdbHitCache({ dbName: `feature-ts:${env.envId}` });
  try {
    await until(async () => (await hitCache.lookupHits()).length === 0, {
      what: 'the acknowledged hits erased from the hit cache',
    });
  } finally {
    await hitCache.close();
  }
};

for (const { name, mode } of MODES) {
  describe(`<feature-hit> (${name})`, () => {
    it('a click inside a flag sends its activation before the event, and the report credits that variation', async () => {
      const { visitorId, variationId, other, text } = CASES[name];
      const env = await newEnv([splitCampaign()]);
      const provider = await connect(
        env,
        mode,
        visitorId,
        `<feature-flag key="split" default="none" exposure="manual">
           <template fallback>
             <feature-hit type="event" action="add_to_cart"><button type="button">Add to cart</button></feature-hit>
           </template>
         </feature-flag>`,
      );
      assert.strictEqual(provider.querySelector('feature-flag')?.value, text);
      // Leave the pool one item short of full, so the first item the click pools sends it at once: had the
      // hit been pooled before the exposure, it would leave in a request of its own, ahead of the activation.
      await barrier(provider, env.envId, 'empty');
      await poolEmptied(env);
      await pool(provider, POOL_MAX_SIZE - 1, 'prefill', 'prefill');
      buttonOf(provider).click();
      await oneEvent(provider, 'feature-exposed');
      const { activations, hits } = mine(await barrier(provider, env.envId), visitorId);
      assert.deepEqual(
        activations.map((a) => [a.visitorId, a.variationGroupId, a.variationId]),
        [[visitorId, 'bs8r119sbs4016meiiii', variationId]],
      );
      const cart = hits.filter((h) => h.goal === 'add_to_cart');
      assert.deepEqual(
        cart.map((h) => [h.type, h.visitorId, h.body.ec]),
        [['EVENT', visitorId, 'Action Tracking']],
      );

      // On the wire: the activation request was answered before the request carrying the event went out.
      const requests = await wire(env.envId);
      const activation = requests.find(
        (r) => r.route === 'activate' && JSON.stringify(r.body).includes(`"vaid":"${variationId}"`),
      );
      const event = requests.find(
        (r) => r.route === 'events' && JSON.stringify(r.body).includes('"add_to_cart"'),
      );
      assert.notStrictEqual(activation, undefined, 'activation request');
      assert.notStrictEqual(event, undefined, 'event request');
      assert.isBelow(activation?.seq ?? Infinity, event?.seq ?? 0);
      assert.isAtMost(activation?.answeredAt ?? Infinity, event?.at ?? 0);

      const { variation_groups: groups } = await report(env.envId, 'split');
      const variations = groups.find((g) => g.id === 'bs8r119sbs4016meiiii')?.variations ?? [];
      const row = (id: string) => variations.find((v) => v.id === id);
      assert.include(row(variationId), { visits: 1, visitors: 1 });
      assert.include(row(variationId)?.events.add_to_cart, { conversions: 1, visitors: 1, rate: 1 });
      assert.include(row(other), { visits: 0, visitors: 0 });
      assert.include(row(other)?.events.add_to_cart, { conversions: 0, visitors: 0 });
      assert.include(row('v-ref')?.events.add_to_cart, { conversions: 0, visitors: 0 });
    });

    it('a screen hit is sent once per page view, whatever re-renders and repeats follow', async () => {
      const env = await newEnv([checkout()]);
      const visitorId = newVisitorId('screen');
      const provider = await connect(
        env,
        mode,
        visitorId,
        `<feature-hit id="a" type="screen" location="checkout"></feature-hit>
         <feature-hit id="b" type="screen" location="checkout"></feature-hit>
         <feature-hit id="page" type="screen"></feature-hit>`,
      );
      const a = hitOf(provider, '#a');
      a.setAttribute('label', 'again');
      await a.updateComplete;
      provider.append(a);
      await a.send();
      const { hits } = mine(await barrier(provider, env.envId), visitorId);
      const screens = hits.filter((h) => h.type === 'SCREENVIEW');
      assert.sameDeepMembers(
        screens.map((h) => [h.visitorId, h.body.dl]),
        [
          [visitorId, 'checkout'],
          [visitorId, location.pathname],
        ],
      );
      assert.lengthOf(screens, 2);
    });

    it('an event hit without an action is reported once and never sent; the elements are accessible', async () => {
      const env = await newEnv([checkout()]);
      const errors: FeatureErrorDetail[] = [];
      const visitorId = newVisitorId('invalid');
      const provider = await connect(
        env,
        mode,
        visitorId,
        `<feature-hit id="wrong" type="event"><button type="button">Buy</button></feature-hit>
         <feature-flag key="btnColor" default="red" exposure="manual"></feature-flag>`,
      );
      provider.addEventListener('feature-error', (e) => errors.push(e.detail));
      buttonOf(provider).click();
      buttonOf(provider).click();
      await hitOf(provider, '#wrong').send();
      assert.deepEqual(
        errors.map((e) => e.reason),
        ['invalid-hit'],
      );
      const { hits } = mine(await barrier(provider, env.envId), visitorId);
      assert.deepEqual(
        hits.filter((h) => h.type === 'EVENT' && h.goal !== 'barrier' && h.goal !== 'fs_consent'),
        [],
      );
      await expect(hitOf(provider)).to.be.accessible();
      await expect(provider).to.be.accessible();
    });
  });
}

// Nested <feature-provider>s are independent, against the real server: two environments or two visitors of
// one environment, the inner provider in the other mode, each with its own flags, exposures and hits.
import { assert, fixture, html, oneEvent } from '@open-wc/testing';
import type { FeatureFlag, FeatureProvider } from '../../src/elements/index.js';
import type { BucketingCampaign } from '../../src/protocol/index.js';
import {
  MODES,
  barrier,
  campaign,
  checkout,
  makeProvider,
  mine,
  newEnv,
  newVisitorId,
  readyOf,
} from './support.js';

/** One campaign, a variation group per visitor id (targeting `fs_users`, the current id, PROTOCOL.md §7). */
const byVisitor = (first: string, second: string): BucketingCampaign => {
  const group = (who: string, id: string) => ({
    id: `vg-${id}`,
    name: id,
    targeting: { targetingGroups: [{ targetings: [{ operator: 'EQUALS', key: 'fs_users', value: who }] }] },
    variations: [
      {
        id: `v-${id}`,
        name: id,
        allocation: 100,
        modifications: { type: 'FLAG', value: { greeting: `hello ${id}` } },
      },
    ],
  });
  return {
    id: 'greetings',
    name: 'Greetings',
    type: 'perso',
    variationGroups: [group(first, 'first'), group(second, 'second')],
  };
};

const flagOf = (root: ParentNode, selector: string): FeatureFlag => {
  const found = root.querySelector<FeatureFlag>(selector);
  if (found === null) throw new Error(`no ${selector}`);
  return found;
};

/** The provider directly around `flag`. */
const providerOf = (el: Element): FeatureProvider => {
  const found = el.closest('feature-provider');
  if (found === null) throw new Error('no provider');
  return found;
};

/** Nests `inner` as the last child of `outer` and connects both; resolves once both have fetched. */
const connectNested = async (outer: FeatureProvider, inner: FeatureProvider) => {
  outer.append(inner);
  const ready = Promise.all([readyOf(outer), readyOf(inner)]);
  await fixture(html`${outer}`);
  const [a, b] = await ready;
  assert.deepEqual([a.source, b.source], ['fetch', 'fetch']);
};

for (const { name, mode } of MODES) {
  // The inner provider runs in the other mode ("api" spelled out), so both modes meet on one page.
  const innerMode = mode === 'bucketing' ? 'api' : 'bucketing';

  describe(`nested <feature-provider>s (outer: ${name})`, () => {
    it('two environments: each flag, exposure and hit belongs to its own provider', async () => {
      const outerEnv = await newEnv([checkout()]);
      const innerEnv = await newEnv([
        campaign('checkout', [{ id: 'v-blue', name: 'Blue', flags: { btnColor: 'blue' } }]),
      ]);
      const a = newVisitorId('outer');
      const b = newVisitorId('inner');
      const outer = await makeProvider({
        env: outerEnv,
        mode,
        visitorId: a,
        content:
          '<feature-flag id="outer-flag" key="btnColor" default="red" exposure="render"></feature-flag>',
      });
      const inner = await makeProvider({
        env: innerEnv,
        mode: innerMode,
        visitorId: b,
        content: `<feature-flag id="inner-flag" key="btnColor" default="red" exposure="render"></feature-flag>
          <feature-hit action="add_to_cart"><button type="button">Add</button></feature-hit>`,
      });
      const outerFlag = flagOf(outer, '#outer-flag');
      const innerFlag = flagOf(inner, '#inner-flag');
      const exposed = Promise.all([
        oneEvent(outerFlag, 'feature-exposed'),
        oneEvent(innerFlag, 'feature-exposed'),
      ]);
      await connectNested(outer, inner);
      assert.strictEqual(outerFlag.value, 'green');
      assert.strictEqual(innerFlag.value, 'blue');
      assert.strictEqual(providerOf(innerFlag), inner);
      await exposed;
      inner.querySelector('button')?.click();

      const outerGot = await barrier(outer, outerEnv.envId);
      const innerGot = await barrier(inner, innerEnv.envId);
      assert.deepEqual(
        mine(outerGot, a).activations.map((x) => x.variationId),
        ['v-green'],
      );
      assert.deepEqual(
        mine(innerGot, b).activations.map((x) => x.variationId),
        ['v-blue'],
      );
      assert.lengthOf(
        mine(innerGot, b).hits.filter((h) => h.goal === 'add_to_cart'),
        1,
      );
      assert.deepEqual(
        mine(outerGot, a).hits.filter((h) => h.goal === 'add_to_cart'),
        [],
      );
      // The click bubbled through the outer provider, which sent nothing of it.
      assert.deepEqual(
        mine(outerGot, b).hits.filter((h) => h.goal === 'add_to_cart'),
        [],
      );
    });

    it('one environment, two visitors: each provider shows and reports its own visitor', async () => {
      const first = newVisitorId('first');
      const second = newVisitorId('second');
      const env = await newEnv([byVisitor(first, second)]);
      const flag = (id: string) =>
        `<feature-flag id="${id}" key="greeting" default="none" exposure="render"></feature-flag>`;
      const outer = await makeProvider({ env, mode, visitorId: first, content: flag('first') });
      const inner = await makeProvider({ env, mode: innerMode, visitorId: second, content: flag('second') });
      const exposed = Promise.all([
        oneEvent(flagOf(outer, '#first'), 'feature-exposed'),
        oneEvent(flagOf(inner, '#second'), 'feature-exposed'),
      ]);
      await connectNested(outer, inner);
      assert.strictEqual(flagOf(outer, '#first').value, 'hello first');
      assert.strictEqual(flagOf(outer, '#second').value, 'hello second');
      await exposed;
      await barrier(outer, env.envId);
      const got = await barrier(inner, env.envId);
      assert.deepEqual(
        mine(got, first).activations.map((x) => x.variationId),
        ['v-first'],
      );
      assert.deepEqual(
        mine(got, second).activations.map((x) => x.variationId),
        ['v-second'],
      );
    });
  });
}

describe('nested <feature-provider>s of two environments share no hit', () => {
  // Each environment's instance has its own default caches (IndexedDB "feature-ts:{envId}"): a tracker that
  // starts queues only what its own environment left pooled, never another environment's visitors.
  it("an inner provider that starts later sends none of the outer environment's pooled hits", async () => {
    const outerEnv = await newEnv([checkout()]);
    const innerEnv = await newEnv([
      campaign('checkout', [{ id: 'v-blue', name: 'Blue', flags: { btnColor: 'blue' } }]),
    ]);
    const a = newVisitorId('outer');
    const b = newVisitorId('inner');
    const outer = await makeProvider({
      env: outerEnv,
      visitorId: a,
      content: '<feature-flag key="btnColor" default="red" exposure="render"></feature-flag>',
    });
    const outerReady = readyOf(outer);
    const exposed = oneEvent(flagOf(outer, 'feature-flag'), 'feature-exposed');
    await fixture(html`${outer}`);
    await outerReady;
    await exposed;
    // The outer visitor's activation and fs_consent event now wait in the pool (and the hit cache).
    const inner = await makeProvider({ env: innerEnv, visitorId: b, content: '' });
    const innerReady = readyOf(inner);
    outer.append(inner);
    assert.strictEqual((await innerReady).source, 'fetch');
    const innerGot = await barrier(inner, innerEnv.envId);
    assert.deepEqual(mine(innerGot, a), { activations: [], hits: [] });
  });
});

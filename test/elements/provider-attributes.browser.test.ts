// Changing a <feature-provider>'s attributes while it runs, against the real server, in both modes: context
// (targeting picks another variation), consent (withdrawn: nothing more is sent and the kept copy is
// forgotten) and login (visitor-id + authenticated authenticate; the anonymous id goes along as `aid`).
import { assert, fixture, html, oneEvent } from '@open-wc/testing';
import { until } from '../support/until.js';
import type { FeatureFlag } from '../../src/elements/index.js';
import {
  MODES,
  barrier,
  campaign,
  checkout,
  delivered,
  drainMicrotasks,
  hold,
  makeProvider,
  mine,
  newEnv,
  newVisitorId,
  readyOf,
  release,
  wire,
  type Env,
} from './support.js';

/** `offer` = "gold" for visitors whose context has plan = premium; nothing for the others. */
const premium = () =>
  campaign(
    'premium',
    [{ id: 'v-gold', name: 'Gold', flags: { offer: 'gold' } }],
    [{ targetings: [{ operator: 'EQUALS', key: 'plan', value: 'premium' }] }],
  );

/** `member` = "yes" for the visitor whose current id is `userId` (fs_users, PROTOCOL.md §7). */
const members = (userId: string) =>
  campaign(
    'members',
    [{ id: 'v-member', name: 'Member', flags: { member: 'yes' } }],
    [{ targetings: [{ operator: 'EQUALS', key: 'fs_users', value: userId }] }],
  );

const connect = async (
  env: Env,
  mode: string | null,
  visitorId: string,
  content: string,
  context?: Record<string, string>,
) => {
  const provider = await makeProvider({ env, mode, visitorId, content, ...(context ? { context } : {}) });
  const ready = readyOf(provider);
  await fixture(html`${provider}`);
  assert.strictEqual((await ready).source, 'fetch');
  return provider;
};

const flagOf = (root: ParentNode, selector: string): FeatureFlag => {
  const found = root.querySelector<FeatureFlag>(selector);
  if (found === null) throw new Error(`no ${selector}`);
  return found;
};

/** Resolves once `flag` shows `value`. */
const shows = (flag: FeatureFlag, value: unknown) =>
  until(() => flag.value === value, { what: `${flag.key} shows ${String(value)}`, timeoutMs: 3000 });

const clickIn = (root: ParentNode): void => {
  const button = root.querySelector('button');
  if (button === null) throw new Error('no button');
  button.click();
};

for (const { name, mode } of MODES) {
  describe(`<feature-provider> attribute changes (${name})`, () => {
    it('context: a change refetches and targeting picks the variation', async () => {
      const env = await newEnv([premium()]);
      const provider = await connect(
        env,
        mode,
        newVisitorId('context'),
        '<feature-flag key="offer" default="none"></feature-flag>',
        { plan: 'basic' },
      );
      const flag = flagOf(provider, 'feature-flag');
      assert.strictEqual(flag.value, 'none');
      provider.setAttribute('context', JSON.stringify({ plan: 'premium' }));
      await shows(flag, 'gold');
      assert.strictEqual(flag.textContent.trim(), 'gold');
      // The property takes an object.
      provider.context = { plan: 'basic' };
      await shows(flag, 'none');
      provider.context = { plan: 'premium', age: 30 };
      await shows(flag, 'gold');
    });

    it('consent: withdrawn, nothing more is sent and the kept copy is forgotten', async () => {
      const env = await newEnv([
        checkout(),
        campaign('sizes', [{ id: 'v-large', name: 'L', flags: { size: 'L' } }]),
      ]);
      const visitorId = newVisitorId('consent');
      const provider = await connect(
        env,
        mode,
        visitorId,
        `<feature-flag key="btnColor" default="red" exposure="render"></feature-flag>
         <feature-hit action="add_to_cart"><button type="button">Add</button></feature-hit>`,
      );
      await oneEvent(flagOf(provider, 'feature-flag'), 'feature-exposed');
      // Delivered while consent holds (withdrawing it drops what is still pooled, PROTOCOL.md §5.1).
      await barrier(provider, env.envId);

      provider.removeAttribute('consent');
      await provider.updateComplete; // the visitor knows (setConsent runs before the update's first await)
      clickIn(provider);
      const late = document.createElement('feature-flag');
      late.setAttribute('key', 'size');
      late.setAttribute('default', 'S');
      late.setAttribute('exposure', 'render');
      provider.append(late);
      await shows(late, 'L');
      await late.reportExposure();
      // Closing the provider sends what it pooled: the withdrawal's fs_consent event, and nothing else.
      provider.remove();
      const { activations, hits } = mine(
        await delivered(env.envId, '"el":"feature-ts:false"', 'the fs_consent false event'),
        visitorId,
      );
      assert.deepEqual(
        activations.map((a) => a.variationId),
        ['v-green'],
      );
      assert.deepEqual(
        hits.filter((h) => h.goal === 'add_to_cart'),
        [],
      );

      // A second provider for the visitor finds no kept copy: it waits for the (held) answer.
      await hold(env.envId);
      const again = await makeProvider({
        env,
        mode,
        visitorId,
        consent: false,
        content: '<feature-flag key="btnColor" default="red"></feature-flag>',
      });
      const container = await fixture<HTMLDivElement>(html`<div></div>`);
      container.append(again);
      await drainMicrotasks();
      assert.strictEqual(flagOf(again, 'feature-flag').getAttribute('aria-busy'), 'true');
      again.remove();
      await release(env.envId);
    });

    it('login: visitor-id + authenticated authenticate, the anonymous id is sent as aid', async () => {
      const anonymous = newVisitorId('anon');
      const user = newVisitorId('user');
      const env = await newEnv([checkout(), members(user)]);
      const provider = await connect(
        env,
        mode,
        anonymous,
        `<feature-flag id="color" key="btnColor" default="red" exposure="render"></feature-flag>
         <feature-flag id="member" key="member" default="no" exposure="render"></feature-flag>
         <feature-hit action="add_to_cart"><button type="button">Add</button></feature-hit>`,
      );
      const member = flagOf(provider, '#member');
      await oneEvent(flagOf(provider, '#color'), 'feature-exposed');
      assert.strictEqual(member.value, 'no');

      const exposed = oneEvent(member, 'feature-exposed');
      provider.setAttribute('visitor-id', user);
      provider.setAttribute('authenticated', '');
      await shows(member, 'yes');
      await exposed;
      clickIn(provider);
      const { activations, hits } = mine(await barrier(provider, env.envId), anonymous, user);
      assert.deepEqual(
        activations.map((a) => [a.variationId, a.visitorId, a.anonymousId]),
        [
          ['v-green', anonymous, null],
          ['v-member', user, anonymous],
        ],
      );
      const cart = hits.filter((h) => h.goal === 'add_to_cart');
      assert.deepEqual(
        cart.map((h) => [h.visitorId, h.customerId]),
        [[anonymous, user]],
      );
      if (mode !== 'bucketing') {
        const decisions = (await wire(env.envId)).filter((r) => r.route === 'campaigns');
        assert.include(decisions.at(-1)?.body, { visitorId: user, anonymousId: anonymous });
      }

      // Logout: back to the anonymous visitor and its flags.
      provider.removeAttribute('authenticated');
      provider.setAttribute('visitor-id', anonymous);
      await shows(member, 'no');
      assert.strictEqual(provider.client.$flags.get().get('btnColor')?.value, 'green');
    });
  });
}

// A <feature-flag> whose variation changes while the page is open (decision-API mode, the real server: the
// campaigns change and the provider fetches again, as a live update does). It re-renders in place: the nodes
// both variations have stay (an <input> keeps its focus and what was typed; a text node its identity), and
// focus in a node that went moves to the new node of the same id. The new variation's exposure is reported
// once it has been seen, as the first one was.
import { assert, fixture, html, oneEvent } from '@open-wc/testing';
import type { ExposureDetail, FeatureFlag, FeatureProvider } from '../../src/elements/index.js';
import { until } from '../support/until.js';
import { FakeExposureClock, intersectionsDelivered } from './fake-exposure-clock.js';
import {
  EVERYONE,
  barrier,
  campaign,
  makeProvider,
  mine,
  newEnv,
  newVisitorId,
  readyOf,
  setCampaigns,
  type Env,
} from './support.js';

/** `form` = `value` for everyone, from variation `v-${value}` of its own variation group. */
const form = (value: string) =>
  campaign(
    'form',
    [{ id: `v-${value}`, name: value.toUpperCase(), flags: { form: value } }],
    EVERYONE,
    `vg-${value}`,
  );

const FORM = `<feature-flag key="form" default="none" exposure-delay="50">
  <template value="a"><label for="email">Email</label> <input id="email"> <button>Join</button></template>
  <template value="b"><label for="email">Email</label> <input id="email"> <button>Join now</button></template>
  <template value="c"><div class="boxed"><input id="email" placeholder="you@example.com"></div></template>
</feature-flag>`;

/** Connects a provider holding `content` for a new visitor; resolves once its flags are fetched and shown. */
const connect = async (env: Env, content: string) => {
  const visitorId = newVisitorId('in-place');
  const provider = await makeProvider({ env, visitorId, content });
  const ready = readyOf(provider);
  await fixture(html`${provider}`);
  assert.strictEqual((await ready).source, 'fetch');
  const flag = provider.querySelector<FeatureFlag>('feature-flag');
  if (flag === null) throw new Error('no feature-flag');
  await flag.updateComplete;
  return { provider, flag, visitorId };
};

/** Changes the campaigns to `campaigns`, fetches the provider's flags again and waits for `flag` to show `value`. */
const change = async (
  env: Env,
  provider: FeatureProvider,
  flag: FeatureFlag,
  value: string,
  campaigns = [form(value)],
) => {
  await setCampaigns(env.envId, campaigns);
  await provider.client.fetchFlags();
  await until(() => flag.value === value, { what: `the flag showing ${value}` });
  await flag.updateComplete;
};

const inputOf = (flag: FeatureFlag): HTMLInputElement => {
  const input = flag.querySelector('input');
  if (input === null) throw new Error('no input');
  return input;
};

describe('<feature-flag> whose variation changes', () => {
  let env: Env;
  let clock: FakeExposureClock;
  beforeEach(async () => {
    env = await newEnv([form('a')]);
    clock = new FakeExposureClock().install();
  });
  afterEach(() => {
    clock.uninstall();
  });

  it('keeps the nodes both variations have: the focused input keeps its focus and typed value', async () => {
    const { provider, flag } = await connect(env, FORM);
    const input = inputOf(flag);
    const button = flag.querySelector('button');
    input.focus();
    input.value = 'ada@example.com';
    assert.strictEqual(document.activeElement, input);

    await change(env, provider, flag, 'b');
    assert.strictEqual(flag.querySelector('button')?.textContent, 'Join now');
    assert.strictEqual(flag.querySelector('button'), button, 'the button stayed, its text changed');
    assert.strictEqual(inputOf(flag), input, 'the input stayed');
    assert.strictEqual(document.activeElement, input);
    assert.strictEqual(input.value, 'ada@example.com');
    assert.strictEqual(flag.querySelectorAll('input').length, 1);
  });

  it('moves focus to the new node of the same id when the focused one went', async () => {
    const { provider, flag } = await connect(env, FORM);
    const input = inputOf(flag);
    input.focus();

    await change(env, provider, flag, 'c');
    const moved = inputOf(flag);
    assert.notStrictEqual(moved, input, 'in another parent: a new input');
    assert.strictEqual(input.isConnected, false);
    assert.strictEqual(moved.parentElement?.className, 'boxed');
    assert.strictEqual(moved.placeholder, 'you@example.com');
    assert.strictEqual(document.activeElement, moved);
    assert.strictEqual(flag.querySelector('button'), null);
  });

  it('changes a value shown as text in its text node', async () => {
    const { provider, flag } = await connect(env, '<feature-flag key="form" default="none"></feature-flag>');
    const text = flag.lastChild;
    assert.strictEqual(flag.textContent, 'a');
    await change(env, provider, flag, 'b');
    assert.strictEqual(flag.textContent, 'b');
    assert.strictEqual(flag.lastChild, text);
  });

  it("reports the new variation's exposure once it has been seen, and the old one's only once", async () => {
    const { provider, flag, visitorId } = await connect(env, FORM);
    const exposed: string[] = [];
    flag.addEventListener('feature-exposed', (e: CustomEvent<ExposureDetail>) =>
      exposed.push(e.detail.variationId),
    );
    await clock.whenArmed();
    assert.deepEqual(clock.armed, [50]);
    clock.tick(50);
    await until(() => exposed.length === 1, { what: 'the first exposure' });

    // The same variation fetched again: nothing new to watch.
    await provider.client.fetchFlags();
    await flag.updateComplete;
    assert.deepEqual(clock.armed, []);

    const second = oneEvent(flag, 'feature-exposed');
    await change(env, provider, flag, 'b');
    await intersectionsDelivered(flag);
    await clock.whenArmed();
    assert.deepEqual(exposed, ['v-a'], 'not before it has been seen for the delay');
    clock.tick(50);
    assert.strictEqual(((await second) as CustomEvent<ExposureDetail>).detail.variationId, 'v-b');

    const { activations } = mine(await barrier(provider, env.envId), visitorId);
    assert.deepEqual(
      activations.map((a) => [a.variationGroupId, a.variationId]),
      [
        ['vg-a', 'v-a'],
        ['vg-b', 'v-b'],
      ],
    );
    assert.deepEqual(exposed, ['v-a', 'v-b']);
  });
});

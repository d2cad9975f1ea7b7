// Exposure of <feature-flag> against the real server, in both modes: reported only once at least half of the
// flag has been in view for `exposure-delay` in a visible tab, never for display:none, once per page view
// whatever re-renders and rereads follow. "Nothing was sent" is read after a barrier hit reached the store.
import { assert, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import type { ExposureDetail, FeatureFlag, FeatureProvider } from '../../src/elements/index.js';
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
  sleep,
  type Env,
} from './support.js';

const DELAY = 200;

const sizes = () => campaign('sizes', [{ id: 'v-large', name: 'Large', flags: { size: 'L' } }]);

const GREEN: Omit<ExposureDetail, 'key'> = {
  campaignId: 'checkout',
  variationGroupId: 'checkout-vg',
  variationId: 'v-green',
  variationName: 'Green',
};

/** Connects a provider for a new visitor holding `content`; resolves once its flags are fetched. */
const connect = async (env: Env, mode: string | null, content: string) => {
  const visitorId = newVisitorId('exposure');
  const provider = await makeProvider({ env, mode, visitorId, content });
  const ready = readyOf(provider);
  await fixture(html`${provider}`);
  assert.strictEqual((await ready).source, 'fetch');
  return { provider, visitorId };
};

const flagOf = (provider: FeatureProvider, selector: string): FeatureFlag => {
  const found = provider.querySelector<FeatureFlag>(selector);
  if (found === null) throw new Error(`no ${selector}`);
  return found;
};

/** Counts the `feature-exposed` events that reach `target`. */
const countExposures = (target: EventTarget): { count: number } => {
  const seen = { count: 0 };
  target.addEventListener('feature-exposed', () => seen.count++);
  return seen;
};

/** Makes the tab look hidden (or visible again, with null) to the page, as a tab switch does. */
const setVisibility = (state: DocumentVisibilityState | null): void => {
  if (state !== null)
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  else if (Object.hasOwn(document, 'visibilityState')) Reflect.deleteProperty(document, 'visibilityState');
  else return;
  document.dispatchEvent(new Event('visibilitychange'));
};

for (const { name, mode } of MODES) {
  describe(`<feature-flag> exposure (${name})`, () => {
    let env: Env;
    beforeEach(async () => {
      env = await newEnv([checkout(), sizes()]);
    });
    afterEach(() => {
      setVisibility(null);
    });

    it('is reported only after the flag was scrolled into view for the delay, once', async () => {
      const { provider, visitorId } = await connect(
        env,
        mode,
        `<div style="height: 3000px"></div>
         <feature-flag key="btnColor" default="red" exposure-delay="${DELAY}"></feature-flag>`,
      );
      const flag = flagOf(provider, 'feature-flag');
      const exposures = countExposures(provider);
      await sleep(2 * DELAY);
      assert.strictEqual(exposures.count, 0, 'off-screen');

      const exposed = oneEvent(flag, 'feature-exposed');
      const scrolledAt = Date.now();
      flag.scrollIntoView();
      await sleep(DELAY / 2);
      assert.strictEqual(exposures.count, 0, 'in view for less than the delay');
      assert.deepEqual((await exposed).detail, { key: 'btnColor', ...GREEN });

      const { activations } = mine(await barrier(provider, env.envId), visitorId);
      assert.deepEqual(
        activations.map((a) => [a.visitorId, a.campaignId, a.variationGroupId, a.variationId]),
        [[visitorId, 'checkout', 'checkout-vg', 'v-green']],
      );
      // Created (server clock: received − qt) after the flag had been in view for the delay.
      assert.isAtLeast(activations[0]?.createdMs ?? 0, scrolledAt + DELAY - 20);
      assert.strictEqual(exposures.count, 1);
    });

    it('is never reported for a flag that is display:none', async () => {
      const { provider, visitorId } = await connect(
        env,
        mode,
        `<feature-flag id="hidden" style="display: none" key="btnColor" default="red" exposure-delay="50"></feature-flag>
         <feature-flag id="shown" key="size" default="S" exposure-delay="50"></feature-flag>`,
      );
      const hidden = countExposures(flagOf(provider, '#hidden'));
      await oneEvent(flagOf(provider, '#shown'), 'feature-exposed');
      await sleep(200);
      assert.strictEqual(hidden.count, 0);
      const { activations } = mine(await barrier(provider, env.envId), visitorId);
      assert.deepEqual(
        activations.map((a) => a.variationId),
        ['v-large'],
      );
    });

    it('waits while the tab is hidden and counts the delay from when it shows again', async () => {
      setVisibility('hidden');
      const { provider, visitorId } = await connect(
        env,
        mode,
        `<feature-flag key="btnColor" default="red" exposure-delay="${DELAY}"></feature-flag>`,
      );
      const flag = flagOf(provider, 'feature-flag');
      const exposures = countExposures(flag);
      await sleep(2 * DELAY);
      assert.strictEqual(exposures.count, 0, 'hidden tab');
      let { activations } = mine(await barrier(provider, env.envId, 'while-hidden'), visitorId);
      assert.deepEqual(activations, []);

      const exposed = oneEvent(flag, 'feature-exposed');
      const shownAt = Date.now();
      setVisibility(null);
      assert.strictEqual(document.visibilityState, 'visible');
      await exposed;
      ({ activations } = mine(await barrier(provider, env.envId, 'after-shown'), visitorId));
      assert.deepEqual(
        activations.map((a) => a.variationId),
        ['v-green'],
      );
      assert.isAtLeast(activations[0]?.createdMs ?? 0, shownAt + DELAY - 20);
    });

    it('is reported once per page view, whatever re-renders, rereads and moves follow', async () => {
      const { provider, visitorId } = await connect(
        env,
        mode,
        `<feature-flag id="first" key="btnColor" default="red" exposure-delay="50"></feature-flag>`,
      );
      const flag = flagOf(provider, '#first');
      await oneEvent(flag, 'feature-exposed');
      // Re-render the flag, refetch the same variation, read it again, move it, add a second flag of the key.
      flag.setAttribute('default', 'blue');
      const states: string[] = [];
      const stop = provider.client.$flagStatus.listen((state) => states.push(state.status));
      provider.setAttribute('context', JSON.stringify({ page: 'two' }));
      await waitUntil(() => states.includes('FETCHING') && states.at(-1) === 'FETCHED', 'the refetch');
      stop();
      await flag.reportExposure();
      assert.strictEqual(flag.value, 'green');
      provider.append(flag);
      const second = document.createElement('feature-flag');
      second.setAttribute('key', 'btnColor');
      second.setAttribute('default', 'red');
      second.setAttribute('exposure', 'render');
      provider.append(second);
      await sleep(300);
      assert.strictEqual(second.value, 'green');
      const { activations } = mine(await barrier(provider, env.envId), visitorId);
      assert.deepEqual(
        activations.map((a) => [a.visitorId, a.variationId]),
        [[visitorId, 'v-green']],
      );
    });
  });
}

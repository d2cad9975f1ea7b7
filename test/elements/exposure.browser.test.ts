// Exposure of <feature-flag> against the real server, in both modes: reported only once at least half of the
// flag has been in view for `exposure-delay` in a visible tab, never for display:none, once per page view
// whatever re-renders and rereads follow. "Nothing was sent" is read after a barrier hit reached the store.
// The delay runs on a fake clock: a test sees which delays are armed and advances time itself, never sleeps.
import { assert, fixture, html, oneEvent } from '@open-wc/testing';
import { until } from '../support/until.js';
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
  type Env,
} from './support.js';
import { FakeExposureClock, intersectionsDelivered } from './fake-exposure-clock.js';

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
  // The flags have rendered what was fetched, and started watching for their exposure.
  await Promise.all([...provider.querySelectorAll<FeatureFlag>('feature-flag')].map((f) => f.updateComplete));
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
    let clock: FakeExposureClock;
    beforeEach(async () => {
      env = await newEnv([checkout(), sizes()]);
      clock = new FakeExposureClock().install();
    });
    afterEach(() => {
      clock.uninstall();
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
      await intersectionsDelivered(flag);
      assert.deepEqual(clock.armed, [], 'off-screen: no delay runs');

      const exposed = oneEvent(flag, 'feature-exposed');
      flag.scrollIntoView();
      await clock.whenArmed();
      assert.deepEqual(clock.armed, [DELAY], 'in view: the delay runs');
      clock.tick(DELAY - 1);
      assert.strictEqual(exposures.count, 0, 'in view for less than the delay');
      clock.tick(1);
      assert.deepEqual((await exposed).detail, { key: 'btnColor', ...GREEN });

      const { activations } = mine(await barrier(provider, env.envId), visitorId);
      assert.deepEqual(
        activations.map((a) => [a.visitorId, a.campaignId, a.variationGroupId, a.variationId]),
        [[visitorId, 'checkout', 'checkout-vg', 'v-green']],
      );
      assert.strictEqual(exposures.count, 1);
    });

    it('is never reported for a flag that is display:none', async () => {
      const { provider, visitorId } = await connect(
        env,
        mode,
        `<feature-flag id="hidden" style="display: none" key="btnColor" default="red" exposure-delay="50"></feature-flag>
         <feature-flag id="shown" key="size" default="S" exposure-delay="50"></feature-flag>`,
      );
      const hiddenFlag = flagOf(provider, '#hidden');
      const hidden = countExposures(hiddenFlag);
      const shown = oneEvent(flagOf(provider, '#shown'), 'feature-exposed');
      await clock.whenArmed();
      await intersectionsDelivered(hiddenFlag);
      assert.deepEqual(clock.armed, [50], "only the shown flag's delay runs");
      clock.tick(50);
      await shown;
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
      await intersectionsDelivered(flag);
      assert.deepEqual(clock.armed, [], 'hidden tab: no delay runs');
      let { activations } = mine(await barrier(provider, env.envId, 'while-hidden'), visitorId);
      assert.deepEqual(activations, []);
      assert.strictEqual(exposures.count, 0);

      const exposed = oneEvent(flag, 'feature-exposed');
      setVisibility(null);
      assert.strictEqual(document.visibilityState, 'visible');
      // The delay starts when the tab shows, not before.
      assert.deepEqual(clock.armed, [DELAY]);
      clock.tick(DELAY);
      await exposed;
      ({ activations } = mine(await barrier(provider, env.envId, 'after-shown'), visitorId));
      assert.deepEqual(
        activations.map((a) => a.variationId),
        ['v-green'],
      );
    });

    it('is reported once per page view, whatever re-renders, rereads and moves follow', async () => {
      const { provider, visitorId } = await connect(
        env,
        mode,
        `<feature-flag id="first" key="btnColor" default="red" exposure-delay="50"></feature-flag>`,
      );
      const flag = flagOf(provider, '#first');
      const firstExposed = oneEvent(flag, 'feature-exposed');
      await clock.whenArmed();
      clock.tick(50);
      await firstExposed;
      // Re-render the flag, refetch the same variation, read it again, move it, add a second flag of the key.
      flag.setAttribute('default', 'blue');
      const states: string[] = [];
      const stop = provider.client.$flagStatus.listen((state) => states.push(state.status));
      provider.setAttribute('context', JSON.stringify({ page: 'two' }));
      await until(() => states.includes('FETCHING') && states.at(-1) === 'FETCHED', { what: 'the refetch' });
      stop();
      await flag.reportExposure();
      assert.strictEqual(flag.value, 'green');
      provider.append(flag);
      const second = document.createElement('feature-flag');
      second.setAttribute('key', 'btnColor');
      second.setAttribute('default', 'red');
      second.setAttribute('exposure', 'render');
      // A second flag of the key reports too (the SDK sends one activation for both).
      const secondExposed = oneEvent(second, 'feature-exposed');
      provider.append(second);
      await secondExposed;
      assert.strictEqual(second.value, 'green');
      assert.deepEqual(clock.armed, [], 'the moved flag watches nothing: its variation was reported');
      const { activations } = mine(await barrier(provider, env.envId), visitorId);
      assert.deepEqual(
        activations.map((a) => [a.visitorId, a.variationId]),
        [[visitorId, 'v-green']],
      );
    });
  });
}

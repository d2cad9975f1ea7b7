// <feature-provider> before the decision arrives, in both modes, with the decision (or bucketing file) held
// back by the proxy: a bootstrap script renders its variation before any answer, the kept copy of a returning
// visitor is in the first frame, the loading slot and aria-busy show while nothing is known, and the default
// replaces them once the provider's timeout passes without an answer.
import { assert, expect, fixture, html } from '@open-wc/testing';
import { until } from '../support/until.js';
import type { FeatureFlag, FeatureProvider } from '../../src/elements/index.js';
import {
  MODES,
  checkout,
  decisionOf,
  drainMicrotasks,
  hold,
  makeProvider,
  newEnv,
  newVisitorId,
  readyOf,
  release,
  wire,
  type Env,
} from './support.js';

const FLAG = '<feature-flag key="btnColor" default="red"></feature-flag>';
const WITH_LOADING = `<feature-flag key="btnColor" default="red"><span slot="loading">Loading…</span></feature-flag>
  <feature-flag id="bare" key="btnColor" default="red"></feature-flag>`;

const flagOf = (provider: FeatureProvider, selector = 'feature-flag'): FeatureFlag => {
  const found = provider.querySelector<FeatureFlag>(selector);
  if (found === null) throw new Error(`no ${selector}`);
  return found;
};

/** The flag's own text, without the loading slot. */
const shown = (flag: Element): string =>
  [...flag.childNodes]
    .filter((n) => !(n instanceof Element && n.slot === 'loading'))
    .map((n) => n.textContent ?? '')
    .join('')
    .trim();

const loadingOf = (flag: Element): HTMLElement => {
  const slot = flag.querySelector<HTMLElement>('[slot="loading"]');
  if (slot === null) throw new Error('no loading slot');
  return slot;
};

for (const { name, mode } of MODES) {
  /** The route that answers this mode's decision: held by the proxy. */
  const decisionRoute = mode === 'bucketing' ? 'bucketing' : 'campaigns';
  const requested = async (env: Env) => (await wire(env.envId)).filter((r) => r.route === decisionRoute);

  describe(`<feature-provider> before the answer (${name})`, () => {
    let env: Env;
    beforeEach(async () => {
      env = await newEnv([checkout()]);
    });
    afterEach(async () => {
      await release(env.envId);
    });

    it('a bootstrap script shows its variation before the decision request is answered', async () => {
      await hold(env.envId);
      const visitorId = newVisitorId('bootstrap');
      const provider = await makeProvider({
        env,
        mode,
        visitorId,
        bootstrap: decisionOf(visitorId, checkout(), 'v-green'),
        content: FLAG,
      });
      const ready = readyOf(provider);
      await fixture(html`${provider}`);
      assert.deepEqual(await ready, { visitorId, source: 'bootstrap' });
      const flag = flagOf(provider);
      await flag.updateComplete;
      assert.strictEqual(shown(flag), 'green');
      assert.strictEqual(flag.hasAttribute('aria-busy'), false);
      // The request went out and is still unanswered: the variation came from the script.
      await until(async () => (await requested(env)).length > 0, {
        what: 'the decision request',
        timeoutMs: 3000,
      });
      assert.strictEqual(
        (await requested(env)).every((r) => r.answeredAt === null),
        true,
      );
      assert.strictEqual(shown(flag), 'green');
      await release(env.envId);
      await until(async () => (await requested(env)).some((r) => r.status === 200), { what: 'the answer' });
      assert.strictEqual(shown(flag), 'green');
    });

    it("a returning visitor's kept copy is rendered in the task that connects the provider", async () => {
      const visitorId = newVisitorId('returning');
      const first = await makeProvider({ env, mode, visitorId, content: FLAG });
      const fetched = readyOf(first);
      const container = await fixture<HTMLDivElement>(html`<div></div>`);
      container.append(first);
      assert.strictEqual((await fetched).source, 'fetch');
      first.remove();

      await hold(env.envId);
      const second = await makeProvider({ env, mode, visitorId, content: FLAG });
      const sources: string[] = [];
      second.addEventListener('feature-ready', (e) => sources.push(e.detail.source));
      container.append(second);
      // Only microtasks in between: no IndexedDB read, no answer (held), no frame.
      await drainMicrotasks();
      const flag = flagOf(second);
      assert.strictEqual(shown(flag), 'green');
      assert.strictEqual(flag.hasAttribute('aria-busy'), false);
      assert.strictEqual(flag.style.visibility, '');
      assert.deepEqual(sources, ['cache']);
    });

    it('shows the loading slot with aria-busy="true" while the answer is held, then the variation', async () => {
      await hold(env.envId);
      const provider = await makeProvider({
        env,
        mode,
        visitorId: newVisitorId('loading'),
        content: WITH_LOADING,
      });
      const ready = readyOf(provider);
      await fixture(html`${provider}`);
      const flag = flagOf(provider);
      const bare = flagOf(provider, '#bare');
      await until(async () => (await requested(env)).length > 0, {
        what: 'the decision request',
        timeoutMs: 3000,
      });
      assert.strictEqual(flag.getAttribute('aria-busy'), 'true');
      assert.strictEqual(loadingOf(flag).hidden, false);
      assert.strictEqual(shown(flag), '');
      // Without loading content the default keeps its space, invisible: never a wrong variation.
      assert.strictEqual(bare.getAttribute('aria-busy'), 'true');
      assert.strictEqual(bare.style.visibility, 'hidden');
      await expect(flag).to.be.accessible();

      await release(env.envId);
      assert.strictEqual((await ready).source, 'fetch');
      await flag.updateComplete;
      assert.strictEqual(flag.hasAttribute('aria-busy'), false);
      assert.strictEqual(loadingOf(flag).hidden, true);
      assert.strictEqual(shown(flag), 'green');
      assert.strictEqual(bare.style.visibility, '');
      assert.strictEqual(shown(bare), 'green');
    });

    it("shows the default after the provider's timeout when the answer never comes", async () => {
      await hold(env.envId);
      const provider = await makeProvider({
        env,
        mode,
        visitorId: newVisitorId('timeout'),
        timeout: 300,
        content: WITH_LOADING,
      });
      const ready = readyOf(provider);
      await fixture(html`${provider}`);
      const flag = flagOf(provider);
      assert.strictEqual(flag.getAttribute('aria-busy'), 'true');
      assert.strictEqual((await ready).source, 'timeout');
      await flag.updateComplete;
      assert.strictEqual(flag.hasAttribute('aria-busy'), false);
      assert.strictEqual(loadingOf(flag).hidden, true);
      assert.strictEqual(shown(flag), 'red');
      assert.strictEqual(shown(flagOf(provider, '#bare')), 'red');
      assert.strictEqual(
        (await requested(env)).every((r) => r.answeredAt === null),
        true,
      );
    });
  });
}

// The elements' events and misconfigurations, against the real server: feature-ready and feature-status in
// both modes, feature-error once per problem (missing env-id, wrong attributes, a bad bootstrap script), and
// a <feature-flag> with no provider, which shows its default and never throws.
import { assert, expect, fixture, html, oneEvent } from '@open-wc/testing';
import type { FeatureErrorDetail, FeatureFlag, FeatureProvider } from '../../src/elements/index.js';
import { MODES, checkout, makeProvider, newEnv, newVisitorId, readyOf, server, type Env } from './support.js';

/** Collects every `feature-error` that reaches the document while `run` runs. */
const errorsDuring = async (run: () => Promise<void>): Promise<FeatureErrorDetail[]> => {
  const errors: FeatureErrorDetail[] = [];
  const listen = (e: CustomEvent<FeatureErrorDetail>) => errors.push(e.detail);
  document.addEventListener('feature-error', listen);
  try {
    await run();
  } finally {
    document.removeEventListener('feature-error', listen);
  }
  return errors;
};

const flagOf = (root: ParentNode): FeatureFlag => {
  const found = root.querySelector<FeatureFlag>('feature-flag');
  if (found === null) throw new Error('no flag');
  return found;
};

const FLAG = '<feature-flag key="btnColor" default="red"></feature-flag>';

for (const { name, mode } of MODES) {
  describe(`<feature-provider> events (${name})`, () => {
    let env: Env;
    before(async () => {
      env = await newEnv([checkout()]);
    });

    it('feature-status follows the SDK start, feature-ready names the visitor and the fetch', async () => {
      const visitorId = newVisitorId('events');
      const provider = await makeProvider({ env, mode, visitorId, content: FLAG });
      const statuses: string[] = [];
      provider.addEventListener('feature-status', (e) => statuses.push(e.detail.status));
      const ready = readyOf(provider);
      await fixture(html`${provider}`);
      assert.deepEqual(await ready, { visitorId, source: 'fetch' });
      // PROTOCOL.md §16.1: SDK_NOT_INITIALIZED → SDK_INITIALIZING → SDK_INITIALIZED, each change once.
      assert.deepEqual(
        statuses.filter((s) => s !== 'SDK_NOT_INITIALIZED'),
        ['SDK_INITIALIZING', 'SDK_INITIALIZED'],
      );
      assert.strictEqual(provider.client.$status.get(), 'SDK_INITIALIZED');
      assert.strictEqual(flagOf(provider).value, 'green');
      await expect(provider).to.be.accessible();
    });

    it('a bootstrap script that is not a decision is reported once and ignored', async () => {
      let provider: FeatureProvider | undefined;
      const errors = await errorsDuring(async () => {
        provider = await makeProvider({ env, mode, visitorId: newVisitorId('bad-bootstrap'), content: FLAG });
        const script = document.createElement('script');
        script.type = 'application/json';
        script.textContent = '{"visitorId":"x","campaigns":"none"}';
        provider.prepend(script);
        const ready = readyOf(provider);
        await fixture(html`${provider}`);
        assert.strictEqual((await ready).source, 'fetch');
      });
      assert.deepEqual(
        errors.map((e) => e.reason),
        ['invalid-bootstrap'],
      );
      assert.strictEqual(provider && flagOf(provider).value, 'green');
    });
  });
}

describe('<feature-provider> misconfigured', () => {
  it('without env-id: one feature-error, defaults shown, and it starts once env-id is set', async () => {
    const env = await newEnv([checkout()]);
    const { proxyUrl } = await server();
    let provider: FeatureProvider | undefined;
    const errors = await errorsDuring(async () => {
      provider = await fixture<FeatureProvider>(
        html`<feature-provider
          api-key=${env.apiKey}
          api-url=${proxyUrl}
          timeout="200"
          consent
          log-level="none"
        >
          <feature-flag key="btnColor" default="red"></feature-flag>
        </feature-provider>`,
      );
      const flag = flagOf(provider);
      await oneEvent(provider, 'feature-error');
      await flag.updateComplete;
      assert.strictEqual(flag.value, 'red');
      assert.strictEqual(flag.textContent.trim(), 'red');
      assert.strictEqual(flag.hasAttribute('aria-busy'), false);
      // Re-rendered by other changes, past the timeout again: still reported once.
      provider.setAttribute('visitor-id', newVisitorId('missing'));
      provider.setAttribute('context', '{"plan":"basic"}');
      await provider.updateComplete;
      // The update armed the provider's 200 ms timeout again. A timer of the same delay armed after it runs after
      // it (HTML timers: an earlier one of equal or shorter delay completes first): an order, not a guess.
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    assert.deepEqual(
      errors.map((e) => e.reason),
      ['missing-attribute'],
    );
    assert.include(errors[0]?.message, 'env-id');

    const ready = provider ? readyOf(provider) : Promise.reject(new Error('no provider'));
    provider?.setAttribute('env-id', env.envId);
    assert.strictEqual((await ready).source, 'fetch');
    assert.strictEqual(provider && flagOf(provider).value, 'green');
  });

  it('an unknown mode or a timeout that is not a positive number is reported, and the defaults are used', async () => {
    const env = await newEnv([checkout()]);
    const errors = await errorsDuring(async () => {
      const provider = await makeProvider({
        env,
        mode: 'fast',
        visitorId: newVisitorId('wrong'),
        content: FLAG,
      });
      provider.setAttribute('timeout', '-5');
      const ready = readyOf(provider);
      await fixture(html`${provider}`);
      assert.strictEqual((await ready).source, 'fetch');
      assert.strictEqual(flagOf(provider).value, 'green');
    });
    assert.deepEqual(
      errors.map((e) => e.reason),
      ['invalid-attribute', 'invalid-attribute'],
    );
    assert.include(errors.map((e) => e.message).join(' '), 'mode="fast"');
    assert.include(errors.map((e) => e.message).join(' '), 'timeout="-5"');
  });

  it('properties a framework set to text (React sets a property when the element has one) read as attributes', async () => {
    const env = await newEnv([checkout()]);
    const errors = await errorsDuring(async () => {
      const provider = await makeProvider({ env, visitorId: newVisitorId('framework'), content: FLAG });
      provider.removeAttribute('consent');
      // What `<feature-provider timeout="800" polling-interval="30" consent="true">` in JSX assigns.
      Object.assign(provider, { timeout: '800', pollingInterval: '30', consent: 'true' });
      const ready = readyOf(provider);
      await fixture(html`${provider}`);
      assert.strictEqual((await ready).source, 'fetch');
      assert.strictEqual(flagOf(provider).value, 'green');
      // Text is not a consent the SDK takes: as before, only `true` (or the attribute) consents.
      assert.strictEqual(provider.client.$consent.get(), false);
    });
    assert.deepEqual(errors, [], 'no invalid-attribute for "800" or "30", no start-failed for "true"');
  });

  it('a fractional timeout or polling interval is reported and replaced, and the SDK still starts', async () => {
    const env = await newEnv([checkout()]);
    for (const [attribute, mode] of [
      ['timeout', null],
      ['polling-interval', 'bucketing'],
    ] as const) {
      const errors = await errorsDuring(async () => {
        const provider = await makeProvider({
          env,
          mode,
          visitorId: newVisitorId('fraction'),
          content: FLAG,
        });
        provider.setAttribute(attribute, '1500.5');
        const ready = readyOf(provider);
        await fixture(html`${provider}`);
        assert.strictEqual((await ready).source, 'fetch');
        assert.strictEqual(flagOf(provider).value, 'green');
      });
      assert.deepEqual(
        errors.map((e) => e.reason),
        ['invalid-attribute'],
        attribute,
      );
      assert.include(errors[0]?.message, `${attribute}="1500.5"`);
    }
  });
});

describe('<feature-flag> without a provider', () => {
  it('shows its default, reports no-provider once and never throws', async () => {
    let flag: FeatureFlag | undefined;
    const errors = await errorsDuring(async () => {
      flag = await fixture<FeatureFlag>(html`<feature-flag key="btnColor" default="red"></feature-flag>`);
      assert.strictEqual(flag.textContent.trim(), 'red');
      assert.strictEqual(flag.value, 'red');
      assert.strictEqual(flag.hasAttribute('aria-busy'), false);
      await flag.reportExposure();
      // Moved and re-rendered: still reported once.
      const parent = flag.parentElement;
      flag.remove();
      parent?.append(flag);
      flag.setAttribute('default', 'blue');
      await flag.updateComplete;
    });
    assert.strictEqual(flag?.textContent.trim(), 'blue');
    assert.deepEqual(
      errors.map((e) => e.reason),
      ['no-provider'],
    );
    await expect(flag).to.be.accessible();
  });
});

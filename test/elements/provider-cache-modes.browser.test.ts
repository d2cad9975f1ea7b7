// <feature-provider live> and <feature-provider cache-mode> (PROTOCOL.md §17), decision-API mode, against the
// real server with its answers held by the proxy: which configuration the provider starts its SDK with, and
// what a returning visitor sees first in each cache mode. `network-first` never shows the kept copy while the
// network may still answer (a campaign paused since must not flash), and shows it when the answer times out;
// `disabled` neither reads nor writes it.
import { assert, fixture, html } from '@open-wc/testing';
import { ConfigBuilder } from '../../src/core/index.js';
import type { FeatureFlag, FeatureProvider } from '../../src/elements/index.js';
import { until } from '../support/until.js';
import {
  checkout,
  drainMicrotasks,
  hold,
  makeProvider,
  newEnv,
  newVisitorId,
  readyOf,
  release,
  setCampaigns,
  wire,
  type Env,
  type ProviderOptions,
} from './support.js';

const FLAG = '<feature-flag key="btnColor" default="red"></feature-flag>';

const flagOf = (provider: FeatureProvider): FeatureFlag => {
  const found = provider.querySelector<FeatureFlag>('feature-flag');
  if (found === null) throw new Error('no feature-flag');
  return found;
};

/** What the flag shows: its value, or "loading" while it waits (aria-busy). */
const shown = (flag: FeatureFlag): unknown =>
  flag.getAttribute('aria-busy') === 'true' ? 'loading' : flag.textContent.trim();

const keptKey = (env: Env, visitorId: string): string => `feature-ts:flags:${env.envId}:${visitorId}`;

type Recorded = 'withLiveUpdates' | 'withCacheMode';

/**
 * Records the argument of every call of `ConfigBuilder.prototype[name]` (the provider's SDK configuration)
 * until `restore`.
 */
const recordCalls = (name: Recorded): { calls: unknown[]; restore: () => void } => {
  const original = Object.getOwnPropertyDescriptor(ConfigBuilder.prototype, name);
  const builder = original?.value as (this: ConfigBuilder, argument: never) => ConfigBuilder;
  const calls: unknown[] = [];
  Object.defineProperty(ConfigBuilder.prototype, name, {
    configurable: true,
    writable: true,
    value(this: ConfigBuilder, argument: never): ConfigBuilder {
      calls.push(argument);
      return builder.call(this, argument);
    },
  });
  return {
    calls,
    restore: () => {
      if (original) Object.defineProperty(ConfigBuilder.prototype, name, original);
    },
  };
};

/** Connects a provider and resolves with its `feature-error` messages once its flags are settled. */
const started = async (
  options: ProviderOptions,
): Promise<{ provider: FeatureProvider; errors: string[] }> => {
  const provider = await makeProvider(options);
  const errors: string[] = [];
  provider.addEventListener('feature-error', (e) => errors.push(`${e.detail.reason}: ${e.detail.message}`));
  const ready = readyOf(provider);
  await fixture(html`${provider}`);
  await ready;
  return { provider, errors };
};

/** A first visit: the visitor sees Green and the provider keeps it (page copy and SDK visitor cache). */
const firstVisit = async (env: Env, visitorId: string): Promise<void> => {
  const { provider } = await started({ env, visitorId, content: FLAG });
  assert.strictEqual(shown(flagOf(provider)), 'green');
  await until(() => localStorage.getItem(keptKey(env, visitorId)) !== null, { what: 'the kept copy' });
  provider.remove();
};

/**
 * A returning visit with the decision held: connects the provider in `cacheMode`, records every value the
 * flag shows from its first frame on, and resolves once the decision request is waiting at the proxy.
 */
const returningVisit = async (env: Env, visitorId: string, cacheMode: string, timeout?: number) => {
  await hold(env.envId);
  const provider = await makeProvider({
    env,
    visitorId,
    cacheMode,
    content: FLAG,
    ...(timeout === undefined ? {} : { timeout }),
  });
  const sources: string[] = [];
  provider.addEventListener('feature-ready', (e) => sources.push(e.detail.source));
  const container = await fixture<HTMLDivElement>(html`<div></div>`);
  container.append(provider);
  // Only microtasks in between: what the first frame shows.
  await drainMicrotasks();
  const flag = flagOf(provider);
  await flag.updateComplete;
  const seen = [shown(flag)];
  flag.addEventListener('feature-change', () => seen.push(shown(flag)));
  await until(
    async () => (await wire(env.envId)).some((r) => r.route === 'campaigns' && r.answeredAt === null),
    {
      what: 'the held decision request',
      timeoutMs: 3000,
    },
  );
  return { provider, flag, seen, sources };
};

describe('<feature-provider live> and <feature-provider cache-mode>', () => {
  let env: Env;
  let live: ReturnType<typeof recordCalls>;
  let cacheModes: ReturnType<typeof recordCalls>;
  beforeEach(async () => {
    env = await newEnv([checkout()]);
    live = recordCalls('withLiveUpdates');
    cacheModes = recordCalls('withCacheMode');
  });
  afterEach(async () => {
    live.restore();
    cacheModes.restore();
    await release(env.envId);
  });

  it('is live by default, not with live="off", and reports a live value it does not know', async () => {
    await started({ env, visitorId: newVisitorId('live'), content: FLAG });
    await started({ env, visitorId: newVisitorId('live-off'), live: 'off', content: FLAG });
    await started({ env, visitorId: newVisitorId('live-on'), live: 'on', content: FLAG });
    const { errors } = await started({
      env,
      visitorId: newVisitorId('live-bad'),
      live: 'yes',
      content: FLAG,
    });
    assert.deepEqual(live.calls, [true, false, true, true]);
    assert.deepEqual(errors, ['invalid-attribute: live="yes" is not one of on, off: on is used.']);
  });

  it('passes cache-mode to the SDK; an unknown one is reported and local-cache-first is used', async () => {
    for (const cacheMode of [undefined, 'local-cache-first', 'network-first', 'disabled'])
      await started({
        env,
        visitorId: newVisitorId('cache-mode'),
        content: FLAG,
        ...(cacheMode === undefined ? {} : { cacheMode }),
      });
    const { errors } = await started({
      env,
      visitorId: newVisitorId('bad'),
      cacheMode: 'offline',
      content: FLAG,
    });
    assert.deepEqual(cacheModes.calls, [
      'local-cache-first',
      'local-cache-first',
      'network-first',
      'disabled',
      'local-cache-first',
    ]);
    assert.deepEqual(errors, [
      'invalid-attribute: cache-mode="offline" is not one of local-cache-first, network-first, disabled: ' +
        'local-cache-first is used.',
    ]);
  });

  it('local-cache-first: the kept copy is in the first frame, and a pause since shows after the answer', async () => {
    const visitorId = newVisitorId('local-first');
    await firstVisit(env, visitorId);
    await setCampaigns(env.envId, []);
    const { flag, seen, sources } = await returningVisit(env, visitorId, 'local-cache-first');
    assert.deepEqual(seen, ['green']);
    await release(env.envId);
    await until(() => shown(flag) === 'red', { what: 'the default after the answer' });
    assert.deepEqual(seen, ['green', 'red']);
    assert.deepEqual(sources, ['cache']);
  });

  it('network-first: after a pause the kept variation never shows; the answer is the first thing shown', async () => {
    const visitorId = newVisitorId('network-first');
    await firstVisit(env, visitorId);
    await setCampaigns(env.envId, []);
    const { flag, seen, sources } = await returningVisit(env, visitorId, 'network-first');
    // Waiting for the network: loading, although the page copy and the SDK's visitor cache both hold Green.
    assert.deepEqual(seen, ['loading']);
    assert.deepEqual(sources, []);
    await release(env.envId);
    await until(() => sources.length > 0, { what: 'feature-ready' });
    await flag.updateComplete;
    assert.deepEqual(seen, ['loading', 'red']);
    assert.deepEqual(sources, ['fetch']);
  });

  it('network-first: the kept copy shows when the answer does not come within the timeout', async () => {
    const visitorId = newVisitorId('network-first-timeout');
    await firstVisit(env, visitorId);
    const { flag, seen, sources } = await returningVisit(env, visitorId, 'network-first', 400);
    assert.deepEqual(seen, ['loading']);
    await until(() => sources.length > 0, { what: 'feature-ready after the timeout' });
    await flag.updateComplete;
    assert.deepEqual(seen, ['loading', 'green']);
    assert.deepEqual(sources, ['cache']);
  });

  it('disabled: the page copy is neither shown nor written', async () => {
    const visitorId = newVisitorId('disabled');
    await firstVisit(env, visitorId);
    const kept = localStorage.getItem(keptKey(env, visitorId));
    // Another visitor whose only kept copy is the page's (no SDK visitor cache record): what the elements do.
    const other = newVisitorId('disabled-other');
    localStorage.setItem(keptKey(env, other), kept ?? '');
    const { provider: returning, flag, seen, sources } = await returningVisit(env, other, 'disabled', 400);
    assert.deepEqual(seen, ['loading']);
    await until(() => sources.length > 0, { what: 'feature-ready after the timeout' });
    await flag.updateComplete;
    assert.deepEqual(seen, ['loading', 'red'], 'the timeout shows the default, not the page copy');
    assert.deepEqual(sources, ['timeout']);

    // Its live stream and held request each hold one of the browser's few connections to the server: gone
    // before the next visitor's decision, which could otherwise wait for a free one under the suite's load.
    returning.remove();
    await release(env.envId);
    const fresh = newVisitorId('disabled-fresh');
    // A generous timeout: this part is about what is kept, not about timing, and the whole suite's load can
    // hold a decision past the default 2 s (the flag then shows its default: the request is given up).
    const { provider } = await started({
      env,
      visitorId: fresh,
      cacheMode: 'disabled',
      content: FLAG,
      timeout: 15_000,
    });
    // The provider is ready before its flag has rendered what it published.
    await until(() => shown(flagOf(provider)) === 'green', { what: 'the fetched variation shown' });
    assert.strictEqual(localStorage.getItem(keptKey(env, fresh)), null);
  });
});

// `feature-flags-change` from <feature-provider>, decision-API mode, against the real server: after the
// visitor's first fetch, a fetch that changes its flags (here the campaigns change and the flags are fetched
// again, as a live update does) sends the keys whose value or variation changed, added and removed ones
// included. The first flags, and a returning visitor's kept copy replaced by its first answer, send none.
import { assert, fixture, html } from '@open-wc/testing';
import type { FeatureFlagsChangeDetail, FeatureProvider } from '../../src/elements/index.js';
import { until } from '../support/until.js';
import {
  EVERYONE,
  campaign,
  makeProvider,
  newEnv,
  newVisitorId,
  readyOf,
  setCampaigns,
  type Env,
} from './support.js';

const alpha = (flags: Record<string, string>) => campaign('alpha', [{ id: 'v-alpha', name: 'Alpha', flags }]);
const beta = (variationId: string, groupId: string) =>
  campaign('beta', [{ id: variationId, name: variationId, flags: { stay: 'same' } }], EVERYONE, groupId);

const BEFORE = [alpha({ btnColor: 'green', size: 'L', gone: 'soon' }), beta('v-beta', 'beta-vg')];
// btnColor: another value; size: unchanged; gone: removed; added: new; stay: the same value of another variation.
const AFTER = [alpha({ btnColor: 'blue', size: 'L', added: 'yes' }), beta('v-beta-2', 'beta-vg-2')];

/** Connects a provider for `visitorId`; resolves once its flags are settled, with the changes it sends. */
const connect = async (env: Env, visitorId: string, container?: HTMLElement) => {
  const provider = await makeProvider({ env, visitorId });
  const changes: string[][] = [];
  provider.addEventListener('feature-flags-change', (e: CustomEvent<FeatureFlagsChangeDetail>) => {
    assert.strictEqual(e.target, provider);
    changes.push([...e.detail.keys].sort());
  });
  const ready = readyOf(provider);
  if (container) container.append(provider);
  else await fixture(html`${provider}`);
  return { provider, changes, ready: await ready };
};

/** Resolves once `provider` has fetched once (its first fetch has settled). */
const fetchedOnce = (provider: FeatureProvider) =>
  until(() => provider.client.$flagStatus.get().status === 'FETCHED', { what: 'the first fetch' });

describe('<feature-provider> feature-flags-change', () => {
  let env: Env;
  beforeEach(async () => {
    env = await newEnv(BEFORE);
  });

  it('names the keys a later fetch changed, and nothing for the first flags or a fetch that changed none', async () => {
    const { provider, changes, ready } = await connect(env, newVisitorId('change'));
    assert.strictEqual(ready.source, 'fetch');
    await fetchedOnce(provider);
    await provider.client.fetchFlags();
    assert.deepEqual(changes, [], 'the first flags, then a fetch with the same answer');

    await setCampaigns(env.envId, AFTER);
    await provider.client.fetchFlags();
    assert.deepEqual(changes, [['added', 'btnColor', 'gone', 'stay']]);
    assert.strictEqual(provider.client.$flags.get().get('btnColor')?.value, 'blue');

    await provider.client.fetchFlags();
    assert.deepEqual(changes, [['added', 'btnColor', 'gone', 'stay']], 'nothing changed since');
  });

  it("is not sent when a returning visitor's kept copy is replaced by its first answer", async () => {
    const visitorId = newVisitorId('returning');
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    const first = await connect(env, visitorId, container);
    await until(() => localStorage.getItem(`feature-ts:flags:${env.envId}:${visitorId}`) !== null, {
      what: 'the kept copy',
    });
    first.provider.remove();

    await setCampaigns(env.envId, AFTER);
    const second = await connect(env, visitorId, container);
    assert.strictEqual(second.ready.source, 'cache');
    await until(() => second.provider.client.$flags.get().get('btnColor')?.value === 'blue', {
      what: 'the answer replacing the kept copy',
    });
    await fetchedOnce(second.provider);
    assert.deepEqual(second.changes, []);
  });
});

// <environments-view>: one card per environment of the chosen account; a new environment is one POST with its
// switches, its API key is shown once on its card, and the header's choice moves to it (reload).
import { assert, expect } from '@open-wc/testing';
import { html } from 'lit';
import '../../../server/console/src/settings/environments-view.js';
import type { EnvironmentsView } from '../../../server/console/src/settings/environments-view.js';
import { ENV, StubApi, inShadow, mount, must, until } from '../console-fixture.js';

describe('<environments-view>', () => {
  it('creates an environment with its switches and shows its key once on its card', async () => {
    const created = {
      ...ENV,
      id: 'env-2',
      name: 'Staging',
      settings: { enabledXPC: true, enabled1V1T: false },
    };
    const api = new StubApi({ 'POST /accounts/acc-1/environments': { ...created, api_key: 'key-staging' } });
    const { el, reloads } = await mount<EnvironmentsView>(html`<environments-view></environments-view>`, api);
    assert.lengthOf(el.shadowRoot?.querySelectorAll('environment-card') ?? [], 1);
    await expect(el).to.be.accessible();
    inShadow<HTMLInputElement>(el, '#env-name').value = 'Staging';
    inShadow<HTMLInputElement>(el, '#env-xpc').click();
    must(
      [...(el.shadowRoot?.querySelectorAll('button') ?? [])].find(
        (b) => b.textContent.trim() === 'Create environment',
      ),
    ).click();
    await until(() => reloads.length === 1, { what: 'the reload' });
    assert.deepEqual(api.calls, [
      {
        method: 'POST',
        path: '/accounts/acc-1/environments',
        body: { name: 'Staging', enabledXPC: true, enabled1V1T: false },
      },
    ]);
    assert.deepEqual(reloads, [{ envId: 'env-2' }]);
    await el.updateComplete;
    const cards = [...(el.shadowRoot?.querySelectorAll('environment-card') ?? [])];
    assert.deepEqual(
      cards.map((c) => [c.environment.id, c.apiKey]),
      [
        ['env-1', ''],
        ['env-2', 'key-staging'],
      ],
    );
  });
});

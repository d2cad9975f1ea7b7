// <environments-view>: one card per environment of the chosen account; a new environment is one POST with its
// switches, its API key is shown once on its card, and the header's choice moves to it (reload). The remote
// control view beside it lists the account's accesses and adds one the form made.
import { assert, expect } from '@open-wc/testing';
import { html } from 'lit';
import '../../../server/console/src/settings/environments-view.js';
import '../../../server/console/src/settings/remote-control-view.js';
import type { EnvironmentsView } from '../../../server/console/src/settings/environments-view.js';
import type { RemoteControlView } from '../../../server/console/src/settings/remote-control-view.js';
import type { Access } from '../../../server/console/src/types.js';
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
    await until(() => reloads.length === 1, 3000, 'the reload');
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

describe('<remote-control-view>', () => {
  it("lists the account's accesses and adds the one the form made", async () => {
    const first: Access = {
      id: 'acs-1',
      account_id: 'acc-1',
      name: 'nightly',
      environments: [],
      actions: ['report.read'],
      client_id: 'client-1',
      created_at: '2026-11-01T10:00:00.000Z',
      revoked_at: null,
    };
    const api = new StubApi({ 'GET /accounts/acc-1/accesses': { items: [first] } });
    const { el } = await mount<RemoteControlView>(html`<remote-control-view></remote-control-view>`, api);
    await until(() => el.shadowRoot?.querySelector('access-list') !== null, 3000, 'the list');
    const list = inShadow<HTMLElement & { accesses: readonly Access[] }>(el, 'access-list');
    assert.deepEqual(
      list.accesses.map((a) => a.id),
      ['acs-1'],
    );
    const form = inShadow(el, 'access-create-form');
    form.dispatchEvent(
      new CustomEvent('access-created', {
        detail: { ...first, id: 'acs-2', name: 'ci' },
        bubbles: true,
        composed: true,
      }),
    );
    await el.updateComplete;
    assert.deepEqual(
      list.accesses.map((a) => a.id),
      ['acs-2', 'acs-1'],
    );
    await expect(el).to.be.accessible();
  });
});

// <remote-control-view>: the account's accesses, read once, listed newest first; an access the form made (its
// `access-created` event) goes on top without a second read.
import { assert, expect } from '@open-wc/testing';
import { html } from 'lit';
import '../../../server/console/src/settings/remote-control-view.js';
import type { RemoteControlView } from '../../../server/console/src/settings/remote-control-view.js';
import type { Access } from '../../../server/console/src/types.js';
import { StubApi, inShadow, mount, until } from '../console-fixture.js';

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
    await until(() => el.shadowRoot?.querySelector('access-list') !== null, { what: 'the list' });
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
    assert.deepEqual(api.calls, [{ method: 'GET', path: '/accounts/acc-1/accesses' }]);
    await expect(el).to.be.accessible();
  });
});

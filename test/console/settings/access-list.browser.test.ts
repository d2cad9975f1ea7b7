// <access-list>: each access with its environments by name and its actions; Preview reads the access afresh into
// a disclosed region, Revoke asks first, then posts the revocation and emits the access as the server has it.
import { assert, expect, oneEvent } from '@open-wc/testing';
import { html } from 'lit';
import '../../../server/console/src/settings/access-list.js';
import type { AccessList } from '../../../server/console/src/settings/access-list.js';
import type { Access } from '../../../server/console/src/types.js';
import { ENV, StubApi, answerConfirm, inShadow, mount, until } from '../console-fixture.js';

const ACCESS: Access = {
  id: 'acs-1',
  account_id: 'acc-1',
  name: 'checkout-bot',
  environments: [ENV.id],
  actions: ['campaign.read'],
  client_id: 'client-123',
  created_at: '2026-11-04T10:00:00.000Z',
  revoked_at: null,
};
const REVOKED: Access = { ...ACCESS, revoked_at: '2026-11-05T10:00:00.000Z' };

const button = (el: AccessList, text: RegExp): HTMLButtonElement => {
  const found = [...(el.shadowRoot?.querySelectorAll('button') ?? [])].find((b) => text.test(b.textContent));
  if (found === undefined) throw new Error(`no button ${String(text)}`);
  return found;
};

describe('<access-list>', () => {
  it('previews an access from the server in a disclosed region', async () => {
    const api = new StubApi({ 'GET /accesses/acs-1': ACCESS });
    const { el } = await mount<AccessList>(html`<access-list .accesses=${[ACCESS]}></access-list>`, api);
    await expect(el).to.be.accessible();
    assert.match(inShadow(el, 'tbody tr').textContent, /Production/);
    const preview = button(el, /Preview/);
    preview.click();
    await until(() => el.shadowRoot?.querySelector('dl.details') !== null, { what: 'the details' });
    assert.deepEqual(api.calls, [{ method: 'GET', path: '/accesses/acs-1' }]);
    assert.strictEqual(preview.getAttribute('aria-expanded'), 'true');
    assert.isFalse(inShadow(el, '#preview-acs-1').hidden);
    assert.match(inShadow(el, 'dl.details').textContent, /client-123[\s\S]*Not shown: it was shown once/);
    await expect(el).to.be.accessible();
  });

  it('revokes after asking, and emits the revoked access', async () => {
    const api = new StubApi({ 'POST /accesses/acs-1/revoke': REVOKED });
    const { el } = await mount<AccessList>(html`<access-list .accesses=${[ACCESS]}></access-list>`, api);
    button(el, /Revoke/).click();
    await answerConfirm('cancel');
    await el.updateComplete;
    assert.lengthOf(api.calls, 0);

    const changed = oneEvent(el, 'access-changed');
    button(el, /Revoke/).click();
    await answerConfirm('confirm');
    const event = await changed;
    assert.deepEqual(api.calls, [{ method: 'POST', path: '/accesses/acs-1/revoke' }]);
    assert.deepEqual(event.detail, REVOKED);
    await el.updateComplete;
    assert.strictEqual(inShadow(el, '[role=status]').textContent, 'checkout-bot is revoked.');
    await expect(el).to.be.accessible();
  });
});

// <account-view> and its <console-sessions-card>: a new account is one POST, then the header's choice moves to
// it (reload) and the user is told; an empty name is said without a request. Ending every session asks first.
import { assert, expect } from '@open-wc/testing';
import { html } from 'lit';
import '../../../server/console/src/settings/account-view.js';
import type { AccountView } from '../../../server/console/src/settings/account-view.js';
import { StubApi, answerConfirm, inShadow, mount, must, until } from '../console-fixture.js';

describe('<account-view>', () => {
  it('creates an account, chooses it and says so; an empty name sends nothing', async () => {
    const api = new StubApi({
      'POST /accounts': { id: 'acc-2', name: 'Outlet', created_at: '2026-11-05T10:00:00.000Z' },
    });
    const { el, reloads, notices } = await mount<AccountView>(html`<account-view></account-view>`, api);
    await expect(el).to.be.accessible();
    const input = inShadow<HTMLInputElement>(el, '#account-name');
    const submit = () => must(input.form?.querySelector<HTMLButtonElement>('button[type=submit]')).click();
    submit();
    await el.updateComplete;
    assert.lengthOf(api.calls, 0);
    assert.strictEqual(input.getAttribute('aria-invalid'), 'true');
    input.value = ' Outlet ';
    submit();
    await until(() => notices.length === 1, { what: 'the notice' });
    assert.deepEqual(api.calls, [{ method: 'POST', path: '/accounts', body: { name: 'Outlet' } }]);
    assert.deepEqual(reloads, [{ accountId: 'acc-2' }]);
    assert.strictEqual(must(notices[0]).message, 'Account Outlet created and chosen.');
  });

  it('ends every console session only after asking', async () => {
    const api = new StubApi({ 'DELETE /console/sessions': { ended: 3 } });
    const { el } = await mount<AccountView>(html`<account-view></account-view>`, api);
    const card = inShadow(el, 'console-sessions-card');
    await (card as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    const end = must(card.shadowRoot?.querySelector<HTMLButtonElement>('button.danger'));
    end.click();
    await answerConfirm('cancel');
    end.click();
    await answerConfirm('confirm');
    await until(() => api.calls.length === 1, { what: 'the request' });
    assert.deepEqual(api.calls, [{ method: 'DELETE', path: '/console/sessions' }]);
    await expect(card).to.be.accessible();
  });
});

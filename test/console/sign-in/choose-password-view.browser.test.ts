// <choose-password-view>: the screen of an invitation or reset link says the password rule and refuses a short
// password before sending anything; a good one goes once with the link's token (and, invited, the name), and
// `signed-in` tells the shell; the server's refusal (a used link) is said next to the input. Fits 390 px.
import { assert, expect, oneEvent } from '@open-wc/testing';
import { html } from 'lit';
import { ConsoleApiError } from '../../../server/console/src/api.js';
import '../../../server/console/src/sign-in/choose-password-view.js';
import type { ChoosePasswordView } from '../../../server/console/src/sign-in/choose-password-view.js';
import { StubApi, inShadow, mount, until } from '../console-fixture.js';

const SESSION = { csrf_token: 'csrf-1', expires_at: '2026-12-01T00:00:00.000Z', user: null };

describe('<choose-password-view>', () => {
  it('accepts an invitation: the rule first, then the token, password and name, once', async () => {
    const api = new StubApi({ 'POST /session/invitation': SESSION });
    const { el } = await mount<ChoosePasswordView>(
      html`<choose-password-view kind="invitation" token="fci_abc"></choose-password-view>`,
      api,
    );
    await expect(el).to.be.accessible();
    inShadow<HTMLInputElement>(el, '#password').value = 'too short';
    inShadow<HTMLButtonElement>(el, 'button[type=submit]').click();
    await el.updateComplete;
    assert.lengthOf(api.calls, 0);
    assert.match(inShadow(el, '#password-error').textContent, /12 to 1024 characters/);
    await expect(el).to.be.accessible();
    inShadow<HTMLInputElement>(el, '#name').value = ' Ada ';
    inShadow<HTMLInputElement>(el, '#password').value = 'a long enough password';
    const signedIn = oneEvent(el, 'signed-in');
    inShadow<HTMLButtonElement>(el, 'button[type=submit]').click();
    assert.deepEqual((await signedIn).detail, SESSION);
    assert.deepEqual(api.calls, [
      {
        method: 'POST',
        path: '/session/invitation',
        body: { token: 'fci_abc', password: 'a long enough password', name: 'Ada' },
      },
    ]);
  });

  it('resets a password, says a used link, and fits a 390 px screen', async () => {
    const api = new StubApi({
      'POST /session/password-reset': () => {
        throw new ConsoleApiError(410, 'link_expired', 'This password reset link was already used.');
      },
    });
    const { el } = await mount<ChoosePasswordView>(
      html`<choose-password-view
        kind="reset"
        token="fcr_abc"
        style="display:block;width:390px"
      ></choose-password-view>`,
      api,
    );
    assert.isNull(el.shadowRoot?.querySelector('#name') ?? null);
    inShadow<HTMLInputElement>(el, '#password').value = 'a long enough password';
    inShadow<HTMLButtonElement>(el, 'button[type=submit]').click();
    await until(() => inShadow(el, '#password-error').textContent.includes('already used'), {
      what: 'the refusal',
    });
    assert.isAtMost(el.scrollWidth, 390);
    await expect(el).to.be.accessible();
  });
});

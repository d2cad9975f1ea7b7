// <sign-in-view>: an email and password, or the operator key, go once to the session route, the form forgets it, and `signed-in` tells the
// shell; an empty key or a refused one is said next to the input, and no event is sent.
import { assert, expect, oneEvent } from '@open-wc/testing';
import { html } from 'lit';
import { ConsoleApiError } from '../../../server/console/src/api.js';
import '../../../server/console/src/sign-in/sign-in-view.js';
import type { SignInView } from '../../../server/console/src/sign-in/sign-in-view.js';
import { StubApi, inShadow, mount, until } from '../console-fixture.js';

const SESSION = { csrf_token: 'csrf-1', expires_at: '2026-12-01T00:00:00.000Z' };
const KEY_BUTTON = 'form[aria-labelledby=key-title] button[type=submit]';
const PERSON_BUTTON = 'form[aria-labelledby=person-title] button[type=submit]';

describe('<sign-in-view>', () => {
  it('sends the key once, clears it, and emits signed-in with the session', async () => {
    const api = new StubApi({ 'POST /session': SESSION });
    const { el } = await mount<SignInView>(html`<sign-in-view message="Signed out."></sign-in-view>`, api);
    await expect(el).to.be.accessible();
    const input = inShadow<HTMLInputElement>(el, '#key');
    input.value = ' the-operator-key ';
    const signedIn = oneEvent(el, 'signed-in');
    inShadow<HTMLButtonElement>(el, KEY_BUTTON).click();
    const event = await signedIn;
    assert.deepEqual(event.detail, SESSION);
    assert.deepEqual(api.calls, [
      { method: 'POST', path: '/session', body: { operator_key: 'the-operator-key' } },
    ]);
    assert.strictEqual(input.value, '');
  });

  it('asks for a key before sending anything, and shows a refusal next to the input', async () => {
    const api = new StubApi({
      'POST /session': () => {
        throw new ConsoleApiError(401, 'unauthorized', 'The operator key is not valid.');
      },
    });
    const { el } = await mount<SignInView>(html`<sign-in-view></sign-in-view>`, api);
    let sent = 0;
    el.addEventListener('signed-in', () => (sent += 1));
    inShadow<HTMLButtonElement>(el, KEY_BUTTON).click();
    await el.updateComplete;
    assert.lengthOf(api.calls, 0);
    assert.match(inShadow(el, '#key-error').textContent, /Enter the operator key/);

    inShadow<HTMLInputElement>(el, '#key').value = 'wrong';
    inShadow<HTMLButtonElement>(el, KEY_BUTTON).click();
    await until(() => inShadow(el, '#key-error').textContent.includes('not valid'), {
      what: 'the key error',
    });
    assert.strictEqual(inShadow(el, '#key').getAttribute('aria-invalid'), 'true');
    assert.strictEqual(sent, 0);
    await expect(el).to.be.accessible();
  });

  it('signs a person in with their email and password, and says a refusal next to the password', async () => {
    let refuse = true;
    const api = new StubApi({
      'POST /session': () => {
        if (refuse) throw new ConsoleApiError(401, 'invalid_token', 'Wrong email or password.');
        return SESSION;
      },
    });
    const { el } = await mount<SignInView>(html`<sign-in-view></sign-in-view>`, api);
    inShadow<HTMLButtonElement>(el, PERSON_BUTTON).click();
    await el.updateComplete;
    assert.lengthOf(api.calls, 0);
    assert.match(inShadow(el, '#person-error').textContent, /Enter your email and your password/);
    inShadow<HTMLInputElement>(el, '#email').value = ' ada@example.com ';
    inShadow<HTMLInputElement>(el, '#password').value = 'not the password';
    inShadow<HTMLButtonElement>(el, PERSON_BUTTON).click();
    await until(() => inShadow(el, '#person-error').textContent.includes('Wrong email'), {
      what: 'the refusal',
    });
    assert.strictEqual(inShadow(el, '#password').getAttribute('aria-invalid'), 'true');
    await expect(el).to.be.accessible();
    refuse = false;
    inShadow<HTMLInputElement>(el, '#password').value = 'a long enough password';
    const signedIn = oneEvent(el, 'signed-in');
    inShadow<HTMLButtonElement>(el, PERSON_BUTTON).click();
    assert.deepEqual((await signedIn).detail, SESSION);
    assert.deepEqual(api.calls.at(-1), {
      method: 'POST',
      path: '/session',
      body: { email: 'ada@example.com', password: 'a long enough password' },
    });
    assert.strictEqual(inShadow<HTMLInputElement>(el, '#password').value, '');
  });

  it('offers each account with single sign-on as a link to its start, and nothing without one', async () => {
    const none = await mount<SignInView>(html`<sign-in-view></sign-in-view>`, new StubApi({}));
    assert.isNull(none.el.shadowRoot?.querySelector('.sso-offers') ?? null);
    none.el.remove();
    const api = new StubApi({});
    api.offers = [{ account_id: 'acc-1', name: 'Acme', start_path: '/admin/sso/acc-1/start' }];
    const { el } = await mount<SignInView>(html`<sign-in-view></sign-in-view>`, api);
    const link = await until(() => el.shadowRoot?.querySelector<HTMLAnchorElement>('.sso-offers a') ?? null, {
      what: 'the single sign-on link',
    });
    assert.strictEqual(link.textContent.trim(), 'Sign in with Acme');
    assert.strictEqual(link.getAttribute('href'), '/admin/sso/acc-1/start');
    await expect(el).to.be.accessible();
    assert.deepEqual(api.calls, [], 'a link: nothing is called');
  });
});

// <join-invitation-view>: a join link's screen reads the invitation with the token in a POST body, asks "Join
// <account> as <role>?", and sends the answer once (`join-answered` tells the shell); a link of another person
// is refused in plain words with a Sign out; a used link says so. Accessible, and within a 390 px window.
import { assert, expect, oneEvent } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { html } from 'lit';
import { ConsoleApiError } from '../../../server/console/src/api.js';
import '../../../server/console/src/sign-in/join-invitation-view.js';
import type { JoinInvitationView } from '../../../server/console/src/sign-in/join-invitation-view.js';
import { StubApi, inShadow, mount, must, until } from '../console-fixture.js';
import { assertReachable } from '../reachable.js';

const INVITATION = {
  account_id: 'acc-2',
  account_name: 'Beta shop',
  role: 'editor',
  expires_at: '2026-12-06T10:00:00.000Z',
};
const button = (el: Element, text: RegExp): HTMLButtonElement =>
  must(
    [...(el.shadowRoot?.querySelectorAll('button') ?? [])].find((b) => text.test(b.textContent)),
    `a button ${String(text)}`,
  );
const shown = async (api: StubApi): Promise<JoinInvitationView> => {
  const { el } = await mount<JoinInvitationView>(
    html`<join-invitation-view token="fci_abc"></join-invitation-view>`,
    api,
  );
  await until(() => !el.busy, { what: 'the invitation read' });
  await el.updateComplete;
  return el;
};

describe('<join-invitation-view>', () => {
  it('asks to join the account with the role, and sends the answer once', async () => {
    const api = new StubApi({
      'POST /console/join/peek': INVITATION,
      'POST /console/join': { account_id: 'acc-2', answer: 'join' },
    });
    const el = await shown(api);
    assert.match(el.shadowRoot?.textContent.replace(/\s+/g, ' ') ?? '', /Join Beta shop as editor\?/);
    await expect(el).to.be.accessible();
    const answered = oneEvent(el, 'join-answered');
    button(el, /^\s*Join\s*$/).click();
    assert.deepEqual((await answered).detail, {
      accountId: 'acc-2',
      accountName: 'Beta shop',
      answer: 'join',
    });
    assert.deepEqual(api.calls, [
      { method: 'POST', path: '/console/join/peek', body: { token: 'fci_abc' } },
      { method: 'POST', path: '/console/join', body: { token: 'fci_abc', answer: 'join' } },
    ]);
  });

  it('declines', async () => {
    const api = new StubApi({
      'POST /console/join/peek': INVITATION,
      'POST /console/join': { account_id: 'acc-2', answer: 'decline' },
    });
    const el = await shown(api);
    const answered = oneEvent(el, 'join-answered');
    button(el, /Decline/).click();
    assert.strictEqual(((await answered) as HTMLElementEventMap['join-answered']).detail.answer, 'decline');
    assert.deepEqual(api.made('POST', '/console/join')[0]?.body, { token: 'fci_abc', answer: 'decline' });
  });

  it("refuses another person's link in plain words, and offers to sign out", async () => {
    const api = new StubApi({
      'POST /console/join/peek': () => {
        throw new ConsoleApiError(403, 'insufficient_role', 'This invitation is for another person.');
      },
    });
    const el = await shown(api);
    assert.match(
      inShadow(el, '[role=alert]').textContent,
      /This invitation is for another person: sign out, then open the link again/,
    );
    assert.isUndefined(
      [...(el.shadowRoot?.querySelectorAll('button') ?? [])].find((b) => /^\s*Join\s*$/.test(b.textContent)),
    );
    await expect(el).to.be.accessible();
    const signOut = oneEvent(el, 'sign-out-requested');
    button(el, /Sign out/).click();
    await signOut;
    assert.lengthOf(api.made('POST', '/console/join'), 0);
  });

  it('says a used link, and fits a 390 px window', async () => {
    await setViewport({ width: 390, height: 800 });
    try {
      const api = new StubApi({
        'POST /console/join/peek': () => {
          throw new ConsoleApiError(410, 'link_expired', 'This invitation link was already used.');
        },
      });
      const el = await shown(api);
      assert.match(inShadow(el, '[role=alert]').textContent, /already used/);
      const left = oneEvent(el, 'join-left');
      button(el, /Go to the console/).click();
      await left;
      el.remove();

      const asked = await shown(new StubApi({ 'POST /console/join/peek': INVITATION }));
      const root = must(asked.shadowRoot);
      assertReachable(root, [...root.querySelectorAll('button, h1, p')], 'invitation part');
      await expect(asked).to.be.accessible();
    } finally {
      await setViewport({ width: 1280, height: 800 });
    }
  });
});

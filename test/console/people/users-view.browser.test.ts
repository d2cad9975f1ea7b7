// <users-view> and <user-invite-form> over the stub API: the members with their role, since and last sign-in;
// an invitation posts the email and role and always shows the one-time link once (a person who already signs in
// gets a join link, shown alike); a not-yet-answered invitation is listed as pending, with no reset link and a
// Revoke; a role change is sent, and the server's refusal (the last admin) is said under the select, which goes
// back; Remove asks first; a reset link is shown once; a viewer or editor is offered nothing; at 390 px every
// control is within the window.
import { assert, expect } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { html } from 'lit';
import { ConsoleApiError } from '../../../server/console/src/api.js';
import '../../../server/console/src/people/users-view.js';
import type { UsersView } from '../../../server/console/src/people/users-view.js';
import type { Member } from '../../../server/console/src/types.js';
import {
  ACCOUNT,
  StubApi,
  answerConfirm,
  inShadow,
  mount,
  must,
  typeInto,
  until,
} from '../console-fixture.js';
import { assertReachable, assertTableRoles } from '../reachable.js';

const LIST = `/accounts/${ACCOUNT.id}/users`;
const ADA: Member = {
  id: 'usr-ada',
  email: 'ada@example.com',
  name: 'Ada',
  role: 'admin',
  active: true,
  created_at: '2026-11-04T10:00:00.000Z',
  last_sign_in_at: '2026-11-20T09:00:00.000Z',
};
const BOB: Member = {
  ...ADA,
  id: 'usr-bob',
  email: 'bob@example.com',
  name: '',
  role: 'editor',
  active: false,
  last_sign_in_at: null,
};

const settle = async (...elements: Element[]): Promise<void> => {
  for (const element of elements)
    await (element as unknown as { updateComplete: Promise<unknown> }).updateComplete;
};
const buttonIn = (el: Element, text: RegExp): HTMLButtonElement =>
  must(
    [...(el.shadowRoot?.querySelectorAll('button') ?? [])].find((b) => text.test(b.textContent)),
    `a button ${String(text)} in <${el.localName}>`,
  );
const shown = async (api: StubApi, user: Parameters<typeof mount>[2] = {}): Promise<UsersView> => {
  const { el } = await mount<UsersView>(html`<users-view></users-view>`, api, user);
  await until(() => !el.loading && el.shadowRoot?.querySelector('h1') !== null, { what: 'the screen' });
  await settle(el);
  return el;
};
const rowOf = (el: UsersView, email: string): HTMLTableRowElement =>
  must(
    [...(el.shadowRoot?.querySelectorAll<HTMLTableRowElement>('tbody tr') ?? [])].find((r) =>
      r.textContent.includes(email),
    ),
    `the row of ${email}`,
  );

describe('<users-view>', () => {
  it('lists the members with their role, since and last sign-in', async () => {
    const el = await shown(new StubApi({ [`GET ${LIST}`]: { items: [ADA, BOB] } }));
    const ada = rowOf(el, ADA.email).textContent.replace(/\s+/g, ' ');
    assert.match(ada, /ada@example\.com Ada/);
    assert.match(ada, /2026/);
    assert.strictEqual(rowOf(el, ADA.email).querySelector('select')?.value, 'admin');
    const bob = rowOf(el, BOB.email);
    assert.match(bob.textContent, /—[\s\S]*Invitation pending/);
    // A pending invitation gets no reset link (the server refuses one): it is revoked, or invited again.
    assert.notMatch(bob.textContent, /Reset link/);
    assert.match(bob.textContent, /Revoke invitation/);
    assert.match(rowOf(el, ADA.email).textContent, /Reset link/);
    await expect(el).to.be.accessible();
  });

  it('says what to do when the account has no one yet', async () => {
    const el = await shown(new StubApi({ [`GET ${LIST}`]: { items: [] } }));
    assert.match(el.shadowRoot?.textContent ?? '', /No one yet: invite the account's first admin/);
  });

  it("shows the server's message when the list cannot be read, and tries again", async () => {
    const api = new StubApi({
      [`GET ${LIST}`]: () => {
        throw new ConsoleApiError(503, 'unavailable', 'The store is not reachable.');
      },
    });
    const el = await shown(api);
    assert.match(
      inShadow(el, '[role=alert]').textContent,
      /could not be loaded: The store is not reachable\./,
    );
    api.answer(`GET ${LIST}`, { items: [ADA] });
    buttonIn(el, /Try again/).click();
    await until(() => el.shadowRoot?.querySelector('tbody') !== null, { what: 'the list' });
  });

  it('invites a person and shows the one-time link once, with a copy button', async () => {
    const api = new StubApi({
      [`GET ${LIST}`]: { items: [ADA] },
      [`POST ${LIST}`]: {
        user: { ...BOB, role: 'viewer' },
        link: { path: '/admin/#invite=fci_abc', expires_at: '2026-11-30T10:00:00.000Z' },
      },
    });
    const el = await shown(api);
    const form = inShadow(el, 'user-invite-form');
    await settle(form);
    typeInto(inShadow<HTMLInputElement>(form, '#invite-email'), ' bob@example.com ');
    typeInto(inShadow<HTMLSelectElement>(form, '#invite-role'), 'viewer');
    buttonIn(form, /^\s*Invite\s*$/).click();
    await until(() => form.shadowRoot?.querySelector('secret-once') !== null, { what: 'the link' });
    assert.deepEqual(api.made('POST'), [
      { method: 'POST', path: LIST, body: { email: 'bob@example.com', role: 'viewer' } },
    ]);
    const panel = inShadow(form, 'secret-once');
    await settle(panel, el);
    assert.strictEqual(
      inShadow(panel, '[data-testid=invitation-link]').textContent,
      `${location.origin}/admin/#invite=fci_abc`,
    );
    assert.isNotNull(panel.shadowRoot?.querySelector('copy-button'));
    assert.match(rowOf(el, BOB.email).textContent, /Invitation pending/);
    await expect(el).to.be.accessible();
    buttonIn(panel, /Done/).click();
    await settle(form);
    assert.notInclude(must(form.shadowRoot).innerHTML, 'fci_abc');
  });

  it('shows the link of a person who already signs in alike, and the email the server refused', async () => {
    const api = new StubApi({
      [`GET ${LIST}`]: { items: [] },
      [`POST ${LIST}`]: {
        user: BOB,
        link: { path: '/admin/#invite=fci_abc', expires_at: '2026-11-30T10:00:00.000Z' },
      },
    });
    const el = await shown(api);
    const form = inShadow(el, 'user-invite-form');
    buttonIn(form, /^\s*Invite\s*$/).click();
    await settle(form);
    assert.lengthOf(api.made('POST'), 0);
    assert.match(inShadow(form, '#invite-email-error').textContent, /Enter the email/);
    typeInto(inShadow<HTMLInputElement>(form, '#invite-email'), 'bob@example.com');
    buttonIn(form, /^\s*Invite\s*$/).click();
    await until(() => form.shadowRoot?.querySelector('secret-once') !== null, { what: 'the link' });
    const panel = inShadow(form, 'secret-once');
    await settle(panel);
    assert.strictEqual(
      inShadow(panel, '[data-testid=invitation-link]').textContent,
      `${location.origin}/admin/#invite=fci_abc`,
    );
    assert.notMatch(form.shadowRoot?.textContent ?? '', /they are now|now a member/);
    assert.match(rowOf(el, BOB.email).textContent, /Invitation pending/);
    buttonIn(panel, /Done/).click();
    await settle(form);

    api.answer(`POST ${LIST}`, () => {
      throw new ConsoleApiError(
        400,
        'invalid_body',
        'email: must be an email address such as ada@example.com',
        new Map([['email', 'must be an email address such as ada@example.com']]),
      );
    });
    typeInto(inShadow<HTMLInputElement>(form, '#invite-email'), 'bob');
    buttonIn(form, /^\s*Invite\s*$/).click();
    await until(() => form.shadowRoot?.querySelector('#invite-email-error') !== null, { what: 'the error' });
    assert.strictEqual(
      inShadow(form, '#invite-email-error').textContent,
      'The email must be an email address such as ada@example.com.',
    );
    await expect(el).to.be.accessible();
  });

  it("changes a role, and says the server's refusal under the select, which goes back", async () => {
    const api = new StubApi({
      [`GET ${LIST}`]: { items: [ADA, BOB] },
      [`PATCH ${LIST}/usr-bob`]: { ...BOB, role: 'admin' },
      [`PATCH ${LIST}/usr-ada`]: () => {
        throw new ConsoleApiError(
          409,
          'conflict',
          'This is the last admin of account "acc-1": make another member an admin first.',
        );
      },
    });
    const el = await shown(api);
    typeInto(must(rowOf(el, BOB.email).querySelector('select')), 'admin');
    await until(() => /bob@example\.com is now admin/.test(el.shadowRoot?.textContent ?? ''), {
      what: 'the change',
    });
    assert.deepEqual(api.made('PATCH', `${LIST}/usr-bob`)[0]?.body, { role: 'admin' });

    const select = must(rowOf(el, ADA.email).querySelector('select'));
    typeInto(select, 'viewer');
    await until(() => rowOf(el, ADA.email).querySelector('.error') !== null, { what: 'the refusal' });
    assert.match(must(rowOf(el, ADA.email).querySelector('.error')).textContent, /last admin/);
    assert.strictEqual(select.value, 'admin');
    assert.strictEqual(select.getAttribute('aria-invalid'), 'true');
    await expect(el).to.be.accessible();
  });

  it('revokes a pending invitation only after the confirmation', async () => {
    const api = new StubApi({ [`GET ${LIST}`]: { items: [ADA, BOB] }, [`DELETE ${LIST}/usr-bob`]: null });
    const el = await shown(api);
    buttonIn(el, /Revoke invitation[\s\S]*bob@/).click();
    await answerConfirm('cancel');
    await settle(el);
    assert.lengthOf(api.made('DELETE'), 0);
    buttonIn(el, /Revoke invitation[\s\S]*bob@/).click();
    await answerConfirm('confirm');
    await until(
      () => (el.shadowRoot?.textContent ?? '').includes('invitation of bob@example.com is revoked'),
      {
        what: 'the revocation',
      },
    );
    assert.deepEqual(api.made('DELETE'), [{ method: 'DELETE', path: `${LIST}/usr-bob` }]);
    assert.lengthOf(el.shadowRoot?.querySelectorAll('tbody tr') ?? [], 1);
  });

  it('makes a reset link and shows it once', async () => {
    const api = new StubApi({
      [`GET ${LIST}`]: { items: [ADA] },
      [`POST ${LIST}/usr-ada/reset-link`]: { path: '/admin/#reset=fcr_xyz', expires_at: ADA.created_at },
    });
    const el = await shown(api);
    buttonIn(el, /Reset link/).click();
    await until(() => el.shadowRoot?.querySelector('secret-once') !== null, { what: 'the link' });
    const panel = inShadow(el, 'secret-once');
    await settle(panel);
    assert.strictEqual(
      inShadow(panel, '[data-testid=reset-link]').textContent,
      `${location.origin}/admin/#reset=fcr_xyz`,
    );
    await expect(el).to.be.accessible();
    buttonIn(panel, /Done/).click();
    await settle(el);
    assert.notInclude(must(el.shadowRoot).innerHTML, 'fcr_xyz');
  });

  for (const role of ['editor', 'viewer'] as const)
    it(`offers a signed-in ${role} nothing, and asks the server nothing`, async () => {
      const api = new StubApi({ [`GET ${LIST}`]: { items: [ADA] } });
      const el = await shown(api, {
        user: {
          id: 'usr-x',
          email: 'x@example.com',
          name: 'X',
          accounts: [{ account_id: ACCOUNT.id, role }],
        },
      });
      assert.match(el.shadowRoot?.textContent ?? '', /Only an admin of Shop/);
      assert.isNull(el.shadowRoot?.querySelector('button, select, user-invite-form'));
      assert.lengthOf(api.calls, 0);
      await expect(el).to.be.accessible();
    });

  it('lets a signed-in admin of the account manage it', async () => {
    const api = new StubApi({ [`GET ${LIST}`]: { items: [ADA] } });
    const el = await shown(api, {
      user: {
        id: ADA.id,
        email: ADA.email,
        name: 'Ada',
        accounts: [{ account_id: ACCOUNT.id, role: 'admin' }],
      },
    });
    assert.isNotNull(el.shadowRoot?.querySelector('tbody select'));
  });

  it('keeps every control within the window at 390 px', async () => {
    await setViewport({ width: 390, height: 800 });
    try {
      const el = await shown(new StubApi({ [`GET ${LIST}`]: { items: [ADA, BOB] } }));
      const form = inShadow(el, 'user-invite-form');
      await settle(form);
      const formRoot = must(form.shadowRoot);
      assertReachable(formRoot, [...formRoot.querySelectorAll('input, select, button')], 'form control');
      const root = must(el.shadowRoot);
      assertReachable(
        root,
        [...root.querySelectorAll('tbody button, tbody select, tbody th, tbody td[data-label]')],
        'member field',
      );
      assertTableRoles(root);
      await expect(el).to.be.accessible();
    } finally {
      await setViewport({ width: 1280, height: 800 });
    }
  });
});

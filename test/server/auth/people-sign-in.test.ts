// People's sign-in (issue 36) through the routes: an invitation link is used once to choose a password (12 to
// 1024 characters) and signs the person in; email and password open a session like the operator key's (cookie,
// CSRF token); an unknown email and a wrong password get the same answer; wrong passwords lock the address and
// the email out; a reset link ends the person's other sessions; used, expired and made-up links are refused
// with a clear 4xx; a person removed from their last account is signed out.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../../../server/src/store/store.js';
import { openFreshPgliteStore } from '../template-data-dir.js';
import { addPerson, call, linkToken, sessionOf, signInAs } from '../people-support.js';
import { startApp, type Running } from '../support.js';

const KEY = 'operator-key-for-people-tests-0123456789';
const OPERATOR = { bearer: KEY };
const PASSWORD = 'a long enough password';
let clock = Date.parse('2026-11-25T10:00:00Z');

let store: Store;
let server: Running;
let accountId: string;

before(async () => {
  store = await openFreshPgliteStore();
  server = await startApp(store, {
    operatorKeys: [KEY],
    now: () => clock,
    tokenLimits: { pairFailures: 3, ipFailures: 6, firstLockMs: 60_000 },
  });
  accountId = (await store.createAccount('People')).id;
});
after(async () => {
  await server.close();
  await store.close();
});

void describe('people', () => {
  void it('accept an invitation once: the password rule, a session, the session says who', async () => {
    const invited = await call(server, 'POST', `/admin/v1/accounts/${accountId}/users`, OPERATOR, {
      email: 'Ada@Example.com',
      role: 'editor',
    });
    assert.equal(invited.status, 201, invited.text);
    const user = invited.body.user as Record<string, unknown>;
    assert.deepEqual(
      { email: user.email, role: user.role, active: user.active, last: user.last_sign_in_at },
      { email: 'ada@example.com', role: 'editor', active: false, last: null },
    );
    const link = invited.body.link as { path: string; expires_at: string };
    assert.match(link.path, /^\/admin\/#invite=fci_[A-Za-z0-9_-]{43}$/);
    assert.equal(link.expires_at, new Date(clock + 7 * 86_400_000).toISOString());
    const token = linkToken(link.path);

    const short = await call(server, 'POST', '/admin/session/invitation', null, {
      token,
      password: 'too short',
    });
    assert.equal(short.status, 400);
    assert.match(String(short.body.message), /password: must be at least 12 characters/);
    const long = await call(server, 'POST', '/admin/session/invitation', null, {
      token,
      password: 'x'.repeat(1025),
    });
    assert.equal(long.status, 400);
    assert.match(String(long.body.message), /password: must be at most 1024 characters/);

    const accepted = await call(server, 'POST', '/admin/session/invitation', null, {
      token,
      password: PASSWORD,
      name: ' Ada ',
    });
    const session = sessionOf(accepted);
    assert.deepEqual(accepted.body.user, {
      id: user.id,
      email: 'ada@example.com',
      name: 'Ada',
      accounts: [{ account_id: accountId, role: 'editor' }],
    });
    const read = await call(server, 'GET', '/admin/session', { session });
    assert.equal((read.body.user as { id: string }).id, user.id);

    const again = await call(server, 'POST', '/admin/session/invitation', null, {
      token,
      password: PASSWORD,
    });
    assert.equal(again.status, 410);
    assert.equal(again.body.code, 'link_expired');
    assert.match(String(again.body.message), /invitation link was already used/);
    const madeUp = await call(server, 'POST', '/admin/session/invitation', null, {
      token: `fci_${'A'.repeat(43)}`,
      password: PASSWORD,
    });
    assert.equal(madeUp.status, 404);
    // An invitation token is no reset token.
    const otherKind = await call(server, 'POST', '/admin/session/password-reset', null, {
      token,
      password: PASSWORD,
    });
    assert.equal(otherKind.status, 404);
  });

  void it('sign in with email and password; an unknown email and a wrong password answer alike', async () => {
    await addPerson(server, KEY, accountId, 'grace@example.com', 'viewer');
    const session = await signInAs(server, 'GRACE@example.com', PASSWORD);
    const accounts = await call(server, 'GET', '/admin/v1/accounts', { session });
    assert.deepEqual(
      (accounts.body.items as Array<{ id: string }>).map((a) => a.id),
      [accountId],
    );
    const wrong = await call(server, 'POST', '/admin/session', null, {
      email: 'grace@example.com',
      password: 'not the password at all',
    });
    const unknown = await call(server, 'POST', '/admin/session', null, {
      email: 'nobody@example.com',
      password: 'not the password at all',
    });
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.body, unknown.body);
    assert.equal(unknown.status, 401);
    const mixed = await call(server, 'POST', '/admin/session', null, {
      email: 'grace@example.com',
      operator_key: KEY,
    });
    assert.equal(mixed.status, 400);
  });

  void it('lock out after wrong passwords for one email, even the right one, until the wait ends', async () => {
    await addPerson(server, KEY, accountId, 'linus@example.com', 'viewer');
    for (let i = 0; i < 3; i++) {
      const wrong = await call(server, 'POST', '/admin/session', null, {
        email: 'linus@example.com',
        password: `wrong password ${i}`,
      });
      assert.equal(wrong.status, 401);
    }
    const locked = await call(server, 'POST', '/admin/session', null, {
      email: 'linus@example.com',
      password: PASSWORD,
    });
    assert.equal(locked.status, 429);
    assert.equal(locked.headers.get('retry-after'), '60');
    clock += 60_001;
    await signInAs(server, 'linus@example.com', PASSWORD);
  });

  void it('a reset link ends the other sessions and signs in with the new password; once, within the hour', async () => {
    const { session, userId } = await addPerson(server, KEY, accountId, 'barbara@example.com', 'editor');
    const made = await call(
      server,
      'POST',
      `/admin/v1/accounts/${accountId}/users/${userId}/reset-link`,
      OPERATOR,
    );
    assert.equal(made.status, 201, made.text);
    const token = linkToken(made.body.path);
    assert.match(String(made.body.path), /^\/admin\/#reset=fcr_/);
    const reset = await call(server, 'POST', '/admin/session/password-reset', null, {
      token,
      password: 'a brand new long password',
    });
    const fresh = sessionOf(reset);
    assert.equal((await call(server, 'GET', '/admin/session', { session })).status, 401);
    assert.equal((await call(server, 'GET', '/admin/session', { session: fresh })).status, 200);
    await signInAs(server, 'barbara@example.com', 'a brand new long password');
    assert.equal(
      (
        await call(server, 'POST', '/admin/session', null, {
          email: 'barbara@example.com',
          password: PASSWORD,
        })
      ).status,
      401,
    );
    const late = await call(
      server,
      'POST',
      `/admin/v1/accounts/${accountId}/users/${userId}/reset-link`,
      OPERATOR,
    );
    clock += 3_600_000;
    const expired = await call(server, 'POST', '/admin/session/password-reset', null, {
      token: linkToken(late.body.path),
      password: 'another long password',
    });
    assert.equal(expired.status, 410);
    assert.match(String(expired.body.message), /has expired/);
  });

  void it('keep the last admin; a person removed from their last account is signed out', async () => {
    const other = (await store.createAccount('Solo')).id;
    const { session, userId } = await addPerson(server, KEY, other, 'edsger@example.com', 'admin');
    const demote = await call(
      server,
      'PATCH',
      `/admin/v1/accounts/${other}/users/${userId}`,
      { session },
      {
        role: 'viewer',
      },
    );
    assert.equal(demote.status, 409);
    assert.match(String(demote.body.message), /last admin/);
    const leave = await call(server, 'DELETE', `/admin/v1/accounts/${other}/users/${userId}`, { session });
    assert.equal(leave.status, 409);
    const second = await addPerson(server, KEY, other, 'tony@example.com', 'editor');
    const promote = await call(
      server,
      'PATCH',
      `/admin/v1/accounts/${other}/users/${second.userId}`,
      { session },
      {
        role: 'admin',
      },
    );
    assert.equal(promote.status, 200, promote.text);
    const listed = await call(server, 'GET', `/admin/v1/accounts/${other}/users`, { session });
    assert.deepEqual(
      (listed.body.items as Array<{ email: string; role: string }>).map((m) => [m.email, m.role]),
      [
        ['edsger@example.com', 'admin'],
        ['tony@example.com', 'admin'],
      ],
    );
    const removed = await call(server, 'DELETE', `/admin/v1/accounts/${other}/users/${userId}`, {
      session: second.session,
    });
    assert.equal(removed.status, 204);
    assert.equal((await call(server, 'GET', '/admin/v1/accounts', { session })).status, 401);
    assert.equal(
      (
        await call(server, 'POST', '/admin/session', null, {
          email: 'edsger@example.com',
          password: PASSWORD,
        })
      ).status,
      401,
    );
  });
});

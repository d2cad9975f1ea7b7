// People in the store (issue 36) on every store kind: an invitation makes a user (email lower-case, unique
// whatever its case) and a membership, and a link only while the user has no password; a link is used once,
// within its lifetime, and using it sets the password, ends the user's other sessions and opens one; the last
// admin of an account can be neither demoted nor removed; a user removed from their last account loses their
// sessions and links, and can open no new session.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import { AlreadyMemberError, LastAdminError } from '../../../server/src/store/user-store.js';
import { describeStoreOnEveryKind } from '../support.js';

const NOW = 1_800_000_000_000;
const HOUR = 3_600_000;
const token = (): Uint8Array => randomBytes(32);

describeStoreOnEveryKind('users', (opened) => {
  void it('invites a new email: a user without password, a membership, a link', async () => {
    const { store, accountId } = opened();
    const link = token();
    const invited = await store.inviteUser({
      accountId,
      email: 'Ada@Example.COM',
      role: 'editor',
      linkDigest: link,
      nowMs: NOW,
      expiresMs: NOW + HOUR,
    });
    assert.equal(invited.user.email, 'ada@example.com');
    assert.equal(invited.user.passwordHash, null);
    assert.equal(invited.before, null);
    assert.deepEqual(
      { role: invited.after.role, active: invited.after.active, email: invited.after.email },
      { role: 'editor', active: false, email: 'ada@example.com' },
    );
    assert.equal(invited.linkKind, 'invitation');
    assert.equal((await store.findUserByEmail('ADA@example.com'))?.id, invited.user.id);
    assert.deepEqual(await store.membershipsOf(invited.user.id), [{ accountId, role: 'editor' }]);

    // Invited again before accepting: one user, the new role, a second link (the first one void).
    const newer = token();
    const again = await store.inviteUser({
      accountId,
      email: 'ada@example.com',
      role: 'viewer',
      linkDigest: newer,
      nowMs: NOW,
      expiresMs: NOW + HOUR,
    });
    assert.equal(again.user.id, invited.user.id);
    assert.equal(again.before?.role, 'editor');
    assert.equal(again.after.role, 'viewer');

    // Accepting: password set, a session opened, the link spent.
    const session = token();
    const used = await store.useUserLink({
      linkDigest: newer,
      kind: 'invitation',
      passwordHash: '$argon2id$fake',
      name: 'Ada Lovelace',
      sessionDigest: session,
      nowMs: NOW + 1,
      sessionExpiresMs: NOW + 8 * HOUR,
    });
    assert.equal(used.kind, 'opened');
    assert.equal(used.before.passwordHash, null);
    assert.equal(used.after.name, 'Ada Lovelace');
    assert.deepEqual(await store.findConsoleSession(session, NOW + 2), {
      expiresMs: NOW + 8 * HOUR,
      keyDigest: null,
      userId: invited.user.id,
    });
    const member = await store.getMember(accountId, invited.user.id);
    assert.deepEqual(
      { active: member?.active, lastSignInMs: member?.lastSignInMs, name: member?.name },
      { active: true, lastSignInMs: NOW + 1, name: 'Ada Lovelace' },
    );
    const twice = await store.useUserLink({
      linkDigest: newer,
      kind: 'invitation',
      passwordHash: '$argon2id$other',
      name: undefined,
      sessionDigest: token(),
      nowMs: NOW + 2,
      sessionExpiresMs: NOW + 8 * HOUR,
    });
    assert.deepEqual(twice, { kind: 'refused', why: 'used' });

    // A member with a password is not invited again.
    await assert.rejects(
      store.inviteUser({
        accountId,
        email: 'ADA@example.com',
        role: 'admin',
        linkDigest: token(),
        nowMs: NOW,
        expiresMs: NOW + HOUR,
      }),
      AlreadyMemberError,
    );
  });

  void it('refuses unknown, expired and other-kind links, changing nothing', async () => {
    const { store, accountId } = opened();
    const link = token();
    const invited = await store.inviteUser({
      accountId,
      email: 'grace@example.com',
      role: 'viewer',
      linkDigest: link,
      nowMs: NOW,
      expiresMs: NOW + HOUR,
    });
    const use = (digest: Uint8Array, kind: 'invitation' | 'reset', nowMs: number) =>
      store.useUserLink({
        linkDigest: digest,
        kind,
        passwordHash: 'h',
        name: undefined,
        sessionDigest: token(),
        nowMs,
        sessionExpiresMs: nowMs + HOUR,
      });
    assert.deepEqual(await use(token(), 'invitation', NOW), { kind: 'refused', why: 'unknown' });
    assert.deepEqual(await use(link, 'reset', NOW), { kind: 'refused', why: 'unknown' });
    assert.deepEqual(await use(link, 'invitation', NOW + HOUR), { kind: 'refused', why: 'expired' });
    assert.equal((await store.getUser(invited.user.id))?.passwordHash, null);
  });

  void it('a reset ends the other sessions; the last admin stays; removal from the last account ends all', async () => {
    const { store } = opened();
    const account = await store.createAccount('People');
    const other = await store.createAccount('Other people');
    const accept = async (email: string, accountId: string, role: 'admin' | 'editor' | 'viewer') => {
      const link = token();
      const { user } = await store.inviteUser({
        accountId,
        email,
        role,
        linkDigest: link,
        nowMs: NOW,
        expiresMs: NOW + HOUR,
      });
      const used = await store.useUserLink({
        linkDigest: link,
        kind: 'invitation',
        passwordHash: 'first',
        name: undefined,
        sessionDigest: token(),
        nowMs: NOW,
        sessionExpiresMs: NOW + HOUR,
      });
      assert.equal(used.kind, 'opened');
      return user.id;
    };
    const alice = await accept('alice@example.com', account.id, 'admin');
    const bob = await accept('bob@example.com', account.id, 'editor');

    // Sessions of alice: one from her sign-in, one more now; a reset ends both and opens a third.
    const second = token();
    assert.equal(await store.openUserSession(alice, second, NOW, NOW + HOUR), true);
    const reset = token();
    assert.equal(await store.createResetLink(account.id, alice, reset, NOW, NOW + HOUR, null), true);
    assert.equal(
      await store.createResetLink(account.id, 'no-such-user', token(), NOW, NOW + HOUR, null),
      false,
    );
    const third = token();
    const used = await store.useUserLink({
      linkDigest: reset,
      kind: 'reset',
      passwordHash: 'second',
      name: undefined,
      sessionDigest: third,
      nowMs: NOW + 5,
      sessionExpiresMs: NOW + HOUR,
    });
    assert.equal(used.kind === 'opened' && used.sessionsEnded, 2);
    assert.equal(await store.findConsoleSession(second, NOW + 6), null);
    assert.equal((await store.findConsoleSession(third, NOW + 6))?.userId, alice);
    assert.equal((await store.getUser(alice))?.passwordHash, 'second');

    // The last admin: neither demoted nor removed; once bob is an admin too, alice can be.
    await assert.rejects(store.setMemberRole(account.id, alice, 'editor'), LastAdminError);
    await assert.rejects(store.removeMember(account.id, alice), LastAdminError);
    const promoted = await store.setMemberRole(account.id, bob, 'admin');
    assert.deepEqual([promoted?.before.role, promoted?.after.role], ['editor', 'admin']);
    assert.equal(await store.setMemberRole(other.id, bob, 'viewer'), null);
    assert.equal((await store.setMemberRole(account.id, alice, 'viewer'))?.after.role, 'viewer');
    assert.deepEqual(
      (await store.listMembers(account.id)).map((m) => [m.email, m.role, m.active]),
      [
        ['alice@example.com', 'viewer', true],
        ['bob@example.com', 'admin', true],
      ],
    );

    // Alice in two accounts (she joins the other): removed from one, her sessions stay; from the last, they end.
    const ask = token();
    await store.inviteUser({
      accountId: other.id,
      email: 'alice@example.com',
      role: 'viewer',
      linkDigest: ask,
      nowMs: NOW,
      expiresMs: NOW + HOUR,
    });
    const joined = await store.answerJoinLink({ linkDigest: ask, userId: alice, answer: 'join', nowMs: NOW });
    assert.equal(joined.kind, 'joined');
    const pending = token();
    assert.equal(await store.createResetLink(account.id, alice, pending, NOW, NOW + HOUR, null), true);
    assert.equal((await store.removeMember(account.id, alice))?.sessionsEnded, 0);
    assert.equal((await store.findConsoleSession(third, NOW + 6))?.userId, alice);
    assert.equal(await store.removeMember(account.id, alice), null);
    const last = await store.removeMember(other.id, alice);
    assert.equal(last?.sessionsEnded, 1);
    assert.equal(await store.findConsoleSession(third, NOW + 6), null);
    assert.equal(await store.openUserSession(alice, token(), NOW, NOW + HOUR), false);
    const late = await store.useUserLink({
      linkDigest: pending,
      kind: 'reset',
      passwordHash: 'third',
      name: undefined,
      sessionDigest: token(),
      nowMs: NOW + 7,
      sessionExpiresMs: NOW + HOUR,
    });
    assert.deepEqual(late, { kind: 'refused', why: 'unknown' });
  });

  void it('purges expired links, and refuses an invitation to an unknown account', async () => {
    const { store, accountId } = opened();
    await store.inviteUser({
      accountId,
      email: 'old@example.com',
      role: 'viewer',
      linkDigest: token(),
      nowMs: NOW,
      expiresMs: NOW + 10,
    });
    assert.ok((await store.purgeUserLinks(NOW + 10)) >= 1);
    await assert.rejects(
      store.inviteUser({
        accountId: 'no-such-account',
        email: 'x@example.com',
        role: 'viewer',
        linkDigest: token(),
        nowMs: NOW,
        expiresMs: NOW + 10,
      }),
      /No account has the id "no-such-account"/,
    );
  });
});

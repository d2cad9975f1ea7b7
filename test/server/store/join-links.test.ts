// Consent to join (issue 36, security review) on every store kind: inviting a person who already has a user
// makes a pending membership and a join link; the pending member is in no membership list that grants anything
// and shows nothing of the person; joining activates, declining removes; spent, expired, revoked and other
// people's links change nothing; each answer writes one audit entry.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import type { Store } from '../../../server/src/store/store.js';
import type { Role } from '../../../server/src/store/user-store.js';
import { describeStoreOnEveryKind } from '../support.js';

const NOW = 1_800_000_000_000;
const DAY = 86_400_000;
const token = (): Uint8Array => randomBytes(32);

describeStoreOnEveryKind('join links', (opened) => {
  const invite = (store: Store, accountId: string, email: string, link = token(), role: Role = 'editor') =>
    store.inviteUser({
      accountId,
      email,
      role,
      linkDigest: link,
      nowMs: NOW,
      expiresMs: NOW + 7 * DAY,
    });
  /** A person with a password, a member of their own account `Home`; their user id. */
  const existingPerson = async (store: Store, email: string): Promise<string> => {
    const home = await store.createAccount(`Home of ${email}`);
    const link = token();
    const { user } = await store.inviteUser({
      accountId: home.id,
      email,
      role: 'admin',
      linkDigest: link,
      nowMs: NOW,
      expiresMs: NOW + DAY,
    });
    const used = await store.useUserLink({
      linkDigest: link,
      kind: 'invitation',
      passwordHash: 'hash',
      name: 'Zoe Private',
      sessionDigest: token(),
      nowMs: NOW,
      sessionExpiresMs: NOW + DAY,
    });
    assert.equal(used.kind, 'opened');
    return user.id;
  };
  const actions = async (store: Store, accountId: string, subjectId: string): Promise<string[]> =>
    (await store.listAudit({ accountId, subjectId }, { limit: 100 })).map((e) => e.action).reverse();

  void it('makes a pending membership that grants nothing and shows only the email, until joined', async () => {
    const { store, accountId } = opened();
    const zoe = await existingPerson(store, 'zoe@example.com');
    const link = token();
    const invited = await invite(store, accountId, 'Zoe@Example.com', link, 'admin');
    assert.equal(invited.linkKind, 'join');
    assert.equal(invited.user.id, zoe);
    const shown = { name: '', lastSignInMs: null, active: false, pending: true, email: 'zoe@example.com' };
    const pick = (m: unknown) => {
      const { name, lastSignInMs, active, pending, email } = m as typeof shown;
      return { name, lastSignInMs, active, pending, email };
    };
    assert.deepEqual(pick(invited.after), shown);
    assert.deepEqual(pick(await store.getMember(accountId, zoe)), shown);
    assert.deepEqual(pick((await store.listMembers(accountId)).find((m) => m.userId === zoe)), shown);
    assert.ok(!(await store.membershipsOf(zoe)).some((m) => m.accountId === accountId));

    // The link names the person, the account and the role.
    const peeked = await store.peekJoinLink(link, NOW + 1);
    assert.ok(peeked.kind === 'found');
    assert.deepEqual([peeked.invitation.role, peeked.invitation.userId], ['admin', zoe]);
    assert.equal(peeked.invitation.accountId, accountId);

    // Someone else's answer changes nothing.
    const bob = await existingPerson(store, 'bob@example.com');
    assert.deepEqual(
      await store.answerJoinLink({ linkDigest: link, userId: bob, answer: 'join', nowMs: NOW + 1 }),
      { kind: 'refused', why: 'other_person' },
    );
    assert.equal((await store.getMember(accountId, zoe))?.pending, true);

    const joined = await store.answerJoinLink({
      linkDigest: link,
      userId: zoe,
      answer: 'join',
      nowMs: NOW + 2,
    });
    assert.equal(joined.kind, 'joined');
    const member = await store.getMember(accountId, zoe);
    assert.deepEqual(
      { pending: member?.pending, active: member?.active, name: member?.name },
      { pending: false, active: true, name: 'Zoe Private' },
    );
    assert.ok((await store.membershipsOf(zoe)).some((m) => m.accountId === accountId && m.role === 'admin'));
    // Spent: neither peeked nor answered again.
    assert.deepEqual(await store.peekJoinLink(link, NOW + 3), { kind: 'refused', why: 'used' });
    assert.deepEqual(
      await store.answerJoinLink({ linkDigest: link, userId: zoe, answer: 'decline', nowMs: NOW + 3 }),
      { kind: 'refused', why: 'used' },
    );
    // Already a member who signs in: inviting again is refused.
    await assert.rejects(invite(store, accountId, 'zoe@example.com'), /already a member/);
    const log = await actions(store, accountId, zoe);
    assert.equal(log.filter((a) => a === 'user.invitation_accepted').length, 1);
  });

  void it('declining removes the pending membership; expired and revoked links open nothing', async () => {
    const { store, accountId } = opened();
    const zoe = await existingPerson(store, 'zoe2@example.com');
    const declined = token();
    await invite(store, accountId, 'zoe2@example.com', declined);
    const answer = await store.answerJoinLink({
      linkDigest: declined,
      userId: zoe,
      answer: 'decline',
      nowMs: NOW + 1,
    });
    assert.equal(answer.kind, 'declined');
    assert.equal(await store.getMember(accountId, zoe), null);
    assert.deepEqual(
      (await actions(store, accountId, zoe)).filter((a) => a.startsWith('user.invitation')),
      ['user.invitation_declined'],
    );

    const expiring = token();
    await invite(store, accountId, 'zoe2@example.com', expiring);
    assert.deepEqual(await store.peekJoinLink(expiring, NOW + 7 * DAY), { kind: 'refused', why: 'expired' });
    assert.deepEqual(
      await store.answerJoinLink({ linkDigest: expiring, userId: zoe, answer: 'join', nowMs: NOW + 7 * DAY }),
      { kind: 'refused', why: 'expired' },
    );
    assert.equal((await store.getMember(accountId, zoe))?.pending, true);

    // Revoked by an admin (the removal of the pending member): the link opens nothing.
    const revoked = token();
    await invite(store, accountId, 'zoe2@example.com', revoked);
    assert.ok((await store.removeMember(accountId, zoe)) !== null);
    assert.deepEqual(await store.peekJoinLink(revoked, NOW + 1), { kind: 'refused', why: 'unknown' });
    assert.deepEqual(
      await store.answerJoinLink({ linkDigest: revoked, userId: zoe, answer: 'join', nowMs: NOW + 1 }),
      { kind: 'refused', why: 'unknown' },
    );
    assert.equal(await store.getMember(accountId, zoe), null);
    assert.deepEqual(await store.peekJoinLink(token(), NOW), { kind: 'refused', why: 'unknown' });
    // Zoe still signs in: her own account is untouched.
    assert.equal(await store.openUserSession(zoe, token(), NOW + 2, NOW + DAY), true);
  });

  void it('signs out a person removed from their last active account, though invited elsewhere', async () => {
    const { store, accountId } = opened();
    const home = await store.createAccount('Home of zed');
    const first = token();
    const { user } = await store.inviteUser({
      accountId: home.id,
      email: 'zed@example.com',
      role: 'editor',
      linkDigest: first,
      nowMs: NOW,
      expiresMs: NOW + DAY,
    });
    const session = token();
    const used = await store.useUserLink({
      linkDigest: first,
      kind: 'invitation',
      passwordHash: 'hash',
      name: undefined,
      sessionDigest: session,
      nowMs: NOW,
      sessionExpiresMs: NOW + DAY,
    });
    assert.equal(used.kind, 'opened');
    const ask = token();
    assert.equal((await invite(store, accountId, 'zed@example.com', ask)).linkKind, 'join');

    // Removed from Home, their only active account: the invitation grants nothing, so their sessions end.
    assert.equal((await store.removeMember(home.id, user.id))?.sessionsEnded, 1);
    assert.equal(await store.findConsoleSession(session, NOW + 1), null);
    // They may still sign in to answer the invitation, whose link still asks.
    assert.equal(await store.openUserSession(user.id, token(), NOW + 2, NOW + DAY), true);
    assert.equal((await store.peekJoinLink(ask, NOW + 2)).kind, 'found');
  });

  void it('a single sign-on of the account makes a pending membership active, and voids its link', async () => {
    const { store, accountId } = opened();
    const zoe = await existingPerson(store, 'zoe3@example.com');
    const issuer = 'https://id.example.com/realms/shared';
    const settings = {
      name: 'Shared',
      issuer,
      clientId: 'client',
      clientSecret: 'secret',
      groupsClaim: 'groups',
      groupRoles: [],
      domainRoles: [{ domain: 'example.com', role: 'viewer' as const }],
      enabled: true,
    };
    // Zoe's own account signs in through the same provider: the provider speaks for both.
    const home = (await store.membershipsOf(zoe))[0]?.accountId;
    assert.ok(home !== undefined);
    await store.putSsoSettings(home, settings, NOW);
    await store.putSsoSettings(accountId, settings, NOW);
    const link = token();
    await invite(store, accountId, 'zoe3@example.com', link, 'editor');
    const signedIn = await store.recordSsoSignIn({
      accountId,
      issuer,
      subject: 'zoe-subject',
      email: 'zoe3@example.com',
      name: 'Zoe',
      role: 'viewer',
      nowMs: NOW + 1,
      address: '203.0.113.9',
    });
    assert.ok(!('refused' in signedIn));
    assert.equal(signedIn.roleBefore, null, 'a pending invitation is no membership');
    const member = await store.getMember(accountId, zoe);
    assert.deepEqual([member?.pending, member?.role], [false, 'viewer']);
    assert.ok((await store.membershipsOf(zoe)).some((m) => m.accountId === accountId));
    assert.deepEqual(await store.peekJoinLink(link, NOW + 2), { kind: 'refused', why: 'unknown' });
  });
});

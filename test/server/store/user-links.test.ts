// A person's links can never take them over from an account that is not theirs to manage (issue 36's review):
// an invitation link is given only for a person with no way to sign in and no other account; once a password is
// chosen, every other unused link is void; a link opens nothing once the person left the account it was made
// from; joining another account voids a pending reset link (checked against the accounts of its time).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import { NotTheirAdminError, type PasswordLinkKind } from '../../../server/src/store/user-store.js';
import type { Store } from '../../../server/src/store/store.js';
import { describeStoreOnEveryKind } from '../support.js';

const NOW = 1_800_000_000_000;
const HOUR = 3_600_000;
const token = (): Uint8Array => randomBytes(32);

describeStoreOnEveryKind('user links', (opened) => {
  const invite = (store: Store, accountId: string, email: string, link = token()) =>
    store.inviteUser({
      accountId,
      email,
      role: 'admin',
      linkDigest: link,
      nowMs: NOW,
      expiresMs: NOW + HOUR,
    });
  const use = (store: Store, linkDigest: Uint8Array, kind: PasswordLinkKind, passwordHash: string) =>
    store.useUserLink({
      linkDigest,
      kind,
      passwordHash,
      name: undefined,
      sessionDigest: token(),
      nowMs: NOW + 1,
      sessionExpiresMs: NOW + HOUR,
    });

  void it("voids a person's older unused invitation and join links when they are invited again", async () => {
    const { store, accountId } = opened();
    const first = token();
    assert.equal((await invite(store, accountId, 'eve@example.com', first)).linkKind, 'invitation');
    const second = token();
    assert.equal((await invite(store, accountId, 'eve@example.com', second)).linkKind, 'invitation');
    assert.deepEqual(await use(store, first, 'invitation', 'old'), { kind: 'refused', why: 'unknown' });
    assert.equal((await use(store, second, 'invitation', 'eve-hash')).kind, 'opened');

    // A person who signs in, invited twice to another account: only the newest join link asks.
    const other = await store.createAccount('Other');
    const firstJoin = token();
    assert.equal((await invite(store, other.id, 'eve@example.com', firstJoin)).linkKind, 'join');
    const secondJoin = token();
    assert.equal((await invite(store, other.id, 'eve@example.com', secondJoin)).linkKind, 'join');
    assert.deepEqual(await store.peekJoinLink(firstJoin, NOW + 2), { kind: 'refused', why: 'unknown' });
    assert.equal((await store.peekJoinLink(secondJoin, NOW + 2)).kind, 'found');
  });

  void it('refuses a reset link by a person who is not an admin of every account of its person', async () => {
    const { store, accountId } = opened();
    const other = await store.createAccount('Other');
    // Ivy is the admin of this account; Jo is a member of it, invited to another too (still pending).
    const ivyLink = token();
    await invite(store, accountId, 'ivy@example.com', ivyLink);
    assert.equal((await use(store, ivyLink, 'invitation', 'ivy-hash')).kind, 'opened');
    const joLink = token();
    await invite(store, accountId, 'jo@example.com', joLink);
    assert.equal((await use(store, joLink, 'invitation', 'jo-hash')).kind, 'opened');
    const ivy = await store.findUserByEmail('ivy@example.com');
    const jo = await store.findUserByEmail('jo@example.com');
    assert.ok(ivy !== null && jo !== null);
    const ask = token();
    assert.equal((await invite(store, other.id, 'jo@example.com', ask)).linkKind, 'join');
    // A pending invitation grants nothing: Ivy manages every account Jo is in.
    assert.equal(await store.createResetLink(accountId, jo.id, token(), NOW, NOW + HOUR, ivy.id), true);
    // Jo joins the other account: from then on, the store itself refuses Ivy (whatever a route read before).
    const joined = await store.answerJoinLink({ linkDigest: ask, userId: jo.id, answer: 'join', nowMs: NOW });
    assert.equal(joined.kind, 'joined');
    const late = token();
    await assert.rejects(
      store.createResetLink(accountId, jo.id, late, NOW, NOW + HOUR, ivy.id),
      NotTheirAdminError,
    );
    assert.deepEqual(await use(store, late, 'reset', 'taken'), { kind: 'refused', why: 'unknown' });
    // The operator key and the CLI (no person) always may.
    assert.equal(await store.createResetLink(accountId, jo.id, token(), NOW, NOW + HOUR, null), true);
  });

  void it("gives no invitation link for a person of another account, and voids a person's other links", async () => {
    const { store, accountId } = opened();
    const other = await store.createAccount('Other');
    // Invited to both accounts before choosing a password: only the first invitation sets a password, the
    // second asks Bob's consent (a join link, which no password link replaces).
    const first = token();
    assert.equal((await invite(store, accountId, 'bob@example.com', first)).linkKind, 'invitation');
    const second = token();
    assert.equal((await invite(store, other.id, 'bob@example.com', second)).linkKind, 'join');
    assert.deepEqual(await use(store, second, 'invitation', 'never'), { kind: 'refused', why: 'unknown' });

    // Bob chooses his password with his link: the other account's admin holds nothing that replaces it.
    const used = await use(store, first, 'invitation', 'bob-hash');
    assert.equal(used.kind, 'opened');
    // His join link stays: it sets no password, and only Bob, signed in, answers it.
    assert.equal((await store.peekJoinLink(second, NOW + 2)).kind, 'found');
    const reset = token();
    const bob = await store.findUserByEmail('bob@example.com');
    assert.ok(bob !== null);
    assert.equal(await store.createResetLink(accountId, bob.id, reset, NOW, NOW + HOUR, null), true);
    // Another invitation of a person who signs in gives a join link; joining voids the pending reset link.
    const third = token();
    const another = await store.createAccount('Another');
    assert.equal((await invite(store, another.id, 'bob@example.com', third)).linkKind, 'join');
    const joined = await store.answerJoinLink({
      linkDigest: third,
      userId: bob.id,
      answer: 'join',
      nowMs: NOW,
    });
    assert.equal(joined.kind, 'joined');
    assert.deepEqual(await use(store, reset, 'reset', 'taken'), { kind: 'refused', why: 'unknown' });
    assert.deepEqual(await use(store, third, 'invitation', 'taken'), { kind: 'refused', why: 'unknown' });
    assert.equal((await store.findUserByEmail('bob@example.com'))?.passwordHash, 'bob-hash');
  });

  void it('opens nothing once the person left the account the link was made from', async () => {
    const { store, accountId } = opened();
    const other = await store.createAccount('Elsewhere');
    const link = token();
    const invited = await invite(store, accountId, 'cy@example.com', link);
    await invite(store, other.id, 'cy@example.com');
    // Another admin stays in the account, so that cy may be removed from it.
    await invite(store, accountId, 'dee@example.com');
    assert.ok((await store.removeMember(accountId, invited.user.id)) !== null);
    assert.deepEqual(await use(store, link, 'invitation', 'cy-hash'), { kind: 'refused', why: 'unknown' });
    assert.equal((await store.getUser(invited.user.id))?.passwordHash, null);
  });
});

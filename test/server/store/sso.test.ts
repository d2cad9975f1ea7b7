// Single sign-on settings and started sign-ins in the store (issue 36), on every store kind: a first save needs
// a client secret and a later one keeps it when none is given; the mappings come back as saved; only enabled
// settings are offered at sign-in; a started sign-in is taken once, never after it expired, and the purge drops
// expired ones only.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import type { SsoSettingsInput } from '../../../server/src/store/sso-store.js';
import { describeStoreOnEveryKind } from '../support.js';

const input = (overrides: Partial<SsoSettingsInput> = {}): SsoSettingsInput => ({
  name: 'Acme',
  issuer: 'https://id.example.com/realms/acme',
  clientId: 'feature',
  clientSecret: 'secret-1',
  groupsClaim: 'groups',
  groupRoles: [
    { group: 'feature-admins', role: 'admin' },
    { group: 'marketing', role: 'editor' },
  ],
  domainRoles: [{ domain: 'example.com', role: 'viewer' }],
  enabled: true,
  ...overrides,
});

describeStoreOnEveryKind('single sign-on settings', (opened) => {
  void it('saves, keeps the secret when none is given, lists the enabled, deletes', async () => {
    const { store, accountId } = opened();
    assert.equal(await store.getSsoSettings(accountId), null);
    assert.equal(
      await store.putSsoSettings(accountId, input({ clientSecret: null }), 1_000),
      null,
      'a first save needs a secret',
    );
    assert.equal(await store.getSsoSettings(accountId), null);

    const saved = await store.putSsoSettings(accountId, input(), 1_000);
    assert.deepEqual(saved, {
      accountId,
      ...input(),
      createdMs: 1_000,
      updatedMs: 1_000,
    });
    const renamed = await store.putSsoSettings(
      accountId,
      input({ name: 'Acme SSO', clientSecret: null, groupRoles: [] }),
      2_000,
    );
    assert.equal(renamed?.clientSecret, 'secret-1', 'no secret given: the stored one stays');
    assert.equal(renamed.name, 'Acme SSO');
    assert.deepEqual(renamed.groupRoles, []);
    assert.equal(renamed.createdMs, 1_000);
    assert.equal(renamed.updatedMs, 2_000);
    assert.equal(
      (await store.putSsoSettings(accountId, input({ clientSecret: 'secret-2' }), 3_000))?.clientSecret,
      'secret-2',
    );

    const other = await store.createAccount('Other');
    await store.putSsoSettings(other.id, input({ name: 'Beta', enabled: false }), 1_000);
    assert.deepEqual(await store.listEnabledSso(), [{ accountId, name: 'Acme' }]);

    assert.equal(await store.putSsoSettings('no-such-account', input(), 1_000), null);
    assert.equal(await store.deleteSsoSettings(accountId), true);
    assert.equal(await store.deleteSsoSettings(accountId), false);
    assert.equal(await store.getSsoSettings(accountId), null);
    assert.deepEqual(await store.listEnabledSso(), []);
  });

  void it('takes a started sign-in once, not after it expired, and purges expired ones', async () => {
    const { store, accountId } = opened();
    const pending = { accountId, state: 's', nonce: 'n', codeVerifier: 'v', expiresMs: 10_000 };
    const first = randomBytes(32);
    await store.startSsoSignIn(first, pending);
    assert.deepEqual(await store.takeSsoSignIn(first, 5_000), pending);
    assert.equal(await store.takeSsoSignIn(first, 5_000), null, 'used once');

    const late = randomBytes(32);
    await store.startSsoSignIn(late, pending);
    assert.equal(await store.takeSsoSignIn(late, 10_000), null, 'expired');
    assert.equal(await store.takeSsoSignIn(late, 5_000), null, 'an expired one is gone too');

    const kept = randomBytes(32);
    const old = randomBytes(32);
    await store.startSsoSignIn(kept, { ...pending, expiresMs: 20_000 });
    await store.startSsoSignIn(old, pending);
    assert.equal(await store.purgeSsoSignIns(15_000), 1);
    assert.equal(await store.takeSsoSignIn(old, 0), null);
    assert.equal((await store.takeSsoSignIn(kept, 15_000))?.expiresMs, 20_000);
  });

  void it('records sign-ins: a user found by subject or email or made, the role set every time', async () => {
    const { store } = opened();
    const account = await store.createAccount('Sign-ins');
    const issuer = 'https://id.example.com/realms/acme';
    const signIn = {
      accountId: account.id,
      issuer,
      subject: 'sub-1',
      email: 'ann@example.com',
      name: 'Ann',
      role: 'editor' as const,
      nowMs: 1_000,
      address: '203.0.113.9',
    };
    const first = await store.recordSsoSignIn(signIn);
    assert.ok(!('refused' in first));
    assert.equal(first.created, true);
    assert.equal(first.roleBefore, null);
    assert.equal(first.user.email, 'ann@example.com');
    assert.equal(first.user.name, 'Ann');
    assert.equal(first.user.passwordHash, null);
    assert.equal((await store.getMember(account.id, first.user.id))?.role, 'editor');

    // The provider now says viewer, and the email changed there: the subject still finds the user.
    const again = await store.recordSsoSignIn({ ...signIn, email: 'ann.b@example.com', role: 'viewer' });
    assert.ok(!('refused' in again));
    assert.equal(again.user.id, first.user.id);
    assert.equal(again.created, false);
    assert.equal(again.roleBefore, 'editor');
    assert.equal((await store.getMember(account.id, first.user.id))?.role, 'viewer');

    // A person invited before (by email) is linked, not made twice.
    const invited = await store.inviteUser({
      accountId: account.id,
      email: 'bo@example.com',
      role: 'viewer',
      linkDigest: randomBytes(32),
      nowMs: 1_000,
      expiresMs: 10_000,
    });
    const linked = await store.recordSsoSignIn({
      ...signIn,
      subject: 'sub-2',
      email: 'bo@example.com',
      role: 'admin',
    });
    assert.ok(!('refused' in linked));
    assert.equal(linked.user.id, invited.user.id);
    assert.equal(linked.created, false);
    assert.equal(linked.roleBefore, 'viewer');
    assert.equal((await store.getMember(account.id, invited.user.id))?.role, 'admin');
  });

  void it('refuses a user of another account that does not use this provider, and changes nothing', async () => {
    const { store } = opened();
    const mine = await store.createAccount('Mine');
    const theirs = await store.createAccount('Theirs');
    const issuer = 'https://id.example.com/realms/mine';
    const member = await store.inviteUser({
      accountId: theirs.id,
      email: 'cy@example.com',
      role: 'admin',
      linkDigest: randomBytes(32),
      nowMs: 1_000,
      expiresMs: 10_000,
    });
    const signIn = {
      accountId: mine.id,
      issuer,
      subject: 'cy',
      email: 'cy@example.com',
      name: null,
      role: 'admin' as const,
      nowMs: 2_000,
      address: '203.0.113.9',
    };
    assert.deepEqual(await store.recordSsoSignIn(signIn), { refused: 'other_accounts' });
    assert.equal(await store.getMember(mine.id, member.user.id), null);

    // Once the other account signs in through the same provider, the person may come through it.
    await store.putSsoSettings(theirs.id, { ...input(), issuer }, 2_000);
    const through = await store.recordSsoSignIn(signIn);
    assert.ok(!('refused' in through));
    assert.equal(through.user.id, member.user.id);
    assert.equal((await store.getMember(mine.id, member.user.id))?.role, 'admin');
    assert.equal(
      (await store.getMember(theirs.id, member.user.id))?.role,
      'admin',
      'the other account untouched',
    );
  });

  void it('still signs in a person of this provider whom another account has invited (pending)', async () => {
    const { store } = opened();
    const sso = await store.createAccount('Single sign-on');
    const elsewhere = await store.createAccount('Elsewhere');
    const signIn = {
      accountId: sso.id,
      issuer: 'https://id.example.com/realms/sso',
      subject: 'di',
      email: 'di@example.com',
      name: null,
      role: 'editor' as const,
      nowMs: 1_000,
      address: '203.0.113.9',
    };
    const first = await store.recordSsoSignIn(signIn);
    assert.ok(!('refused' in first));
    // An admin of another account invites them: a pending membership they have not answered.
    const invited = await store.inviteUser({
      accountId: elsewhere.id,
      email: 'di@example.com',
      role: 'admin',
      linkDigest: randomBytes(32),
      nowMs: 2_000,
      expiresMs: 10_000,
    });
    assert.equal(invited.after.pending, true);
    const again = await store.recordSsoSignIn({ ...signIn, nowMs: 3_000 });
    assert.ok(!('refused' in again), 'an invitation elsewhere locks no one out of their own account');
    assert.equal(again.user.id, first.user.id);
    assert.equal((await store.getMember(elsewhere.id, first.user.id))?.pending, true, 'still only invited');
  });
});

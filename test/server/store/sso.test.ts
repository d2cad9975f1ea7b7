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
});

// Accesses and tokens of the remote control API (PROTOCOL.md §13.1-§13.4) on every store kind: the store
// keeps what the token service needs (digests, scope, expiry, revocation) and finds a token with its own
// access in one read; revocation is permanent and keeps its first time; purging removes only expired
// tokens. Also: migration 002 applies to a database that already holds 001's schema and rows.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it, type TestContext } from 'node:test';
import { InputError } from '../../../server/src/errors.js';
import { initialMigration } from '../../../server/src/store/migrations/001-initial.js';
import { MIGRATIONS } from '../../../server/src/store/migrations/index.js';
import type { Sql } from '../../../server/src/store/sql/sql.js';
import type { TokenRecord } from '../../../server/src/store/access-store.js';
import type { Store } from '../../../server/src/store/store.js';
import { describeStoreOnEveryKind, rawDatabase, storeKinds } from '../support.js';

/** A digest made independently of the store (SHA-256, as §13.7 stores secrets and tokens). */
const sha256 = (secret: string): Buffer => createHash('sha256').update(secret).digest();

const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));

/**
 * The store stamps rows with Date.now(): the test mocks Date (timers stay real) from a moment after every
 * row made so far, and moves it by hand, so two rows' times differ (or not) because the test said so.
 */
const storeClock = (t: TestContext): { start: number; advance: (ms: number) => void } => {
  const start = Date.now() + 1;
  t.mock.timers.enable({ apis: ['Date'], now: start });
  return { start, advance: (ms) => t.mock.timers.tick(ms) };
};

const accessInput = (accountId: string, name: string, environments: string[] = []) => ({
  accountId,
  name,
  environments,
  actions: ['campaign.toggle' as const, 'report.read' as const],
  clientId: `ffc_${name}_${Math.random().toString(36).slice(2)}`,
  secretDigest: sha256(`ffs_${name}`),
});

describeStoreOnEveryKind('accesses', (opened) => {
  void it('creates an access and finds it by id, by client id and in its account', async (t) => {
    const { store, accountId, envId } = opened();
    const clock = storeClock(t);
    const all = await store.createAccess(accessInput(accountId, 'all-envs'));
    clock.advance(1000);
    const one = await store.createAccess(accessInput(accountId, 'one-env', [envId]));
    assert.equal(all.createdMs, clock.start);
    assert.equal(one.createdMs, clock.start + 1000);
    assert.match(all.id, /^[a-z2-7]{20}$/);
    assert.notEqual(all.id, one.id);
    assert.deepEqual(all.environments, []);
    assert.deepEqual(one.environments, [envId]);
    assert.deepEqual(one.actions, ['campaign.toggle', 'report.read']);
    assert.equal(one.revokedMs, null);
    assert.ok(same(one.secretDigest, sha256('ffs_one-env')));

    assert.deepEqual(await store.getAccess(one.id), one);
    assert.deepEqual(await store.findAccessByClientId(one.clientId), one);
    assert.equal(await store.getAccess('nope'), null);
    assert.equal(await store.findAccessByClientId('ffc_unknown'), null);

    const other = await store.createAccount('other account');
    await store.createAccess(accessInput(other.id, 'elsewhere'));
    const listed = await store.listAccesses(accountId);
    assert.deepEqual(
      listed.map((a) => a.name),
      ['all-envs', 'one-env'],
    );
  });

  void it("refuses an unknown account and another account's environment", async () => {
    const { store, envId } = opened();
    await assert.rejects(store.createAccess(accessInput('no-such-account', 'x')), InputError);
    const other = await store.createAccount('stranger');
    await assert.rejects(
      store.createAccess(accessInput(other.id, 'reach', [envId])),
      (error: unknown) => error instanceof InputError && error.message.includes(envId),
    );
    assert.deepEqual(await store.listAccesses(other.id), []);
  });

  void it('revokes once and keeps the first revocation time', async (t) => {
    const { store, accountId } = opened();
    const clock = storeClock(t);
    const access = await store.createAccess(accessInput(accountId, 'revoked'));
    clock.advance(1000);
    const first = await store.revokeAccess(access.id);
    assert.ok(first !== null);
    assert.equal(first.revokedMs, clock.start + 1000);
    clock.advance(1000);
    const second = await store.revokeAccess(access.id);
    assert.equal(second?.revokedMs, first.revokedMs);
    assert.equal((await store.getAccess(access.id))?.revokedMs, first.revokedMs);
    assert.equal(await store.revokeAccess('unknown-access'), null);
    // Revoked accesses stay listed.
    assert.ok((await store.listAccesses(accountId)).some((a) => a.id === access.id));
  });

  void it('finds a token with its own access, and null for an unknown digest', async () => {
    const { store, accountId, envId } = opened();
    const a = await store.createAccess(accessInput(accountId, 'token-a'));
    const b = await store.createAccess(accessInput(accountId, 'token-b', [envId]));
    const tokenA: TokenRecord = {
      digest: sha256('fft_a'),
      accessId: a.id,
      accountId,
      scope: 'campaign.toggle report.read env:*',
      issuedMs: 1_700_000_000_000,
      expiresMs: 1_700_000_003_600,
    };
    const tokenB: TokenRecord = {
      digest: sha256('fft_b'),
      accessId: b.id,
      accountId,
      scope: `report.read env:${envId}`,
      issuedMs: 1_700_000_000_500,
      expiresMs: null,
    };
    await store.insertToken(tokenA);
    await store.insertToken(tokenB);

    const foundB = await store.findToken(sha256('fft_b'));
    assert.ok(foundB !== null);
    assert.equal(foundB.access.id, b.id);
    assert.equal(foundB.access.name, 'token-b');
    assert.deepEqual(foundB.access.environments, [envId]);
    assert.equal(foundB.token.scope, tokenB.scope);
    assert.equal(foundB.token.expiresMs, null);
    assert.equal(foundB.token.issuedMs, tokenB.issuedMs);
    assert.ok(same(foundB.token.digest, tokenB.digest));

    const foundA = await store.findToken(sha256('fft_a'));
    assert.equal(foundA?.access.id, a.id);
    assert.equal(foundA.token.accessId, a.id);
    assert.equal(foundA.token.expiresMs, tokenA.expiresMs);

    assert.equal(await store.findToken(sha256('fft_unknown')), null);
    assert.equal(await store.findToken(new Uint8Array(0)), null);

    // A revocation is seen through the token at its next lookup.
    const revoked = await store.revokeAccess(b.id);
    assert.equal((await store.findToken(sha256('fft_b')))?.access.revokedMs, revoked?.revokedMs);
  });

  void it('purges only tokens that expired before the given time', async () => {
    const { store, accountId } = opened();
    const access = await store.createAccess(accessInput(accountId, 'purge'));
    const token = (name: string, expiresMs: number | null): TokenRecord => ({
      digest: sha256(name),
      accessId: access.id,
      accountId,
      scope: 'report.read env:*',
      issuedMs: 1000,
      expiresMs,
    });
    await store.insertToken(token('purge-old', 5_000));
    await store.insertToken(token('purge-edge', 10_000));
    await store.insertToken(token('purge-new', 20_000));
    await store.insertToken(token('purge-forever', null));

    assert.equal(await store.purgeExpiredTokens(10_000), 1);
    assert.equal(await store.findToken(sha256('purge-old')), null);
    for (const kept of ['purge-edge', 'purge-new', 'purge-forever']) {
      assert.notEqual(await store.findToken(sha256(kept)), null, kept);
    }
    assert.equal(await store.purgeExpiredTokens(10_000), 0);
  });

  void it('lists every account, oldest first', async (t) => {
    const { store, accountId } = opened();
    const clock = storeClock(t);
    const first = await store.createAccount('listed first');
    clock.advance(1000);
    const second = await store.createAccount('listed second');
    assert.deepEqual([first.createdMs, second.createdMs], [clock.start, clock.start + 1000]);
    const ids = (await store.listAccounts()).map((a) => a.id);
    assert.equal(ids[0], accountId);
    assert.ok(ids.indexOf(first.id) < ids.indexOf(second.id));
    assert.equal(new Set(ids).size, ids.length);
  });
});

/** Gives the old database 001's schema only, as a server of that version left it, with one account. */
const applyInitialOnly = async (sql: Pick<Sql, 'exec'>): Promise<void> => {
  await sql.exec(
    'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_ms bigint NOT NULL)',
  );
  await sql.exec(initialMigration.sql);
  await sql.exec(
    `INSERT INTO schema_migrations VALUES (1, '001-initial', 0);
     INSERT INTO accounts VALUES ('old-account', 'From 001', 0)`,
  );
};

/** What the store opened over the old database must show: its account kept, accesses working. */
const checkUpgraded = async (store: Store): Promise<void> => {
  assert.deepEqual(
    (await store.listAccounts()).map((a) => a.id),
    ['old-account'],
  );
  const access = await store.createAccess(accessInput('old-account', 'after-upgrade'));
  assert.equal((await store.getAccess(access.id))?.name, 'after-upgrade');
};

void describe('migration 002 on a database at 001', () => {
  for (const kind of storeKinds()) {
    void it(`applies on ${kind.name}`, async () => {
      const db = await rawDatabase(kind, 'feature-002-');
      try {
        await applyInitialOnly(db);
        const store = await db.openStore();
        try {
          await checkUpgraded(store);
        } finally {
          await store.close();
        }
        const applied = await db.query('SELECT version FROM schema_migrations ORDER BY version');
        assert.deepEqual(
          applied.map((row) => row.version),
          MIGRATIONS.map((m) => m.version),
        );
      } finally {
        await db.remove();
      }
    });
  }
});

// Console sessions bound to their operator key (migration 007) on every store kind: the sessions and links a
// server of migration 6 stored name no key, so the upgrade deletes them (they would outlive a change of the key);
// a row without a key digest, as a server of before still running beside upgraded ones writes it, opens
// nothing; and sessions opened after the upgrade work.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConsoleSessions } from '../../../server/src/auth/console-sessions.js';
import { OperatorKeys } from '../../../server/src/auth/operator-keys.js';
import { digest } from '../../../server/src/ids.js';
import { MIGRATIONS } from '../../../server/src/store/migrations/index.js';
import { rawDatabase, storeKinds, type RawDatabase } from '../support.js';

const KEY = 'operator-key-for-the-migration-007-test-0123';
const LATER = 4_102_444_800_000; // 2100-01-01: never expired in this test

/** Migrations 1 to 6, as a server of that version left the database. */
const atMigration6 = async (db: RawDatabase): Promise<void> => {
  await db.exec(
    'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_ms bigint NOT NULL)',
  );
  for (const migration of MIGRATIONS.filter((m) => m.version <= 6)) {
    await db.exec(migration.sql);
    await db.exec(`INSERT INTO schema_migrations VALUES (${migration.version}, '${migration.name}', 0)`);
  }
};

const hex = (bytes: Uint8Array): string => `'\\x${Buffer.from(bytes).toString('hex')}'::bytea`;

void describe('console sessions bound to their operator key (migration 007)', () => {
  for (const kind of storeKinds()) {
    void it(`ends the sessions and links of before, and refuses rows without a key, on ${kind.name}`, async () => {
      const db = await rawDatabase(kind, 'feature-007-');
      try {
        await atMigration6(db);
        const before = 'fcs_a-session-opened-before-the-upgrade';
        const link = 'fcl_a-link-made-before-the-upgrade';
        await db.exec(`INSERT INTO console_sessions VALUES (${hex(digest(before))}, 0, ${LATER})`);
        await db.exec(`INSERT INTO console_sign_in_links VALUES (${hex(digest(link))}, ${LATER})`);

        let store = await db.openStore();
        try {
          const sessions = new ConsoleSessions(store, { operatorKeys: [KEY] });
          assert.equal(await store.findConsoleSession(digest(before), 0), null, 'deleted by the upgrade');
          assert.equal(await sessions.openWithLink(link), null);
          const keyDigest = await (new OperatorKeys([KEY]).find(KEY) ?? assert.fail('the key')).digest();
          const opened = await sessions.open(keyDigest);
          assert.equal((await sessions.find(opened.id))?.expiresMs, opened.expiresMs);
        } finally {
          await store.close();
        }

        // What a server of migration 6, beside upgraded ones, writes: rows without a key digest.
        const old = 'fcs_a-session-of-a-server-not-upgraded-yet';
        const oldLink = 'fcl_a-link-of-a-server-not-upgraded-yet';
        await db.exec(
          `INSERT INTO console_sessions (digest, created_ms, expires_ms) VALUES (${hex(digest(old))}, 0, ${LATER})`,
        );
        await db.exec(
          `INSERT INTO console_sign_in_links (digest, expires_ms) VALUES (${hex(digest(oldLink))}, ${LATER})`,
        );
        store = await db.openStore();
        try {
          const sessions = new ConsoleSessions(store, { operatorKeys: [KEY] });
          assert.equal((await store.findConsoleSession(digest(old), 0))?.keyDigest, null);
          assert.equal(await sessions.find(old), null, 'a row that names no key opens nothing');
          assert.equal(await sessions.openWithLink(oldLink), null);
        } finally {
          await store.close();
        }
      } finally {
        await db.remove();
      }
    });
  }
});

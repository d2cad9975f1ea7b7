// The audit log is append-only in the database itself (migration 014), on every store kind: an UPDATE, a DELETE
// or a TRUNCATE of its table fails whoever sends it, here a statement made behind the store's back; only a
// transaction that turned the purge setting on (the retention purge, which logs itself) may delete.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rawDatabase, storeKinds } from '../support.js';

void describe('audit entries are append-only (migration 014)', () => {
  for (const kind of storeKinds()) {
    void it(`refuses an UPDATE, a DELETE and a TRUNCATE of the entries on ${kind.name}`, async () => {
      const db = await rawDatabase(kind, 'feature-014-');
      try {
        const store = await db.openStore();
        try {
          await store.createAccount('Audited account');
        } finally {
          await store.close();
        }
        const count = async (): Promise<number> =>
          Number((await db.query('SELECT count(*)::int AS n FROM audit_entries'))[0]?.n);
        assert.equal(await count(), 1);
        await assert.rejects(
          db.exec(`UPDATE audit_entries SET actor_label = 'someone else'`),
          /append-only: UPDATE/,
        );
        await assert.rejects(db.exec('DELETE FROM audit_entries'), /append-only: DELETE/);
        await assert.rejects(db.exec('TRUNCATE audit_entries'), /append-only: TRUNCATE/);
        // The purge's setting holds for its own transaction only.
        await db.exec(
          `BEGIN; SELECT set_config('feature.audit_purge', 'on', true); DELETE FROM audit_entries WHERE false; COMMIT`,
        );
        await assert.rejects(db.exec('DELETE FROM audit_entries'), /append-only: DELETE/);
        assert.deepEqual(
          (await db.query('SELECT action, actor_label FROM audit_entries')).map((row) => [
            row.action,
            row.actor_label,
          ]),
          [['account.created', 'test']],
        );
      } finally {
        await db.remove();
      }
    });
  }
});

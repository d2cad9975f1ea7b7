// Assignment histories stored as JSON text (migration 005) on every store kind: histories a server of
// migration 4 stored as jsonb read back whole after the upgrade, and a stored history that is not a JSON
// object (written by hand) is read as no history and replaced at the visitor's next write, without failing
// the other visitors of the batch.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MIGRATIONS } from '../../../server/src/store/migrations/index.js';
import { rawDatabase, storeKinds, type RawDatabase } from '../support.js';

/** Migrations 1 to 4, as a server of that version left the database. */
const atMigration4 = async (db: RawDatabase): Promise<void> => {
  await db.exec(
    'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_ms bigint NOT NULL)',
  );
  for (const migration of MIGRATIONS.filter((m) => m.version <= 4)) {
    await db.exec(migration.sql);
    await db.exec(`INSERT INTO schema_migrations VALUES (${migration.version}, '${migration.name}', 0)`);
  }
};

void describe('assignment histories as JSON text (migration 005)', () => {
  for (const kind of storeKinds()) {
    void it(`keeps jsonb histories through the upgrade and survives unreadable ones, on ${kind.name}`, async () => {
      const db = await rawDatabase(kind, 'feature-005-');
      try {
        await atMigration4(db);
        await db.exec(
          `INSERT INTO assignments VALUES
             ('env', 'kept', '{"g1": "v1", "__proto__": "p", "grøup-✓": "variation-😀"}'::jsonb, 1000),
             ('env', 'other', '{"g1": "v2"}'::jsonb, 2000)`,
        );
        let store = await db.openStore();
        try {
          const read = await store.getAssignments('env', ['kept', 'other']);
          const kept = read.find((v) => v.visitorId === 'kept');
          assert.deepEqual(Object.entries(kept?.history ?? {}).sort(), [
            ['__proto__', 'p'],
            ['g1', 'v1'],
            ['grøup-✓', 'variation-😀'],
          ]);
          assert.equal(kept?.lastUsedMs, 1000);
          assert.deepEqual({ ...read.find((v) => v.visitorId === 'other')?.history }, { g1: 'v2' });
        } finally {
          await store.close();
        }

        // Rows written by hand: text that is not JSON, and JSON that is not an object.
        await db.exec(
          `INSERT INTO assignments VALUES ('env', 'broken', '{"g1": "v', 10), ('env', 'listed', '["g1"]', 10)`,
        );
        store = await db.openStore();
        try {
          const read = await store.getAssignments('env', ['broken', 'listed', 'kept']);
          assert.deepEqual(
            read.map((v) => v.visitorId),
            ['kept'],
          );

          // One batch: the unreadable rows, a stored visitor and a new one. Every visitor is written: the
          // unreadable histories are replaced, the stored one merged (its variation winning, §8.4).
          await store.saveAssignments('env', [
            { visitorId: 'broken', history: { g1: 'b1' }, lastUsedMs: 5000 },
            { visitorId: 'kept', history: { g1: 'changed', g2: 'added' }, lastUsedMs: 5000 },
            { visitorId: 'listed', history: { g3: 'l3' }, lastUsedMs: 5000 },
            { visitorId: 'fresh', history: { g1: 'f1' }, lastUsedMs: 5000 },
          ]);
          const after = new Map(
            (await store.getAssignments('env', ['broken', 'kept', 'listed', 'fresh'])).map((v) => [
              v.visitorId,
              { ...v.history },
            ]),
          );
          assert.deepEqual(after.get('broken'), { g1: 'b1' });
          assert.deepEqual(Object.entries(after.get('kept') ?? {}).sort(), [
            ['__proto__', 'p'],
            ['g1', 'v1'],
            ['g2', 'added'],
            ['grøup-✓', 'variation-😀'],
          ]);
          assert.deepEqual(after.get('fresh'), { g1: 'f1' });
          assert.deepEqual(after.get('listed'), { g3: 'l3' });
        } finally {
          await store.close();
        }
      } finally {
        await db.remove();
      }
    });
  }
});

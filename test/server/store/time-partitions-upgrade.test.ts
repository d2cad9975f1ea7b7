// Issue 31: a database written before the monthly partitions (migration 9) is upgraded in place by migration
// 10. Every row is kept with its seq, in the partition of its received month; the idempotency ids stored
// before the upgrade still make a retry a no-op; new rows carry on the seq sequence.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { MIGRATIONS } from '../../../server/src/store/migrations/index.js';
import type { StoredRowReads } from '../../../server/src/store/sql/collect-sql.js';
import type { Store } from '../../../server/src/store/store.js';
import { activation, hit } from '../report/rollups-support.js';
import { rawDatabase, storeKinds } from '../support.js';

/** Statements of a migration (as migrate.ts splits them). */
const statements = (sql: string): string[] =>
  sql
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n')
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

const SEP = Date.UTC(2026, 8, 12);
const OCT = Date.UTC(2026, 9, 3);

for (const kind of storeKinds()) {
  void describe(`upgrading activations and hits to monthly partitions (${kind.name})`, () => {
    let store: (Store & StoredRowReads) | undefined;
    let remove = (): Promise<void> => Promise.resolve();
    after(async () => {
      await store?.close();
      await remove();
    });

    void it('keeps every row, its seq and its idempotency id', async () => {
      const raw = await rawDatabase(kind, 'feature-partitions-upgrade-');
      remove = () => raw.remove();
      // The schema as version 9 left it, and the rows a version-9 server stored (one statement per exec: the
      // embedded database is opened for each).
      const schema = [
        'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_ms bigint NOT NULL)',
      ];
      for (const migration of MIGRATIONS.filter((m) => m.version <= 9)) {
        schema.push(...statements(migration.sql));
        schema.push(`INSERT INTO schema_migrations VALUES (${migration.version}, '${migration.name}', 0)`);
      }
      schema.push(
        `INSERT INTO accounts (id, name, created_ms) VALUES ('acc', 'Upgrade', 0)`,
        `INSERT INTO environments (id, account_id, name, api_key_digest, config_time, created_ms)
         VALUES ('env', 'acc', 'test', '\\x00'::bytea, 1, 0)`,
        `INSERT INTO activations (env_id, hid, visitor_id, anonymous_id, campaign_id, variation_group_id,
           variation_id, created_ms, received_ms)
         VALUES ('env', 'a-1', 'v1', NULL, 'c1', 'g1', 'v1', ${SEP}, ${SEP}),
                ('env', NULL, 'v2', NULL, 'c1', 'g1', 'v2', ${OCT}, ${OCT})`,
        `INSERT INTO hits (env_id, hid, type, visitor_id, customer_id, goal, revenue, created_ms, received_ms, body)
         VALUES ('env', 'h-1', 'EVENT', 'v1', NULL, 'buy', NULL, ${SEP}, ${SEP}, '{}'),
                ('env', 'h-2', 'PAGEVIEW', 'v2', NULL, NULL, NULL, ${OCT}, ${OCT}, '{}'),
                ('env', NULL, 'PAGEVIEW', 'v2', NULL, NULL, NULL, ${OCT}, ${OCT}, '{}')`,
      );
      await raw.exec(schema.join(';\n'));
      const seqs = await raw.query(
        `SELECT 'a' || seq AS s FROM activations UNION ALL SELECT 'h' || seq FROM hits ORDER BY 1`,
      );

      store = (await raw.openStore()) as Store & StoredRowReads;
      assert.deepEqual(
        (await store.listActivations('env')).map((a) => [a.hid, a.visitorId, a.receivedMs]),
        [
          ['a-1', 'v1', SEP],
          [null, 'v2', OCT],
        ],
      );
      assert.deepEqual(
        (await store.listHits('env')).map((h) => [h.hid, h.type, h.receivedMs]),
        [
          ['h-1', 'EVENT', SEP],
          ['h-2', 'PAGEVIEW', OCT],
          [null, 'PAGEVIEW', OCT],
        ],
      );
      // Retries of the ids stored before the upgrade, received now: nothing stored.
      assert.equal(
        await store.insertActivations('env', [
          activation({ vid: 'v1', group: 'g1', variation: 'v1', createdMs: Date.now(), hid: 'a-1' }),
        ]),
        0,
      );
      assert.equal(
        await store.insertHits('env', [hit({ type: 'EVENT', vid: 'v1', createdMs: Date.now(), hid: 'h-1' })]),
        0,
      );
      // A new row: the next seq.
      assert.equal(
        await store.insertHits('env', [
          hit({ type: 'PAGEVIEW', vid: 'v3', createdMs: Date.now(), hid: 'h-3' }),
        ]),
        1,
      );
      await store.close();
      store = undefined;
      const after = await raw.query(
        `SELECT 'a' || seq AS s, tableoid::regclass::text AS p FROM activations
         UNION ALL SELECT 'h' || seq, tableoid::regclass::text FROM hits ORDER BY 1`,
      );
      assert.deepEqual(
        after.map((row) => row.s),
        [...seqs.map((row) => row.s), 'h4'].sort(),
      );
      assert.deepEqual(
        after.filter((row) => row.s !== 'h4').map((row) => row.p),
        ['activations_2026_09', 'activations_2026_10', 'hits_2026_09', 'hits_2026_10', 'hits_2026_10'],
      );
    });
  });
}

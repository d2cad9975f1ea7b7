// Issue 31: instances on one PostgreSQL fold an environment one at a time under its fold lock. A background
// fold that finds the lock taken (another instance folding) folds nothing instead of waiting: that fold or
// the next takes its rows, and a waiting fold would hold a connection idle and then fold the leftovers in a
// second, smaller batch. A fold for a read (settle) waits, since the report must include every row.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { openPostgresStore } from '../../../server/src/store/postgres/postgres.js';
import { foldBatch } from '../../../server/src/store/rollups/rollup-fold-sql.js';
import { FOLD_LOCK } from '../../../server/src/store/rollups/rollup-pending-sql.js';
import type { Queryable, Row } from '../../../server/src/store/sql/sql.js';
import { checkoutCampaign, seedEnvironment } from '../support.js';
import { until } from '../../support/until.js';
import { auditedByTests } from '../test-actor.js';

const url = process.env.DATABASE_URL;

const clientIn = async (schema: string): Promise<pg.Client> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`SET search_path TO "${schema}"`);
  return client;
};

const queryable = (client: pg.Client): Queryable => ({
  query: async (text, params = []) => (await client.query<Row>(text, [...params])).rows,
});

void describe(
  'the fold lock on PostgreSQL',
  { skip: url === undefined || url === '' ? 'DATABASE_URL is not set' : false },
  () => {
    void it('a background fold skips an environment another fold holds; a fold for a read waits for it', async (t) => {
      const schema = `test_fold_lock_${process.pid}_${Date.now()}`;
      const store = auditedByTests(await openPostgresStore({ connectionString: url ?? '', schema }));
      const holder = await clientIn(schema);
      const folder = await clientIn(schema);
      t.after(async () => {
        await holder.end();
        await folder.end();
        await store.close();
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      });
      const env = await seedEnvironment(store, [checkoutCampaign()]);
      // Another instance's fold, as far as this one can tell.
      await holder.query('SELECT pg_advisory_lock($1, hashtext($2))', [FOLD_LOCK, env.envId]);
      const activation = {
        hid: 'a1',
        visitorId: 'v1',
        anonymousId: null,
        campaignId: 'c1',
        variationGroupId: 'vg1',
        variationId: 'v1',
        createdMs: 1,
        receivedMs: 1,
      };
      assert.equal(await store.insertActivations(env.envId, [activation]), 1);

      await folder.query('BEGIN');
      assert.equal(await foldBatch(queryable(folder), env.envId, 500, { wait: false }), 0);
      await folder.query('COMMIT');
      assert.equal(await store.pendingRollupCount(), 1, 'the row still waits, and nothing waited for it');

      await folder.query('BEGIN');
      const waiting = foldBatch(queryable(folder), env.envId, 500, { wait: true });
      // It queues for the lock (a lock not granted), rather than answering without the row.
      await until(
        async () => {
          const rows = await holder.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
          );
          return rows.rows[0]?.n === 1;
        },
        { what: 'the fold to queue for the advisory lock' },
      );
      await holder.query('SELECT pg_advisory_unlock($1, hashtext($2))', [FOLD_LOCK, env.envId]);
      assert.equal(await waiting, 1);
      await folder.query('COMMIT');
      assert.equal(await store.pendingRollupCount(), 0);
      const visitors = (await store.campaignRollups(env.envId, 'c1')).cells.find(
        (c) => c.variationId === 'v1' && c.goalKind === '' && c.day === -1,
      )?.visitors;
      assert.equal(visitors, 1);
    });
  },
);

// Issue 31: on PostgreSQL, report reads go to a connection of their own (a small second pool on the primary,
// or a read replica through DATABASE_REPLICA_URL), so that a report never waits for a connection behind hits
// and decisions. Proved by pointing the report connection at a port where nothing listens: ingestion still
// works, and only the report's read fails.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { openPostgresStore } from '../../../server/src/store/postgres/postgres.js';
import { checkoutCampaign, seedEnvironment } from '../support.js';
import { auditedByTests } from '../test-actor.js';

const url = process.env.DATABASE_URL;

void describe(
  'report reads on PostgreSQL',
  { skip: url === undefined || url === '' ? 'DATABASE_URL is not set' : false },
  () => {
    void it('go to the report connection, not to the pool of hits and decisions', async (t) => {
      const schema = `test_reads_${process.pid}_${Date.now()}`;
      t.after(async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      });
      const seeded = auditedByTests(await openPostgresStore({ connectionString: url ?? '', schema }));
      const env = await seedEnvironment(seeded, [checkoutCampaign()]);
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
      assert.equal(await seeded.insertActivations(env.envId, [activation]), 1);
      const visitors = (await seeded.campaignRollups(env.envId, 'c1')).cells.find(
        (c) => c.variationId === 'v1' && c.goalKind === '' && c.day === -1,
      )?.visitors;
      assert.equal(visitors, 1);
      await seeded.close();

      const cut = auditedByTests(
        await openPostgresStore({
          connectionString: url ?? '',
          schema,
          replicaConnectionString: 'postgres://postgres@127.0.0.1:1/test',
        }),
      );
      try {
        assert.equal(
          await cut.insertActivations(env.envId, [{ ...activation, hid: 'a2', visitorId: 'v2' }]),
          1,
        );
        await assert.rejects(cut.campaignRollups(env.envId, 'c1'), /ECONNREFUSED/);
      } finally {
        await cut.close();
      }
    });
  },
);

// The safety net under configuration propagation: a change whose notification never comes (made with plain
// SQL behind the app's back) is served within the periodic check's interval; on PostgreSQL, a LISTEN
// connection killed by the database reconnects, reloads what it may have missed, and hears NOTIFY again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { BucketingFile } from '../../../src/protocol/index.js';
import { digest } from '../../../server/src/ids.js';
import { migrate } from '../../../server/src/store/migrations/migrate.js';
import { openPgliteThread } from '../../../server/src/store/pglite/pglite-thread.js';
import { openPostgresStore } from '../../../server/src/store/postgres/postgres.js';
import { createSqlStore } from '../../../server/src/store/sql/sql-store.js';
import type { Row } from '../../../server/src/store/sql/sql.js';
import type { Store } from '../../../server/src/store/store.js';
import { checkoutCampaign, keptLogs, post, seedEnvironment, startApp, storeKinds } from '../support.js';
import { until } from '../../support/until.js';
import { auditedByTests } from '../test-actor.js';

/** Plain SQL on the store's database, with no notification. */
interface Behind {
  query(text: string, params: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

const bucketing = async (url: string): Promise<{ etag: string; file: BucketingFile }> => {
  const res = await fetch(url);
  return { etag: res.headers.get('etag') ?? '', file: (await res.json()) as BucketingFile };
};

for (const kind of storeKinds()) {
  void describe(`configuration propagation safety net (${kind.name})`, () => {
    let store: Store;
    let behind: Behind;
    before(async () => {
      const postgres = kind.postgres;
      if (postgres === undefined) {
        // The store and the plain SQL share one in-memory database.
        const sql = await openPgliteThread(null);
        await migrate(sql);
        store = auditedByTests(createSqlStore(sql, 'pglite'));
        behind = { query: (text, params) => sql.query(text, params), close: () => Promise.resolve() };
        return;
      }
      store = auditedByTests(
        await openPostgresStore({
          connectionString: postgres.url,
          schema: postgres.schema,
          listenBackoff: { minDelayMs: 50, maxDelayMs: 500 },
        }),
      );
      const client = new pg.Client({
        connectionString: postgres.url,
        options: `-c search_path="${postgres.schema}"`,
      });
      await client.connect();
      behind = {
        query: async (text, params) => (await client.query(text, params)).rows as Row[],
        close: () => client.end(),
      };
    });
    after(async () => {
      await store.close();
      await behind.close();
      await kind.cleanup();
    });

    void it('serves a change made without a notification within the check interval', async (t) => {
      const server = await startApp(store, { configCheckIntervalMs: 200 });
      t.after(() => server.close());
      const env = await seedEnvironment(store, [checkoutCampaign()]);
      const url = `${server.url}/cdn/${env.envId}/bucketing.json`;
      const first = await bucketing(url);
      assert.equal(first.file.panic, false);

      await behind.query(
        'UPDATE environments SET panic = true, config_time = config_time + 1 WHERE id = $1',
        [env.envId],
      );
      await until(async () => (await bucketing(url)).file.panic, {
        what: 'the panic set behind the app to be served',
        timeoutMs: 3000,
      });
      assert.notEqual((await bucketing(url)).etag, first.etag);

      // A key rotation behind its back too: the new key works, the old one stops.
      const route = `${server.url}/v2/${env.envId}/campaigns`;
      await behind.query('UPDATE environments SET api_key_digest = $2 WHERE id = $1', [
        env.envId,
        digest('fk_rotated-behind-its-back'),
      ]);
      await until(
        async () =>
          (await post(route, { visitorId: 'v' }, { 'x-api-key': 'fk_rotated-behind-its-back' })).status ===
          200,
        { what: 'the key rotated behind the app to be accepted', timeoutMs: 3000 },
      );
      assert.equal((await post(route, { visitorId: 'v' }, { 'x-api-key': env.apiKey })).status, 403);
    });

    void it(
      'reconnects a LISTEN connection the database dropped, reloads, and hears NOTIFY again',
      { skip: kind.postgres === undefined ? 'PostgreSQL only: PGlite notifies in-process' : false },
      async (t) => {
        const postgres = kind.postgres;
        assert.ok(postgres !== undefined && kind.openSibling !== undefined);
        const logs = keptLogs();
        // The periodic check is off here: only the reconnection can bring changes in.
        const server = await startApp(store, { configCheckIntervalMs: 3_600_000, logger: logs.logger });
        t.after(() => server.close());
        const env = await seedEnvironment(store, [checkoutCampaign()]);
        const url = `${server.url}/cdn/${env.envId}/bucketing.json`;
        assert.equal((await bucketing(url)).file.panic, false);

        const listening = async (): Promise<number[]> =>
          (
            await behind.query('SELECT pid FROM pg_stat_activity WHERE query = $1', [
              `LISTEN "feature_${postgres.schema}_config"`,
            ])
          ).map((row) => Number(row.pid));
        const [pid] = await listening();
        assert.ok(pid !== undefined, 'the app listens');
        await behind.query('SELECT pg_terminate_backend($1)', [pid]);
        // Published while the listener is down, with no notification at all: only the reload catches it.
        await behind.query(
          'UPDATE environments SET panic = true, config_time = config_time + 1 WHERE id = $1',
          [env.envId],
        );
        await until(async () => (await bucketing(url)).file.panic, {
          what: 'the panic published while the listener was down to be served',
          timeoutMs: 5000,
        });
        await until(async () => (await listening()).some((p) => p !== pid), {
          what: 'a new LISTEN connection',
          timeoutMs: 5000,
        });
        assert.ok(logs.records.some((r) => String(r.msg).startsWith('configuration notifications lost')));
        assert.ok(logs.records.some((r) => String(r.msg).startsWith('configuration notifications resumed')));

        const sibling = await kind.openSibling();
        t.after(() => sibling.close());
        await sibling.setPanic(env.envId, false);
        await until(async () => !(await bucketing(url)).file.panic, {
          what: "the sibling's panic off to be heard by NOTIFY",
          timeoutMs: 3000,
        });
      },
    );
  });
}

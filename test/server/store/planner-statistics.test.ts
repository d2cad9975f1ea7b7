// Planner statistics (issue 31) on every store kind: a store whose migrations ran leaves its tables analyzed,
// a PostgreSQL server with autovacuum off is named in one warning line, and the embedded store's schedule
// analyzes the tables that collection filled, since PGlite has no autovacuum.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { MIGRATIONS } from '../../../server/src/store/migrations/index.js';
import { migrate } from '../../../server/src/store/migrations/migrate.js';
import { openPgliteThread } from '../../../server/src/store/pglite/pglite-thread.js';
import { openPgliteStore } from '../../../server/src/store/pglite/pglite.js';
import {
  analyzeTables,
  checkAutovacuum,
  STORE_TABLES,
  tablesDueForAnalyze,
  type AnalyzeRun,
} from '../../../server/src/store/sql/planner-statistics.js';
import { openPostgresStore } from '../../../server/src/store/postgres/postgres.js';
import type { Queryable, Sql } from '../../../server/src/store/sql/sql.js';
import type { HitRow } from '../../../server/src/store/collect-store.js';
import { rawDatabase, seedEnvironment, storeKinds, type RawDatabase } from '../support.js';
import { freshDataDir } from '../template-data-dir.js';
import { until } from '../../support/until.js';
import { auditedByTests } from '../test-actor.js';

const HITS = 2000;

/**
 * A database as a server of migration 7 left it, with HITS hits in environment "env" (written by hand), in one
 * exec: each opens PGlite on the folder anew.
 */
const atMigration7WithHits = (db: RawDatabase): Promise<void> =>
  db.exec(
    [
      'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_ms bigint NOT NULL)',
      ...MIGRATIONS.filter((m) => m.version <= 7).flatMap((migration) => [
        migration.sql,
        `INSERT INTO schema_migrations VALUES (${migration.version}, '${migration.name}', 0)`,
      ]),
      "INSERT INTO accounts VALUES ('acc', 'Old', 0)",
      `INSERT INTO environments (id, account_id, name, api_key_digest, config_time, created_ms)
         VALUES ('env', 'acc', 'old', '\\x00', 1, 0)`,
      `INSERT INTO hits (env_id, hid, type, visitor_id, goal, created_ms, received_ms, body)
         SELECT 'env', 'h' || g, 'EVENT', 'v' || (g % 100), 'goal', g, g, '{}'::jsonb
           FROM generate_series(1, ${HITS}) AS g`,
    ].join(';\n'),
  );

/**
 * pg_class.reltuples of the store's tables in the current schema (partitioned ones too, migration 10): -1
 * until a table is first analyzed.
 */
const reltuples = async (db: RawDatabase): Promise<Map<string, number>> => {
  const rows = await db.query(
    `SELECT relname, reltuples FROM pg_class
      WHERE relnamespace = current_schema()::regnamespace AND relkind IN ('r', 'p')`,
  );
  return new Map(rows.map((row) => [String(row.relname), Number(row.reltuples)]));
};

for (const kind of storeKinds()) {
  void describe(`planner statistics after migrations (${kind.name})`, () => {
    let db: RawDatabase;
    before(async () => {
      db = await rawDatabase(kind, 'feature-planner-statistics-');
      await atMigration7WithHits(db);
    });
    after(() => db.remove());

    void it('leaves every store table analyzed once the store applied the migrations it lacked', async () => {
      assert.equal((await reltuples(db)).get('hits'), -1, 'the old server never analyzed');
      const store = await db.openStore();
      try {
        if (kind.postgres !== undefined) {
          // Only PostgreSQL keeps the activity view across the store's connections (PGlite's is per process).
          const analyzed = await db.query(
            `SELECT relname FROM pg_stat_user_tables
              WHERE schemaname = current_schema() AND last_analyze IS NOT NULL`,
          );
          const names = analyzed.map((row) => String(row.relname));
          for (const table of STORE_TABLES) assert.ok(names.includes(table), `${table} analyzed`);
        }
      } finally {
        await store.close();
      }
      const tuples = await reltuples(db);
      // Below ANALYZE's 30 000-row sample it reads every row: the count is exact.
      assert.equal(tuples.get('hits'), HITS);
      for (const table of STORE_TABLES) assert.ok((tuples.get(table) ?? -1) >= 0, `${table} analyzed`);
      const stats = await db.query(
        `SELECT n_distinct FROM pg_stats
          WHERE schemaname = current_schema() AND tablename = 'hits' AND attname = 'visitor_id'`,
      );
      // 100 distinct visitor ids: the planner now knows how selective a visitor is.
      assert.equal(Number(stats[0]?.n_distinct), 100);
    });
  });
}

/** What the real server's SHOW answers, read independently of the code under test. */
const showOn = async (client: pg.Client, setting: string): Promise<string> =>
  String((await client.query<Record<string, unknown>>(`SHOW ${setting}`)).rows[0]?.[setting]);

/** A server whose SHOW answers `settings` (what a PostgreSQL with autovacuum off answers). */
const answering = (settings: Record<string, string>): Queryable => ({
  query: (text) => {
    const setting = /^SHOW (\w+)$/.exec(text)?.[1];
    const value = setting === undefined ? undefined : settings[setting];
    if (setting === undefined || value === undefined) return Promise.reject(new Error(`unexpected ${text}`));
    return Promise.resolve([{ [setting]: value }]);
  },
});

void describe('checkAutovacuum', () => {
  void it('names autovacuum and both ways to turn it on when it is off', async () => {
    const warning = await checkAutovacuum(answering({ autovacuum: 'off', track_counts: 'on' }));
    assert.ok(warning !== null);
    assert.match(warning, /autovacuum is off/);
    assert.match(warning, /autovacuum = on in postgresql\.conf/);
    assert.match(warning, /ALTER SYSTEM SET autovacuum = on; SELECT pg_reload_conf\(\);/);
    assert.doesNotMatch(warning, /track_counts/);
    assert.doesNotMatch(warning, /\n/, 'one line');
  });

  void it('names track_counts, without which autovacuum sees no change', async () => {
    const warning = await checkAutovacuum(answering({ autovacuum: 'on', track_counts: 'off' }));
    assert.match(warning ?? '', /track_counts is off/);
    assert.match(warning ?? '', /ALTER SYSTEM SET track_counts = on;/);
    const both = await checkAutovacuum(answering({ autovacuum: 'off', track_counts: 'off' }));
    assert.match(both ?? '', /autovacuum and track_counts are off/);
  });

  void it('says nothing when both are on', async () => {
    assert.equal(await checkAutovacuum(answering({ autovacuum: 'on', track_counts: 'on' })), null);
  });

  const url = process.env.DATABASE_URL;
  void it(
    'on the local PostgreSQL, warns exactly when its autovacuum is off, and the store says so at open',
    { skip: url === undefined || url === '' ? 'DATABASE_URL is not set' : false },
    async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const schema = `test_stats_${process.pid}_${Date.now()}`;
      try {
        const settings = {
          autovacuum: await showOn(client, 'autovacuum'),
          track_counts: await showOn(client, 'track_counts'),
        };
        const off = settings.autovacuum === 'off' || settings.track_counts === 'off';
        const real: Queryable = {
          query: async (text) => (await client.query<Record<string, unknown>>(text)).rows,
        };
        const warning = await checkAutovacuum(real);
        assert.equal(warning !== null, off, `SHOW answered ${JSON.stringify(settings)}`);

        const heard: string[] = [];
        const store = auditedByTests(
          await openPostgresStore({
            connectionString: url ?? '',
            schema,
            onWarning: (text) => heard.push(text),
          }),
        );
        await store.close();
        assert.deepEqual(heard, warning === null ? [] : [warning]);
      } finally {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      }
    },
  );
});

/** Resolves with the first run `onRun` hears that analyzed `table`. */
const runOf = (table: string): { onRun: (run: AnalyzeRun) => void; heard: Promise<AnalyzeRun> } => {
  let resolve: (run: AnalyzeRun) => void = () => undefined;
  const heard = new Promise<AnalyzeRun>((r) => (resolve = r));
  return { onRun: (run) => (run.tables.includes(table) ? resolve(run) : undefined), heard };
};

const hit = (i: number): HitRow => ({
  hid: `h-${i}`,
  type: 'EVENT',
  visitorId: `v${i % 50}`,
  customerId: null,
  goal: 'signup',
  revenue: null,
  createdMs: i,
  receivedMs: i,
  body: { t: 'EVENT', ea: 'signup' },
});

void describe('the schedule', () => {
  void it(
    'analyzes and vacuums hits once collection stored enough of them',
    { timeout: 60_000 },
    async () => {
      const { onRun, heard } = runOf('hits');
      // A short interval stands for the minute; the threshold is the default (50 rows + 10 % of the table).
      // A copy of a migrated folder rather than memory, where opening would run initdb and every migration.
      const dir = await freshDataDir('feature-stats-');
      const store = auditedByTests(
        await openPgliteStore(dir, { analyzeSchedule: { intervalMs: 20, onRun } }),
      );
      // The schedule's timer and PGlite's idle worker are unref'd: something must keep the process alive.
      const alive = setInterval(() => undefined, 1000);
      try {
        const { envId } = await seedEnvironment(store, []);
        const rows = Array.from({ length: 300 }, (_, i) => hit(i));
        assert.equal(await store.insertHits(envId, rows), 300);
        const run = await heard;
        assert.equal(run.vacuumed, true);
      } finally {
        clearInterval(alive);
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  const url = process.env.DATABASE_URL;
  void it(
    'runs on a PostgreSQL store too while the server has autovacuum off',
    { timeout: 60_000, skip: url === undefined || url === '' ? 'DATABASE_URL is not set' : false },
    async (t) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const autovacuum = await showOn(client, 'autovacuum');
      const schema = `test_stats_${process.pid}_${Date.now()}`;
      try {
        if (autovacuum !== 'off') {
          t.skip('this PostgreSQL runs autovacuum: the store leaves statistics to it');
          return;
        }
        const { onRun, heard } = runOf('hits');
        const store = auditedByTests(
          await openPostgresStore({
            connectionString: url ?? '',
            schema,
            analyzeSchedule: { intervalMs: 20, onRun },
          }),
        );
        const alive = setInterval(() => undefined, 1000);
        try {
          const { envId } = await seedEnvironment(store, []);
          await store.insertHits(
            envId,
            Array.from({ length: 300 }, (_, i) => hit(i)),
          );
          // PostgreSQL publishes a connection's counters when it goes idle, within seconds.
          assert.ok((await heard).tables.includes('hits'));
        } finally {
          clearInterval(alive);
          await store.close();
        }
        const analyzed = await client.query<Record<string, unknown>>(
          "SELECT last_analyze FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'hits'",
          [schema],
        );
        assert.ok(analyzed.rows[0]?.last_analyze instanceof Date);
      } finally {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      }
    },
  );

  void it('finds a table due once it changed past the threshold, and no longer once analyzed', async () => {
    const sql: Sql = await openPgliteThread(null);
    try {
      await migrate(sql);
      assert.deepEqual(await tablesDueForAnalyze(sql), [], 'migrations leave nothing due');
      await sql.query("INSERT INTO accounts VALUES ('acc', 'A', 0)");
      await sql.query(
        `INSERT INTO environments (id, account_id, name, api_key_digest, config_time, created_ms)
           VALUES ('env', 'acc', 'e', '\\x00', 1, 0)`,
      );
      await sql.query(
        `INSERT INTO hits (env_id, hid, type, visitor_id, goal, created_ms, received_ms, body)
           SELECT 'env', 'h' || g, 'EVENT', 'v' || g, 'goal', g, g, '{}'::jsonb FROM generate_series(1, 200) AS g`,
      );
      // PGlite flushes its activity counters about once a second: the table shows as due at the next flush.
      const due = await until(
        async () => {
          const tables = await tablesDueForAnalyze(sql);
          return tables.includes('hits') && tables;
        },
        { what: 'hits due for analyze', timeoutMs: 10_000, intervalMs: 50 },
      );
      assert.deepEqual(due, ['hits']);
      const run = await analyzeTables(sql, ['accounts']);
      assert.ok(run.tables.includes('hits') && run.tables.includes('accounts'));
      assert.equal(run.vacuumed, false);
      assert.deepEqual(await tablesDueForAnalyze(sql), []);
    } finally {
      await sql.close();
    }
  });
});

// Issue 31: an upgrade says what it does. A database written by version 8 gets migrations 9-11, which mark,
// move and re-mark every stored row: minutes on a million rows. Each migration is said as it starts, the row
// move of migration 10 says how far it is (rows done of all, with what is left), and each step says how long
// it took. A new database says nothing (the first-run notice covers it).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MIGRATIONS } from '../../../server/src/store/migrations/index.js';
import { migrate } from '../../../server/src/store/migrations/migrate.js';
import { openPgliteThread } from '../../../server/src/store/pglite/pglite-thread.js';
import { num, type Sql } from '../../../server/src/store/sql/sql.js';
import { writeVersion8Database } from '../report/version-8-database.js';

const VISITORS = 100;

/** The stored activations and hits, in seq order, as (table, seq, received time). */
const storedRows = async (sql: Pick<Sql, 'query'>): Promise<string[]> =>
  (
    await sql.query(
      `SELECT 'a' AS t, seq, received_ms FROM activations UNION ALL SELECT 'h', seq, received_ms FROM hits
       ORDER BY t, seq`,
    )
  ).map((row) => `${String(row.t)} ${String(row.seq)} ${String(row.received_ms)}`);

void describe('migrate: the lines of an upgrade', () => {
  const dirs: string[] = [];
  const folder = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'feature-migrate-progress-'));
    dirs.push(dir);
    return dir;
  };
  after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  void it('says each migration of an upgrade, how far the row move is, and how long each took', async () => {
    const dir = folder();
    // One exposure every 5 days: the rows span about 33 month partitions.
    await writeVersion8Database(dir, VISITORS, 5 * 86_400_000);
    const sql = await openPgliteThread(dir);
    try {
      const before = await storedRows(sql);
      const lines: string[] = [];
      let clock = 0;
      // Every reading of the pinned clock moves it by a second: with a line every second, each step is said.
      // 7 rows per statement: the move takes many chunks, each after the last seq of the one before.
      await migrate(sql, {
        onProgress: (line) => lines.push(line),
        everyMs: 1_000,
        now: () => (clock += 1_000),
        chunkRows: 7,
      });
      const rows = VISITORS * 2 + VISITORS / 10;
      assert.equal(before.length, rows);
      assert.deepEqual(await storedRows(sql), before, 'every row moved once, with its seq and times');
      // Migration 11 gave every mark its row's received time: each mark finds its row on both.
      for (const table of ['activations', 'hits'])
        assert.equal(
          num(
            (
              await sql.query(
                `SELECT count(*) AS n FROM rollup_pending_${table} p LEFT JOIN ${table} r
                   ON r.env_id = p.env_id AND r.seq = p.seq AND r.received_ms = p.received_ms
                 WHERE r.seq IS NULL`,
              )
            )[0] ?? {},
            'n',
          ),
          0,
          `no ${table} mark without its row`,
        );
      const marks = await sql.query(
        'SELECT (SELECT count(*) FROM rollup_pending_activations) + (SELECT count(*) FROM rollup_pending_hits) AS n',
      );
      // Every activation and every hit (all of them goal hits) waits to be folded.
      assert.equal(num(marks[0] ?? {}, 'n'), rows);
      // Every migration after version 8 is said, whichever is the newest today.
      const upgrades = MIGRATIONS.filter((migration) => migration.version > 8).map(({ name }) => name);
      for (const name of upgrades)
        assert.ok(
          lines.includes(`Upgrading the database, migration ${name}…`),
          `${name} is said (${lines.join(' | ')})`,
        );
      const moves = lines.filter((line) =>
        line.startsWith('Upgrading the database, migration 010-time-partitions: '),
      );
      assert.ok(
        moves.some((line) => line.includes(` of ${rows.toLocaleString('en-US')} rows done (`)),
        `the move says rows done of all (${moves.join(' | ')})`,
      );
      assert.ok(
        moves.some((line) => / rows done \(\d+ %\), about \d+ s left$/.test(line)),
        `a line before the end says what is left (${moves.join(' | ')})`,
      );
      const newest = upgrades.at(-1) ?? '';
      assert.match(
        lines.at(-1) ?? '',
        new RegExp(`^Upgrading the database, migration ${newest}: done in \\d+ s$`),
      );
    } finally {
      await sql.close();
    }
  });

  void it('says nothing while it creates a new database', async () => {
    const sql = await openPgliteThread(folder());
    try {
      const lines: string[] = [];
      await migrate(sql, { onProgress: (line) => lines.push(line), everyMs: 0 });
      assert.deepEqual(lines, []);
    } finally {
      await sql.close();
    }
  });
});

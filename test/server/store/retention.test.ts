// Issue 31: FEATURE_RETENTION_DAYS drops whole months of activations and hits older than the retention, and the
// reports stay whole: the rollups hold what the dropped rows counted, and later folds keep the days before the
// horizon as they are (final-days.ts), so a late identity link or a late old exposure changes only days from
// the horizon on. A rebuild from stored rows refuses once anything was dropped. Time is injected: the rows sit
// in September to November 2026 and the retention runs "on" 2026-12-10.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readServerConfig } from '../../../server/src/config.js';
import { rebuildRollups } from '../../../server/src/report/rollups/fold-all.js';
import type { StoredRowReads } from '../../../server/src/store/sql/collect-sql.js';
import { applyRetention, retentionHorizon } from '../../../server/src/store/sql/retention-sql.js';
import type { StoredRollupCell } from '../../../server/src/store/rollups/rollups-sql.js';
import { startStorageUpkeep } from '../../../server/src/store/storage-upkeep.js';
import type { Store } from '../../../server/src/store/store.js';
import { createMonthPartition } from '../../../server/src/store/sql/time-partitions.js';
import {
  activation,
  differences,
  hit,
  rollupEnvironment,
  rollupReport,
  type ReportPair,
} from '../report/rollups-support.js';
import { startApp, storeKinds } from '../support.js';
import {
  openBareDatabase,
  openStoreWithSql,
  partitionNames,
  type StoreWithSql,
} from './partitions-support.js';

const DAY = 86_400_000;
const at = (month: number, day: number, hour = 10): number => Date.UTC(2026, month - 1, day, hour);
/** The horizon of a 45-day retention on 2026-12-10: 2026-10-26 is in October, so September goes. */
const H = Date.UTC(2026, 9, 1);
const FIRST_KEPT_DAY = H / DAY;
const RUN_AT = at(12, 10);

const sortedCells = (cells: readonly StoredRollupCell[]): StoredRollupCell[] =>
  [...cells].sort((a, b) =>
    JSON.stringify([a.groupId, a.variationId, a.goalKind, a.goal, a.day]).localeCompare(
      JSON.stringify([b.groupId, b.variationId, b.goalKind, b.goal, b.day]),
    ),
  );

/** The cells without the first activation's time (a late old exposure moves it, which is right). */
const withoutFirsts = (cells: readonly StoredRollupCell[]): StoredRollupCell[] =>
  sortedCells(cells).map((cell) => ({ ...cell, firstMs: null, firstSeq: null }));

const perDayBefore = (cells: readonly StoredRollupCell[]): StoredRollupCell[] =>
  withoutFirsts(cells).filter((cell) => cell.day >= 0 && cell.day < FIRST_KEPT_DAY);

void describe('the retention horizon', () => {
  void it('is the start of the UTC month holding now minus the retention', () => {
    assert.equal(retentionHorizon(RUN_AT, 45), H);
    assert.equal(retentionHorizon(Date.UTC(2026, 10, 1), 1), H);
    assert.equal(retentionHorizon(Date.UTC(2026, 10, 1, 0, 0, 0, 1), 0), Date.UTC(2026, 10, 1));
  });

  void it('comes from FEATURE_RETENTION_DAYS, a whole number of days; unset keeps every row', () => {
    assert.equal(readServerConfig({}).retentionDays, null);
    assert.equal(readServerConfig({ FEATURE_RETENTION_DAYS: '' }).retentionDays, null);
    assert.equal(readServerConfig({ FEATURE_RETENTION_DAYS: '400' }).retentionDays, 400);
    for (const bad of ['0', '-3', '1.5', '30d', 'forever', '1e3'])
      assert.throws(
        () => readServerConfig({ FEATURE_RETENTION_DAYS: bad }),
        (error: Error) =>
          error.message.startsWith(
            `FEATURE_RETENTION_DAYS=${bad} is invalid: set it to a whole number of days`,
          ) && error.message.includes('unset it to keep every row'),
      );
  });
});

for (const kind of storeKinds()) {
  void describe(`retention of activations and hits (${kind.name})`, () => {
    let db: StoreWithSql;
    let store: Store & StoredRowReads;
    let envId: string;
    let cellsBefore: StoredRollupCell[];
    let reportBefore: ReportPair;
    const lines: string[] = [];

    before(async () => {
      db = await openStoreWithSql(kind);
      store = db.store as Store & StoredRowReads;
      const account = await store.createAccount('Retention');
      envId = await rollupEnvironment(store, account.id, 'retention');
      // As the upkeep would have on 2026-09-01: September, October and November exist.
      await store.keepPartitions(at(9, 1));
      await store.insertActivations(envId, [
        // u1: exposed in September, converts then and in October.
        activation({ vid: 'u1', group: 'g1', variation: 'v1', createdMs: at(9, 10), hid: 'a-u1' }),
        // u2: visits without ids, two in one window on 09-12 and one on 10-03.
        activation({ vid: 'u2', group: 'g1', variation: 'v2', createdMs: at(9, 12) }),
        activation({ vid: 'u2', group: 'g1', variation: 'v2', createdMs: at(9, 12) + 600_000 }),
        activation({ vid: 'u2', group: 'g1', variation: 'v2', createdMs: at(10, 3) }),
        // anon3: an anonymous visitor of September, who logs in as u4 after the drop.
        activation({ vid: 'anon3', group: 'g1', variation: 'v1', createdMs: at(9, 20), hid: 'a-anon3' }),
        // u4: exposed in November.
        activation({ vid: 'u4', group: 'g1', variation: 'v2', createdMs: at(11, 2), hid: 'a-u4' }),
        // u5: visits without ids in September; an older exposure of theirs arrives after the drop.
        activation({ vid: 'u5', group: 'g1', variation: 'v1', createdMs: at(9, 15) }),
      ]);
      await store.insertHits(envId, [
        hit({ type: 'EVENT', vid: 'u1', createdMs: at(9, 11), hid: 'h-u1' }),
        hit({ type: 'TRANSACTION', vid: 'u1', goal: 'buy', revenue: 20, createdMs: at(10, 5) }),
        hit({ type: 'EVENT', vid: 'u2', createdMs: at(9, 13) }),
        hit({ type: 'EVENT', vid: 'anon3', createdMs: at(9, 21) }),
        hit({ type: 'TRANSACTION', vid: 'u4', goal: 'buy', revenue: 10, createdMs: at(11, 3) }),
        hit({ type: 'EVENT', vid: 'u5', createdMs: at(9, 16) }),
        hit({ type: 'PAGEVIEW', vid: 'u5', createdMs: at(9, 16) }),
      ]);
      cellsBefore = sortedCells((await store.campaignRollups(envId, 'c1')).cells);
      reportBefore = await rollupReport(store, envId, 'c1');
    });
    after(async () => {
      await db.close();
      await kind.cleanup();
    });

    void it('drops the whole months before the horizon, one log line each, and keeps the rest', async () => {
      const upkeep = await startStorageUpkeep(store, {
        retentionDays: 45,
        now: () => RUN_AT,
        log: { info: (line) => lines.push(line), warn: (line) => lines.push(`WARN ${line}`) },
      });
      await upkeep.stop();
      assert.deepEqual(
        lines.filter((line) => line.startsWith('retention')),
        [
          'retention: dropped activations_2026_09, 5 rows received in 2026-09 (UTC)',
          'retention: dropped hits_2026_09, 5 rows received in 2026-09 (UTC)',
        ],
      );
      assert.equal(await store.retentionHorizon(), H);
      for (const table of ['activations', 'hits'])
        assert.ok(!(await partitionNames(db, table)).includes(`${table}_2026_09`));
      assert.deepEqual(
        (await store.listActivations(envId)).map((a) => [a.visitorId, a.createdMs]),
        [
          ['u2', at(10, 3)],
          ['u4', at(11, 2)],
        ],
      );
      assert.deepEqual(
        (await store.listHits(envId)).map((h) => [h.visitorId, h.createdMs]),
        [
          ['u1', at(10, 5)],
          ['u4', at(11, 3)],
        ],
      );
      // The ids of the dropped months are forgotten with them; the others are kept.
      const ids = await db.query('SELECT hid FROM collected_ids ORDER BY hid');
      assert.deepEqual(
        ids.map((row) => row.hid),
        ['a-u4'],
      );
      // A second run the same day has nothing left to drop.
      const again = await store.applyRetention(H);
      assert.deepEqual(again.dropped, []);
    });

    void it('leaves every report as it was', async () => {
      assert.deepEqual(sortedCells((await store.campaignRollups(envId, 'c1')).cells), cellsBefore);
      assert.deepEqual(differences(await rollupReport(store, envId, 'c1'), reportBefore), []);
    });

    void it('refuses a rebuild from the stored rows, saying why and what to do', async () => {
      await assert.rejects(
        rebuildRollups(store),
        (error: Error) =>
          /cannot be rebuilt: FEATURE_RETENTION_DAYS dropped the activations and hits received before 2026-10-01T00:00:00\.000Z/.test(
            error.message,
          ) && /restore a backup taken before the drop/.test(error.message),
      );
      assert.deepEqual(sortedCells((await store.campaignRollups(envId, 'c1')).cells), cellsBefore);
      // Through a running server (the CLI's way on the embedded store): refused at once, with the same reason.
      const key = 'retention-test-operator-key-0123456789';
      const server = await startApp(store, { operatorKeys: [key] });
      try {
        const answer = await fetch(`${server.url}/admin/v1/reports/rebuild`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}` },
        });
        assert.equal(answer.status, 409);
        const body = (await answer.json()) as { code: string; message: string };
        assert.equal(body.code, 'conflict');
        assert.match(body.message, /cannot be rebuilt: FEATURE_RETENTION_DAYS dropped/);
      } finally {
        await server.close();
      }
    });

    void it('counts a late identity link only from the horizon on', async () => {
      // anon3 logs in as u4 on 12-01: both persons are computed again, and anon3's September rows are gone.
      await store.insertHits(envId, [hit({ type: 'EVENT', vid: 'anon3', cuid: 'u4', createdMs: at(12, 1) })]);
      const cells = (await store.campaignRollups(envId, 'c1')).cells;
      assert.deepEqual(perDayBefore(cells), perDayBefore(cellsBefore));
      // What changed: u4 (v2) converted on 12-01; anon3 still counts as v1's September visitor and converter.
      const changed = withoutFirsts(cells).filter(
        (cell) => !withoutFirsts(cellsBefore).some((old) => JSON.stringify(old) === JSON.stringify(cell)),
      );
      // Before the link: add_to_cart seen by u1, u2, anon3 and u5; converted in v2 by u2 only.
      assert.deepEqual(
        changed.map((c) => [c.variationId, c.goal, c.day, c.conversions, c.converters, c.seen]),
        [
          ['', 'add_to_cart', -1, 0, 0, 5],
          ['v2', 'add_to_cart', -1, 0, 2, 0],
          ['v2', 'add_to_cart', Math.floor(at(12, 1) / DAY), 1, 0, 0],
        ],
      );
    });

    void it('keeps the days before the horizon when an exposure older than the stored first one arrives', async () => {
      const cellsThen = (await store.campaignRollups(envId, 'c1')).cells;
      // u5's exposure of 08-20, queued on a device until 12-02: older than their stored first (09-15).
      await store.insertActivations(envId, [
        activation({
          vid: 'u5',
          group: 'g1',
          variation: 'v1',
          createdMs: at(8, 20),
          qt: at(12, 2) - at(8, 20),
        }),
      ]);
      const cells = (await store.campaignRollups(envId, 'c1')).cells;
      assert.deepEqual(withoutFirsts(cells), withoutFirsts(cellsThen));
    });
  });
}

for (const kind of storeKinds()) {
  void describe(`retention and rows not folded yet (${kind.name})`, () => {
    void it('keeps a month whose rows still wait to be folded, and drops the months before it', async () => {
      const db = await openBareDatabase(kind);
      try {
        await db.sql.query(`INSERT INTO accounts (id, name, created_ms) VALUES ('acc', 'A', 0)`);
        await db.sql.query(
          `INSERT INTO environments (id, account_id, name, api_key_digest, config_time, created_ms)
           VALUES ('env', 'acc', 'e', '\\x00'::bytea, 1, 0)`,
        );
        for (const month of [7, 8])
          for (const table of ['activations', 'hits'] as const)
            await db.sql.transaction((tx) => createMonthPartition(tx, table, Date.UTC(2026, month, 1)));
        // August's row is folded (no mark); September's still waits for its fold.
        const rows = await db.sql.query(
          `INSERT INTO activations (env_id, hid, visitor_id, campaign_id, variation_group_id, variation_id,
             created_ms, received_ms)
           VALUES ('env', NULL, 'v', 'c1', 'g1', 'v1', ${at(8, 5)}, ${at(8, 5)}),
                  ('env', NULL, 'v', 'c1', 'g1', 'v1', ${at(9, 5)}, ${at(9, 5)}) RETURNING seq`,
        );
        await db.sql.query(
          `INSERT INTO rollup_pending_activations (env_id, seq, received_ms) VALUES ('env', $1, ${at(9, 5)})`,
          [rows[1]?.seq],
        );
        const outcome = await applyRetention(db.sql, H, () => Promise.resolve());
        assert.deepEqual(
          outcome.dropped.map((p) => [p.name, p.rows]),
          [
            ['activations_2026_08', 1],
            ['hits_2026_08', 0],
          ],
        );
        assert.equal(outcome.postponed, 'activations_2026_09');
        // Rows before September may be gone: the folds keep those days as they are.
        assert.equal(outcome.horizonMs, Date.UTC(2026, 8, 1));
        const left = await db.sql.query(
          `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
           WHERE i.inhparent = to_regclass('activations') ORDER BY 1`,
        );
        assert.ok(left.some((row) => row.relname === 'activations_2026_09'));
        assert.ok(!left.some((row) => row.relname === 'activations_2026_08'));
      } finally {
        await db.close();
      }
    });
  });
}

// Issue 31: a database written before the rollups (migration 8) is upgraded in place. Migration 9 marks every
// stored activation, goal hit and identity link, the backfill folds them with progress lines and an estimate,
// and every report then equals the one the server computed before the upgrade (reference-tally.ts is that
// computation: the report of every version up to 8, from every stored row).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { reportOfTally } from '../../../server/src/report/build-report.js';
import { tallyCampaign } from '../../../server/src/report/campaign-tally.js';
import { scanCampaign } from '../../../server/src/report/reference-tally.js';
import { foldAll } from '../../../server/src/report/rollups/fold-all.js';
import { MIGRATIONS } from '../../../server/src/store/migrations/index.js';
import { openPgliteThread } from '../../../server/src/store/pglite-thread.js';
import { openPgliteStore } from '../../../server/src/store/pglite.js';
import { checkoutCampaign } from '../support.js';

const VISITORS = 3_000;
const NOW = new Date(Date.UTC(2026, 10, 28));
const START = Date.UTC(2026, 10, 1);

/** Statements of a migration (as migrate.ts splits them). */
const statements = (sql: string): string[] =>
  sql
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n')
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

void describe('upgrading a database written before the rollups', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-rollups-upgrade-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('backfills with progress, and every report equals the one before the upgrade', async () => {
    // The schema as version 8 left it, with the rows a version-8 server stored.
    const thread = await openPgliteThread(dir);
    await thread.exec(
      'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_ms bigint NOT NULL)',
    );
    for (const migration of MIGRATIONS.filter((m) => m.version <= 8)) {
      for (const statement of statements(migration.sql)) await thread.query(statement);
      await thread.query('INSERT INTO schema_migrations VALUES ($1, $2, 0)', [
        migration.version,
        migration.name,
      ]);
    }
    await thread.close();
    // A version-8 server's rows, written as it wrote them (the store opens only at the newest version).
    const env = { envId: 'env-upgrade' };
    const old = await openPgliteThread(dir);
    await old.query(`INSERT INTO accounts (id, name, created_ms) VALUES ('acc-upgrade', 'Upgrade', 0)`);
    await old.query(
      `INSERT INTO environments (id, account_id, name, api_key_digest, config_time, created_ms)
       VALUES ($1, 'acc-upgrade', 'test', '\\x00'::bytea, 1, 0)`,
      [env.envId],
    );
    const campaign = checkoutCampaign();
    await old.query(
      `INSERT INTO campaigns (env_id, id, position, state, body, created_ms, updated_ms, body_bytes, targetings,
         list_items, pattern_chars) VALUES ($1, 'c1', 0, 'active', $2::jsonb, 0, 0, $3, 1, 0, 0)`,
      [env.envId, JSON.stringify(campaign), JSON.stringify(campaign).length],
    );
    await old.query(`INSERT INTO variation_groups (env_id, id, campaign_id) VALUES ($1, 'vg1', 'c1')`, [
      env.envId,
    ]);
    await old.query(
      `INSERT INTO variations (env_id, id, variation_group_id) VALUES ($1, 'v1', 'vg1'), ($1, 'v2', 'vg1')`,
      [env.envId],
    );
    // Visitors alternate between the variations; every third has no hid (visit windows); every fifth logs in
    // on its hit (an identity link); a tenth convert, some before their exposure was stored.
    await old.exec(`
      INSERT INTO activations (env_id, hid, visitor_id, anonymous_id, campaign_id, variation_group_id, variation_id,
        created_ms, received_ms)
      SELECT '${env.envId}', CASE WHEN i % 3 = 0 THEN NULL ELSE 'a-' || i END, 'visitor-' || (i % ${VISITORS}), NULL,
        'c1', 'vg1', CASE WHEN i % 2 = 0 THEN 'v1' ELSE 'v2' END, ${START} + i * 60000, ${START} + i * 60000
      FROM generate_series(0, ${VISITORS * 2 - 1}) AS i;
      INSERT INTO hits (env_id, hid, type, visitor_id, customer_id, goal, revenue, created_ms, received_ms, body)
      SELECT '${env.envId}', 'h-' || i, CASE WHEN i % 4 = 0 THEN 'TRANSACTION' ELSE 'EVENT' END, 'visitor-' || i,
        CASE WHEN i % 5 = 0 THEN 'user-' || (i % 97) ELSE NULL END,
        CASE WHEN i % 4 = 0 THEN 'Purchase' ELSE 'add_to_cart' END, CASE WHEN i % 4 = 0 THEN 12.5 ELSE NULL END,
        ${START} + i * 60000 + 30000, ${START} + i * 60000 + 30000, '{}'::jsonb
      FROM generate_series(0, ${VISITORS - 1}, 10) AS i;
      INSERT INTO identities (env_id, anonymous_id, person_id, first_seen_ms)
      SELECT '${env.envId}', 'visitor-' || i, 'user-' || (i % 97), 0
      FROM generate_series(0, ${VISITORS - 1}, 50) AS i;
    `);
    await old.close();

    const store = await openPgliteStore(dir);
    try {
      // Counted first: the store's sweep starts folding a second after it opened, whatever this test does.
      assert.equal(await store.pendingRollupCount(), VISITORS * 2 + VISITORS / 10 + VISITORS / 50);
      const before = reportOfTally(await scanCampaign(store, env.envId, 'c1'), 'c1', NOW);
      const lines: string[] = [];
      let clock = 0;
      // Each fold moves the pinned clock by a second, so lines come at every other fold, with an estimate.
      const outcome = await foldAll(store, {
        onProgress: (p) => lines.push(`${p.folded}/${p.total}`),
        everyMs: 2_000,
        now: () => (clock += 1_000),
      });
      assert.ok(lines.length >= 2, `progress was said (${lines.join(', ')})`);
      assert.equal(lines.at(-1), `${outcome.total}/${outcome.total}`);
      assert.equal(await store.pendingRollupCount(), 0);
      // What foldAll does after folding 10 000 rows or more (VACUUM cannot run in a transaction: this checks it
      // runs as the store sends it).
      await store.tidyRollups();
      const afterUpgrade = reportOfTally(await tallyCampaign(store, env.envId, 'c1'), 'c1', NOW);
      assert.deepEqual(afterUpgrade, before);
      const visitors = afterUpgrade.variation_groups[0]?.variations.map((v) => v.visitors);
      assert.deepEqual(visitors, [VISITORS / 2, VISITORS / 2]);
    } finally {
      await store.close();
    }
  });
});

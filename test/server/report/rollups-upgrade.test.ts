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
import { openPgliteStore } from '../../../server/src/store/pglite/pglite.js';
import { version8Marks, writeVersion8Database } from './version-8-database.js';
import { auditedByTests } from '../test-actor.js';

const VISITORS = 3_000;
const NOW = new Date(Date.UTC(2026, 10, 28));

void describe('upgrading a database written before the rollups', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-rollups-upgrade-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('backfills with progress, and every report equals the one before the upgrade', async () => {
    const env = await writeVersion8Database(dir, VISITORS);

    const store = auditedByTests(await openPgliteStore(dir));
    try {
      // Counted first: the store's sweep starts folding a second after it opened, whatever this test does.
      assert.equal(await store.pendingRollupCount(), version8Marks(VISITORS));
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

  void it("folds rows received over dozens of months, each fold reading only its marks' months", async () => {
    // One exposure every 5 days: 600 exposures over about 8 years of month partitions. A fold looks its rows
    // up only in the months its marks span (migration 011): the report still counts every row.
    const spread = mkdtempSync(join(tmpdir(), 'feature-rollups-upgrade-months-'));
    try {
      const env = await writeVersion8Database(spread, 300, 5 * 86_400_000);
      const store = auditedByTests(await openPgliteStore(spread));
      try {
        const before = reportOfTally(await scanCampaign(store, env.envId, 'c1'), 'c1', NOW);
        await foldAll(store);
        assert.equal(await store.pendingRollupCount(), 0);
        assert.deepEqual(reportOfTally(await tallyCampaign(store, env.envId, 'c1'), 'c1', NOW), before);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(spread, { recursive: true, force: true });
    }
  });
});

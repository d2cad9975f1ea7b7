// Issue 31: a database written before the report rollups (version 8) is upgraded in place at 1 M exposures.
// Migration 9 marks every stored activation, goal hit and identity link, migration 10 moves the rows into
// month partitions, migration 11 gives the marks their rows' received times, and the backfill (what `feature-server serve` runs before it listens) folds the marks
// with progress lines and an estimate. The row says how long each step took and whether every figure of the
// report then equals the one computed from every stored row (reference-tally.ts: the report of every
// version up to 8). On the embedded store, the server's default.
import { deepStrictEqual } from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportOfTally } from '../server/src/report/build-report.js';
import { tallyCampaign } from '../server/src/report/campaign-tally.js';
import { scanCampaign } from '../server/src/report/reference-tally.js';
import { foldAll } from '../server/src/report/rollups/fold-all.js';
import { openPgliteStore } from '../server/src/store/pglite/pglite.js';
import { writeVersion8Database } from '../test/server/report/version-8-database.js';
import type { Bench } from './harness.js';

/** 500 000 visitors: 1 000 000 exposures, 50 000 goal hits, 10 000 identity links. */
const VISITORS = Number(process.env.BENCH_UPGRADE_VISITORS ?? 500_000);
const NOW = new Date(Date.UTC(2026, 10, 28));

export const bench: Bench = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-upgrade-bench-'));
  try {
    process.stderr.write(`bench: writing a version-8 database of ${VISITORS * 2} exposures…\n`);
    const { envId } = await writeVersion8Database(dir, VISITORS);
    const opened = performance.now();
    const store = await openPgliteStore(dir, {
      onMigrationProgress: (line) => process.stderr.write(`bench: ${line}\n`),
    });
    const migratedMs = performance.now() - opened;
    try {
      const lines: string[] = [];
      const outcome = await foldAll(store, {
        onProgress: (p) => {
          const line = `backfill: ${p.folded}/${p.total} after ${Math.round(p.elapsedMs / 1000)} s`;
          lines.push(line);
          process.stderr.write(`bench: ${line}\n`);
        },
      });
      const scanned = performance.now();
      const before = reportOfTally(await scanCampaign(store, envId, 'c1'), 'c1', NOW);
      const scanMs = performance.now() - scanned;
      const read = performance.now();
      const after = reportOfTally(await tallyCampaign(store, envId, 'c1'), 'c1', NOW);
      const readMs = performance.now() - read;
      let equal = true;
      try {
        deepStrictEqual(after, before);
      } catch {
        equal = false;
      }
      return [
        {
          figure: `Upgrade of a ${(VISITORS * 2).toLocaleString('en-US')}-exposure database to the rollups, PGlite: migrations 9-11 and backfill`,
          value: (migratedMs + outcome.elapsedMs) / 1000,
          unit: 's',
          note: `migrations ${(migratedMs / 1000).toFixed(1)} s, backfill of ${outcome.total} marks ${(outcome.elapsedMs / 1000).toFixed(1)} s, ${lines.length} progress lines; report equal to the one from every stored row: ${equal ? 'yes' : 'NO'}; report ${readMs.toFixed(0)} ms against ${(scanMs / 1000).toFixed(1)} s from every row`,
          ratio: { value: equal ? 1 : 0, goal: 'report equal (1)', met: equal },
        },
      ];
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

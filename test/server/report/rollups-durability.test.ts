// Issue 31: the report rollups survive a kill -9 in the middle of ingest. A server process takes concurrent
// batches of activations and goal hits (anonymous visitors, visitors who log in later, activations without an
// idempotency id) while it folds them in the background, and is killed with SIGKILL mid-stream. Every
// acknowledged row is still stored; the rollups read after the restart equal both a rebuild from the stored
// rows (`feature-server report --rebuild`) and the from-scratch computation (reference-tally.ts).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { reportOfTally } from '../../../server/src/report/build-report.js';
import { tallyCampaign, type CampaignTally } from '../../../server/src/report/campaign-tally.js';
import { seriesOfTally } from '../../../server/src/report/daily-series.js';
import { scanCampaign } from '../../../server/src/report/reference-tally.js';
import { openPgliteStore } from '../../../server/src/store/pglite/pglite.js';
import type { Store } from '../../../server/src/store/store.js';
import { runCliCommand, startServerProcess } from '../cli-support.js';
import { checkoutCampaign, post, seedEnvironment } from '../support.js';
import { copyTemplateDataDir } from '../template-data-dir.js';
import { until } from '../../support/until.js';
import { auditedByTests } from '../test-actor.js';

/** Requests in flight at once, and how many each client sends at most (bounded load). */
const CLIENTS = 8;
const REQUESTS_PER_CLIENT = 400;

/** The report and daily series as the rollups give them, and as the stored rows give them. */
const figures = async (store: Store, envId: string, now: Date) => {
  const view = (tally: CampaignTally) => ({
    report: { ...reportOfTally(tally, 'c1', now), generated_at: '' },
    series: seriesOfTally(tally, 'c1', now),
  });
  return {
    rollups: view(await tallyCampaign(store, envId, 'c1')),
    scan: view(await scanCampaign(store, envId, 'c1')),
  };
};

void describe('report rollups after a kill -9 mid-ingest (embedded store)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-rollups-kill-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('equal their rebuild and the stored rows, and keep every acknowledged row', async () => {
    // A copy of a migrated folder: what is tested is the kill, not the folder's creation (initdb).
    await copyTemplateDataDir(dir);
    const seedStore = auditedByTests(await openPgliteStore(dir));
    const env = await seedEnvironment(seedStore, [checkoutCampaign()]);
    await seedStore.close();

    const server = await startServerProcess({ FEATURE_DATA_DIR: dir });
    const acknowledged = { hits: 0, activations: 0 };
    const state = { stop: false };
    // Each client sends its own visitors: an activation (every third without hid, so visit windows fold too;
    // every fourth queued for a minute, so it is older than rows stored before it), then goal hits; every
    // fifth visitor logs in (cuid) on its transaction, linking its anonymous id.
    const client = async (c: number): Promise<void> => {
      for (let i = 0; i < REQUESTS_PER_CLIENT && !state.stop; i++) {
        const vid = `k${c}-${i}`;
        const activation = await post(`${server.url}/v2/activate`, {
          cid: env.envId,
          batch: [
            {
              vid,
              caid: 'vg1',
              vaid: i % 2 === 0 ? 'v1' : 'v2',
              qt: i % 4 === 0 ? 60_000 : 0,
              ...(i % 3 === 0 ? {} : { hid: `a-${vid}` }),
            },
          ],
        }).catch(() => null);
        if (activation?.status === 204) acknowledged.activations++;
        const hits = await post(`${server.url}/events`, {
          cid: env.envId,
          t: 'BATCH',
          h: [
            { t: 'EVENT', vid, cuid: null, qt: 0, hid: `e-${vid}`, ec: 'Action Tracking', ea: 'add_to_cart' },
            {
              t: 'TRANSACTION',
              vid,
              cuid: i % 5 === 0 ? `user-${c}` : null,
              qt: 0,
              hid: `t-${vid}`,
              tid: `order-${vid}`,
              ta: 'Purchase',
              tr: 10 + (i % 7),
            },
          ],
        }).catch(() => null);
        if (hits?.status === 200) acknowledged.hits += (hits.body as { accepted: number }).accepted;
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    // The clients swallow failed requests, so a server that died early ends the load short of the mark.
    let loadEnded = false;
    void load.then(
      () => (loadEnded = true),
      () => (loadEnded = true),
    );
    // Killed once enough has gone in that folds are certainly running (each store schedules one). Bounded:
    // a server that stops acknowledging fails the wait (60 s, 6 001 checks) instead of hanging the test.
    try {
      await until(() => acknowledged.hits >= 600 || loadEnded, {
        what: '600 acknowledged hits before the kill, or the load to end',
        timeoutMs: 60_000,
        intervalMs: 10,
      });
    } finally {
      const running = server.child.exitCode === null && server.child.signalCode === null;
      server.child.kill('SIGKILL');
      state.stop = true;
      if (running) await once(server.child, 'exit');
      await load;
    }
    assert.ok(
      acknowledged.hits >= 600,
      `the load ended with ${acknowledged.hits} hits acknowledged, before the kill`,
    );

    const now = new Date();
    let store = auditedByTests(await openPgliteStore(dir));
    let incremental: Awaited<ReturnType<typeof figures>>;
    try {
      const counts = await store.countHits(env.envId);
      assert.ok(
        (counts.EVENT ?? 0) + (counts.TRANSACTION ?? 0) >= acknowledged.hits,
        'acknowledged hits kept',
      );
      assert.ok(
        (await store.reportExposures(env.envId, 'c1')).length >= acknowledged.activations,
        'acknowledged activations kept',
      );
      incremental = await figures(store, env.envId, now);
      assert.deepEqual(incremental.rollups, incremental.scan, 'the rollups equal the stored rows');
      const visitors = incremental.rollups.report.variation_groups[0]?.variations.map((v) => v.visitors);
      assert.ok(
        (visitors ?? []).every((n) => n > 0),
        `both variations have visitors: ${String(visitors)}`,
      );
    } finally {
      await store.close();
    }

    const rebuilt = await runCliCommand(['report', '--rebuild', '--json'], { FEATURE_DATA_DIR: dir });
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.equal((JSON.parse(rebuilt.stdout) as { rebuilt: boolean }).rebuilt, true);

    store = auditedByTests(await openPgliteStore(dir));
    try {
      const again = await figures(store, env.envId, now);
      assert.deepEqual(again.rollups, incremental.rollups, 'the rebuild equals the incremental rollups');
    } finally {
      await store.close();
    }
  });
});

// Issue 30: a campaign report with its always-valid figures, Holm's adjustment, sample-ratio test and verdicts
// costs what the report cost before them. 100 000 visitors exposed to an A/B test (one group, 50/50) with
// 10 % converting, on the embedded store; the report (buildCampaignReport) against the counting it is built
// from (tallyCampaign: the same queries and tallies, which is what the report was before the change but for
// §14.5's few arithmetic operations per goal), alternated over rounds in one process.
import { checkoutCampaign } from './fixtures/checkout-campaign.js';
import { buildCampaignReport } from '../server/src/report/build-report.js';
import { tallyCampaign } from '../server/src/report/campaign-tally.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPgliteThread } from '../server/src/store/pglite/pglite-thread.js';
import { openPgliteStore } from '../server/src/store/pglite/pglite.js';
import { median, perRoundRatios, type Bench } from './harness.js';

const VISITORS = 100_000;
const ROUNDS = 5;

const campaign = checkoutCampaign;

const timeMs = async (work: () => Promise<unknown>): Promise<number> => {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
};

/** The one row: the report's time against the tally's, median of per-round ratios. */
export const bench: Bench = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-report-bench-'));
  try {
    let store = await openPgliteStore(dir);
    const account = await store.createAccount('bench');
    const { environment } = await store.createEnvironment({ accountId: account.id, name: 'report' });
    const envId = environment.id;
    await store.replaceCampaigns(envId, [campaign]);
    await store.close();
    // The rows in two statements on the folder (the store's one-batch-at-a-time route would take minutes):
    // visitors alternate between the variations; about 10 % convert (11 % in the variation), a second after
    // their exposure.
    const start = Date.UTC(2026, 10, 1);
    const thread = await openPgliteThread(dir);
    try {
      await thread.exec(`
        INSERT INTO activations (env_id, hid, visitor_id, anonymous_id, campaign_id, variation_group_id,
          variation_id, created_ms, received_ms)
        SELECT '${envId}', 'a-' || i, 'visitor-' || i, NULL, 'c1', 'vg1',
          CASE WHEN i % 2 = 0 THEN 'v1' ELSE 'v2' END, ${start} + i * 1000, ${start} + i * 1000
        FROM generate_series(0, ${VISITORS - 1}) AS i;
        INSERT INTO hits (env_id, hid, type, visitor_id, customer_id, goal, revenue, created_ms, received_ms, body)
        SELECT '${envId}', 'h-' || i, 'EVENT', 'visitor-' || i, NULL, 'add_to_cart', NULL,
          ${start} + i * 1000 + 1000, ${start} + i * 1000 + 1000,
          '{"t":"EVENT","ec":"Action Tracking","ea":"add_to_cart"}'::jsonb
        FROM generate_series(0, ${VISITORS - 1}) AS i
        WHERE (i::bigint * 2654435761) % 1000 < CASE WHEN i % 2 = 0 THEN 100 ELSE 110 END;
        ANALYZE activations;
        ANALYZE hits;
      `);
    } finally {
      await thread.close();
    }
    store = await openPgliteStore(dir);
    try {
      // One of each first, uncounted (caches, JIT).
      await tallyCampaign(store, envId, 'c1');
      const report = await buildCampaignReport(store, envId, 'c1');
      const reports: number[] = [];
      const tallies: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        reports.push(await timeMs(() => buildCampaignReport(store, envId, 'c1')));
        tallies.push(await timeMs(() => tallyCampaign(store, envId, 'c1')));
      }
      const ratios = perRoundRatios(reports, tallies);
      const ratio = median(ratios);
      const group = report.variation_groups[0];
      const v2 = group?.variations[1]?.events.add_to_cart;
      return [
        {
          figure: 'report: one campaign, 100 000 visitors, with sequential figures, Holm, SRM and verdicts',
          value: median(reports),
          unit: 'ms',
          baseline: {
            figure: 'the tally it is built from (the report before issue 30)',
            value: median(tallies),
          },
          ratio: { value: ratio, goal: '≤ 1.05', met: ratio <= 1.05 },
          note: `${ROUNDS} alternated rounds on the embedded store; per round ${ratios.map((r) => r.toFixed(3)).join(' ')}; visitors ${group?.variations.map((v) => v.visitors).join(' / ') ?? '?'}; the report read ${v2?.verdict ?? '?'} (sequential p ${v2?.sequential.adjusted_p_value?.toExponential(2) ?? '-'}), srm p ${group?.srm?.p_value.toFixed(3) ?? '-'}`,
        },
      ];
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

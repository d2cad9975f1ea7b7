// The rows of the report-scale bench (issue 31), written straight in SQL the way an upgrade's backfill finds
// them: activations and goal hits, each with its pending mark (migration 009), in one statement per table so
// that millions of rows load in seconds instead of hours through the collection routes. Loads are additive:
// each call adds `count` exposures of new visitors, so one campaign grows from 10 k to 3 M exposures with
// every fold taking only what was added.
import type { BucketingCampaign } from '../src/protocol/index.js';

/** The one campaign: an A/B test, one group for everyone, two variations at 50/50. */
export const scaleCampaign = {
  id: 'c1',
  name: 'Checkout',
  type: 'ab',
  analysis: { primary_goal: { type: 'event', name: 'add_to_cart' } },
  variationGroups: [
    {
      id: 'vg1',
      name: 'Everyone',
      targeting: {
        targetingGroups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: '' }] }],
      },
      variations: [
        {
          id: 'v1',
          name: 'Original',
          reference: true,
          allocation: 50,
          modifications: { type: 'FLAG', value: { color: 'blue' } },
        },
        {
          id: 'v2',
          name: 'Green',
          allocation: 50,
          modifications: { type: 'FLAG', value: { color: 'green' } },
        },
      ],
    },
  ],
} as BucketingCampaign;

const DAY_MS = 86_400_000;
/** Days the exposures spread over, ending an hour before the load. */
export const SPREAD_DAYS = 30;

/**
 * The SQL that adds `count` exposures (batch `batch`, which names the visitors so batches never share one):
 * 80 % of visitors exposed once, 20 % twice (the second time days later, same variation, as bucketing keeps
 * it); variation by the visitor's parity. About 10 % of visitors convert (10.0 % in v1, 11.0 % in v2): an
 * EVENT add_to_cart a second after their first exposure, and a third of those a TRANSACTION purchase with
 * revenue a minute later. Every row carries its pending mark, written in the same statement.
 */
export const loadSql = (envId: string, batch: string, count: number, nowMs: number): string => {
  const visitors = Math.round(count * 0.8);
  const start = nowMs - SPREAD_DAYS * DAY_MS - 3_600_000;
  const span = SPREAD_DAYS * DAY_MS;
  // Exposure i (0 ≤ i < count) belongs to visitor i mod visitors; its time grows with i over the spread.
  const at = (i: string) => `${start} + (${i}::bigint * ${span}) / ${count}`;
  const converts = `(k::bigint * 2654435761) % 1000 < CASE WHEN k % 2 = 0 THEN 100 ELSE 110 END`;
  return `
    WITH rows AS (
      INSERT INTO activations (env_id, hid, visitor_id, anonymous_id, campaign_id, variation_group_id,
        variation_id, created_ms, received_ms)
      SELECT '${envId}', '${batch}-a-' || i, '${batch}-v-' || (i % ${visitors}), NULL, 'c1', 'vg1',
        CASE WHEN (i % ${visitors}) % 2 = 0 THEN 'v1' ELSE 'v2' END, ${at('i')}, ${at('i')}
      FROM generate_series(0, ${count - 1}) AS i
      RETURNING seq, env_id, received_ms)
    INSERT INTO rollup_pending_activations (seq, env_id, received_ms) SELECT seq, env_id, received_ms FROM rows;
    WITH rows AS (
      INSERT INTO hits (env_id, hid, type, visitor_id, customer_id, goal, revenue, created_ms, received_ms, body)
      SELECT '${envId}', '${batch}-e-' || k, 'EVENT', '${batch}-v-' || k, NULL, 'add_to_cart', NULL,
        ${at('k')} + 1000, ${at('k')} + 1000, '{"t":"EVENT","ec":"Action Tracking","ea":"add_to_cart"}'::jsonb
      FROM generate_series(0, ${visitors - 1}) AS k
      WHERE ${converts}
      RETURNING seq, env_id, received_ms)
    INSERT INTO rollup_pending_hits (seq, env_id, received_ms) SELECT seq, env_id, received_ms FROM rows;
    WITH rows AS (
      INSERT INTO hits (env_id, hid, type, visitor_id, customer_id, goal, revenue, created_ms, received_ms, body)
      SELECT '${envId}', '${batch}-t-' || k, 'TRANSACTION', '${batch}-v-' || k, NULL, 'purchase',
        10 + (k % 90), ${at('k')} + 60000, ${at('k')} + 60000,
        '{"t":"TRANSACTION","ta":"purchase","tid":"t"}'::jsonb
      FROM generate_series(0, ${visitors - 1}) AS k
      WHERE ${converts} AND k % 3 = 0
      RETURNING seq, env_id, received_ms)
    INSERT INTO rollup_pending_hits (seq, env_id, received_ms) SELECT seq, env_id, received_ms FROM rows;
    ANALYZE activations;
    ANALYZE hits;
    ANALYZE rollup_pending_activations;
    ANALYZE rollup_pending_hits;
  `;
};

// The visits of a fold's activations (§14.1): one per activation with a hid, and for the others the window
// chains of visit-ledger.ts, stored per visitor and variation in rollup_visit_windows, extended by each fold
// or computed again from the folded rows when a late activation lands inside them.
import { dayOf } from '../../report/attribution.js';
import type { PersonExposure } from '../../report/rollups/person-ledger.js';
import { ALL_DAYS, variationCell, type RollupDeltas } from '../../report/rollups/rollup-cells.js';
import {
  extendWindows,
  type VisitWindows,
  type WindowActivation,
} from '../../report/rollups/visit-ledger.js';
import { windowsAfterHorizon } from '../../report/rollups/final-days.js';
import { groupBy } from './rollup-persons-sql.js';
import { num, text, type Queryable } from '../sql/sql.js';

/** An activation of a fold's batch: its exposure, person and the ids its visits are counted by. */
export interface BatchActivation extends PersonExposure {
  person: string;
  hid: string | null;
  visitorId: string;
}

// jsonb comes back parsed from both drivers; text only if a column was read as text.
const jsonOf = (value: unknown): unknown =>
  typeof value === 'string' ? (JSON.parse(value) as unknown) : value;

const windowKey = (a: {
  visitorId: string;
  campaignId: string;
  groupId: string;
  variationId: string;
}): string => JSON.stringify([a.visitorId, a.campaignId, a.groupId, a.variationId]);

/** Counts the visits of the batch's activations into `deltas`, updating the window chains they extend. */
export const foldVisits = async (
  tx: Queryable,
  envId: string,
  activations: readonly BatchActivation[],
  deltas: RollupDeltas,
  horizonMs: () => Promise<number>,
): Promise<void> => {
  for (const a of activations) {
    const cell = variationCell(a.campaignId, a.groupId, a.variationId, ALL_DAYS);
    deltas.firstActivation(cell, a.createdMs, a.seq);
    if (a.hid !== null) deltas.add({ ...cell, day: dayOf(a.createdMs) }, 'visits', 1);
  }
  const keys = groupBy(
    activations.filter((a) => a.hid === null),
    windowKey,
  );
  if (keys.size === 0) return;
  const firsts = [...keys.values()].map((list) => list[0] as BatchActivation);
  const keyArrays = [
    firsts.map((a) => a.visitorId),
    firsts.map((a) => a.campaignId),
    firsts.map((a) => a.groupId),
    firsts.map((a) => a.variationId),
  ];
  const KEYS = `(SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]))`;
  const stored = new Map(
    (
      await tx.query(
        `SELECT visitor_id, campaign_id, variation_group_id, variation_id, opened_ms, days FROM rollup_visit_windows
         WHERE env_id = $1 AND (visitor_id, campaign_id, variation_group_id, variation_id) IN ${KEYS}`,
        [envId, ...keyArrays],
      )
    ).map((row): [string, VisitWindows] => [
      JSON.stringify([
        text(row, 'visitor_id'),
        text(row, 'campaign_id'),
        text(row, 'variation_group_id'),
        text(row, 'variation_id'),
      ]),
      { openedMs: num(row, 'opened_ms'), days: jsonOf(row.days) as Record<string, number> },
    ]),
  );
  const changed = new Map<string, VisitWindows>();
  const recompute: BatchActivation[] = [];
  for (const [key, list] of keys) {
    const first = list[0] as BatchActivation;
    const extended = extendWindows(stored.get(key) ?? null, list);
    if (extended === 'recompute') {
      recompute.push(first);
      continue;
    }
    changed.set(key, extended.chain);
    for (const [day, visits] of Object.entries(extended.visits))
      deltas.add(
        variationCell(first.campaignId, first.groupId, first.variationId, Number(day)),
        'visits',
        visits,
      );
  }
  if (recompute.length > 0) {
    const rows = await tx.query(
      `SELECT a.visitor_id, a.campaign_id, a.variation_group_id, a.variation_id, a.created_ms, a.seq FROM activations a
       WHERE a.env_id = $1 AND a.hid IS NULL
         AND (a.visitor_id, a.campaign_id, a.variation_group_id, a.variation_id) IN ${KEYS}
         AND NOT EXISTS (SELECT 1 FROM rollup_pending_activations p WHERE p.env_id = $1 AND p.seq = a.seq)`,
      [
        envId,
        recompute.map((a) => a.visitorId),
        recompute.map((a) => a.campaignId),
        recompute.map((a) => a.groupId),
        recompute.map((a) => a.variationId),
      ],
    );
    const byKey = groupBy(rows, (row) =>
      JSON.stringify([
        text(row, 'visitor_id'),
        text(row, 'campaign_id'),
        text(row, 'variation_group_id'),
        text(row, 'variation_id'),
      ]),
    );
    for (const a of recompute) {
      const key = windowKey(a);
      // Days before a retention horizon keep their visits: their rows may be gone (final-days.ts).
      const chain = windowsAfterHorizon(
        stored.get(key) ?? null,
        (byKey.get(key) ?? []).map((row): WindowActivation => ({
          createdMs: num(row, 'created_ms'),
          seq: num(row, 'seq'),
        })),
        await horizonMs(),
      );
      const before = stored.get(key)?.days ?? {};
      const after = chain?.days ?? {};
      for (const day of new Set([...Object.keys(before), ...Object.keys(after)]))
        deltas.add(
          variationCell(a.campaignId, a.groupId, a.variationId, Number(day)),
          'visits',
          (after[day] ?? 0) - (before[day] ?? 0),
        );
      if (chain !== null) changed.set(key, chain);
    }
  }
  if (changed.size === 0) return;
  const entries = [...changed].map(([key, chain]) => [JSON.parse(key) as string[], chain] as const);
  await tx.query(
    `INSERT INTO rollup_visit_windows (env_id, visitor_id, campaign_id, variation_group_id, variation_id, opened_ms, days)
     SELECT $1, v, c, g, x, o, d::jsonb FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[])
       AS u(v, c, g, x, o, d)
     ON CONFLICT (env_id, visitor_id, campaign_id, variation_group_id, variation_id)
     DO UPDATE SET opened_ms = excluded.opened_ms, days = excluded.days`,
    [
      envId,
      ...[0, 1, 2, 3].map((i) => entries.map(([key]) => key[i])),
      entries.map(([, chain]) => chain.openedMs),
      entries.map(([, chain]) => JSON.stringify(chain.days)),
    ],
  );
};

// The store's report rollups (migration 009, issue 31): folding stored rows in (rollup-fold-sql.ts), what waits
// to be folded (rollup-pending-sql.ts), the rebuild (rollup-rebuild-sql.ts), and reading a campaign's rollups
// back, here.
import type { RollupCell, RollupGoalKind } from '../../report/rollups/rollup-cells.js';
import { foldBatch, type FoldOptions } from './rollup-fold-sql.js';
import { pendingQueries } from './rollup-pending-sql.js';
import { rebuildQueries } from './rollup-rebuild-sql.js';
import { num, text, type Sql } from '../sql/sql.js';

/** A cell of campaign_rollups as the report reads it. */
export type StoredRollupCell = Omit<RollupCell, 'campaignId'>;

/** A campaign's rollups and the revision they are at (the report's ETag). */
export interface CampaignRollups {
  revision: number;
  cells: StoredRollupCell[];
}

/** Rollup operations of the store; reads of the rollups go to `sql.reportReads` when there is one. */
export const rollupQueries = (sql: Sql) => {
  const reads = sql.reportReads ?? sql;
  return {
    /** Folds up to `limit` pending marks of each kind of one environment; returns how many it folded (0: none left). */
    foldRollups: (envId: string, limit: number, options: FoldOptions): Promise<number> =>
      sql.foldRollups?.(envId, limit, options) ??
      sql.transaction((tx) => foldBatch(tx, envId, limit, options)),

    ...rebuildQueries(sql),
    ...pendingQueries(sql),
    /** A campaign's rollups as they stand (fold first to include every stored row). */
    readCampaignRollups: async (envId: string, campaignId: string): Promise<CampaignRollups> => {
      const [revision, cells] = await Promise.all([
        reads.query('SELECT revision FROM campaign_rollup_revisions WHERE env_id = $1 AND campaign_id = $2', [
          envId,
          campaignId,
        ]),
        reads.query(
          `SELECT variation_group_id, variation_id, goal_kind, goal, day, visits, visitors, conversions, converters,
                revenue_micros, seen, first_ms, first_seq
         FROM campaign_rollups WHERE env_id = $1 AND campaign_id = $2`,
          [envId, campaignId],
        ),
      ]);
      return {
        revision: revision[0] === undefined ? 0 : num(revision[0], 'revision'),
        cells: cells.map((row) => ({
          groupId: text(row, 'variation_group_id'),
          variationId: text(row, 'variation_id'),
          goalKind: text(row, 'goal_kind') as RollupGoalKind,
          goal: text(row, 'goal'),
          day: num(row, 'day'),
          visits: num(row, 'visits'),
          visitors: num(row, 'visitors'),
          conversions: num(row, 'conversions'),
          converters: num(row, 'converters'),
          revenueMicros: num(row, 'revenue_micros'),
          seen: num(row, 'seen'),
          firstMs: row.first_ms === null ? null : num(row, 'first_ms'),
          firstSeq: row.first_seq === null ? null : num(row, 'first_seq'),
        })),
      };
    },

    /** The revision of a campaign's rollups (0: never folded). */
    campaignRollupRevision: async (envId: string, campaignId: string): Promise<number> => {
      const rows = await reads.query(
        'SELECT revision FROM campaign_rollup_revisions WHERE env_id = $1 AND campaign_id = $2',
        [envId, campaignId],
      );
      return rows[0] === undefined ? 0 : num(rows[0], 'revision');
    },
  };
};

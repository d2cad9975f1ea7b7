// Rebuilding the report rollups from the stored rows (`feature-server report --rebuild`), and tidying the
// rollup tables after a large fold (a backfill, a rebuild).
import { rebuildAfterRetentionError, readRollupHorizon } from './rollup-horizon.js';
import { FOLD_LOCK, PENDING_TABLES } from './rollup-pending-sql.js';
import { GOAL_HIT } from './rollup-persons-sql.js';
import { num, type Sql } from '../sql/sql.js';

/** The rebuild of the rollups and the tidying after it. */
export const rebuildQueries = (sql: Sql) => ({
  /**
   * Vacuums and analyzes the rollup tables after a large fold (a backfill, a rebuild): a million folded
   * rows leave a million dead pending marks, which every "anything pending?" check would step over until
   * autovacuum came (never, where it is off), and a planner that still thinks the rollup tables empty.
   */
  tidyRollups: async (): Promise<void> => {
    await sql.query(
      `VACUUM (ANALYZE) ${[...PENDING_TABLES, 'rollup_persons', 'rollup_visit_windows', 'campaign_rollups'].join(', ')}`,
    );
  },

  /**
   * Forgets every rollup and marks every stored activation, goal hit and identity pending again, so that folds
   * rebuild the rollups from the stored rows (`feature-server report --rebuild`). Revisions keep rising, so a
   * cached report is never taken for the rebuilt one. Returns how many marks wait.
   */
  resetRollups: async (): Promise<number> => {
    return sql.transaction(async (tx) => {
      // Every environment's fold lock: no fold runs halfway across the reset.
      await tx.query(
        'SELECT pg_advisory_xact_lock($1, hashtext(id)) FROM (SELECT id FROM environments ORDER BY id) e',
        [FOLD_LOCK],
      );
      // Rows before a retention horizon are gone, and their counts live only in the rollups (migration 010).
      const horizon = await readRollupHorizon(tx);
      if (horizon > 0) throw rebuildAfterRetentionError(horizon);
      for (const table of ['campaign_rollups', 'rollup_persons', 'rollup_visit_windows', ...PENDING_TABLES])
        await tx.query(`DELETE FROM ${table}`);
      await tx.query('UPDATE campaign_rollup_revisions SET revision = revision + 1');
      await tx.query(
        'INSERT INTO rollup_pending_activations (env_id, seq, received_ms) SELECT env_id, seq, received_ms FROM activations',
      );
      await tx.query(
        `INSERT INTO rollup_pending_hits (env_id, seq, received_ms) SELECT h.env_id, h.seq, h.received_ms FROM hits h WHERE ${GOAL_HIT}`,
      );
      await tx.query(
        'INSERT INTO rollup_pending_links (env_id, anonymous_id) SELECT env_id, anonymous_id FROM identities',
      );
      const rows = await tx.query(
        `SELECT ${PENDING_TABLES.map((table) => `(SELECT count(*) FROM ${table})`).join(' + ')} AS n`,
      );
      return rows[0] === undefined ? 0 : num(rows[0], 'n');
    });
  },
});

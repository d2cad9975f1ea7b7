// The retention horizon (migration 010): the start of the oldest month of activations and hits still stored,
// once FEATURE_RETENTION_DAYS has dropped anything (retention-sql.ts). Folds read it to keep the rollups' days
// before it as they are (report/rollups/final-days.ts); a rebuild from stored rows refuses while it is set.
import { InputError } from '../../errors.js';
import { num, type Queryable } from '../sql/sql.js';

/** The stored horizon in epoch milliseconds; 0 when nothing was ever dropped. */
export const readRollupHorizon = async (db: Queryable): Promise<number> => {
  const rows = await db.query('SELECT horizon_ms FROM rollup_horizon');
  return rows[0] === undefined ? 0 : num(rows[0], 'horizon_ms');
};

/** Moves the stored horizon forward to `horizonMs` (never back). */
export const raiseRollupHorizon = async (db: Queryable, horizonMs: number): Promise<void> => {
  await db.query(
    `INSERT INTO rollup_horizon (one, horizon_ms) VALUES (true, $1)
     ON CONFLICT (one) DO UPDATE SET horizon_ms = GREATEST(rollup_horizon.horizon_ms, excluded.horizon_ms)`,
    [horizonMs],
  );
};

/**
 * Why `report --rebuild` refuses once retention dropped months: a rebuild computes the rollups from the
 * stored rows alone, so the reports would lose every count of the dropped months.
 */
export const rebuildAfterRetentionError = (horizonMs: number): InputError =>
  new InputError(
    `The report rollups cannot be rebuilt: FEATURE_RETENTION_DAYS dropped the activations and hits received before ${new Date(horizonMs).toISOString()}, ` +
      'and a rebuild from the rows still stored would lose those months from every report. The rollups already hold them: ' +
      'reports stay whole without a rebuild. To rebuild anyway (e.g. after a suspected defect), restore a backup taken before the drop, ' +
      'unset FEATURE_RETENTION_DAYS, and rebuild there.',
  );

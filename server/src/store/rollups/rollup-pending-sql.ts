// The pending marks of the report rollups (migration 009): a stored row waits to be folded while its mark is
// there, and the per-environment advisory lock that makes folds of one environment take turns, whichever
// instance runs them (the fold, the rebuild and retention all take it).
import { num, text, type Sql } from '../sql/sql.js';

/** Arbitrary constant shared by every instance: the first key of the per-environment fold lock. */
export const FOLD_LOCK = 7_200_131;

/** The tables of pending marks: activations, goal hits and identity links waiting to be folded. */
export const PENDING_TABLES = [
  'rollup_pending_activations',
  'rollup_pending_hits',
  'rollup_pending_links',
] as const;

/** What waits to be folded: cheap checks before a fold, and the progress of a backfill. */
export const pendingQueries = (sql: Sql) => ({
  /** Whether rows of the environment wait to be folded: one cheap check before a fold's transaction. */
  hasPendingRollups: async (envId: string): Promise<boolean> => {
    const rows = await sql.query(
      `SELECT ${PENDING_TABLES.map((table) => `EXISTS (SELECT 1 FROM ${table} p WHERE p.env_id = $1)`).join(
        ' OR ',
      )} AS pending`,
      [envId],
    );
    return rows[0]?.pending === true;
  },

  /** The environments with rows not folded yet. */
  pendingRollupEnvironments: async (): Promise<string[]> => {
    const rows = await sql.query(
      `SELECT e.id FROM environments e WHERE ${PENDING_TABLES.map(
        (table) => `EXISTS (SELECT 1 FROM ${table} p WHERE p.env_id = e.id)`,
      ).join(' OR ')}`,
    );
    return rows.map((row) => text(row, 'id'));
  },

  /** How many marks wait to be folded, all environments together (progress of a backfill). */
  pendingRollupCount: async (): Promise<number> => {
    const rows = await sql.query(
      `SELECT ${PENDING_TABLES.map((table) => `(SELECT count(*) FROM ${table})`).join(' + ')} AS n`,
    );
    return rows[0] === undefined ? 0 : num(rows[0], 'n');
  },
});

// FEATURE_RETENTION_DAYS (issue 31): whole months of activations and hits older than the retention are
// dropped as partitions (time-partitions.ts), which costs the same whatever their size and leaves no dead
// rows behind. The report rollups keep what the dropped rows contributed (final-days.ts): a drop happens only
// once every row of the months dropped is folded, under every environment's fold lock, and the horizon it
// records makes later folds keep the days before it as they are.
import { raiseRollupHorizon } from '../rollups/rollup-horizon.js';
import { FOLD_LOCK } from '../rollups/rollup-pending-sql.js';
import { num, type Queryable, type Sql } from './sql.js';
import { monthPartitions, monthStart, PARTITIONED_TABLES, type MonthPartition } from './time-partitions.js';

/**
 * The horizon of a retention of `days` days at `nowMs`: the start of the UTC month containing `nowMs − days`.
 * Only whole months before it are dropped, so a row is kept at least `days` days and at most a month more.
 */
export const retentionHorizon = (nowMs: number, days: number): number =>
  monthStart(nowMs - days * 86_400_000);

/** One partition dropped. */
export interface DroppedPartition {
  name: string;
  /** Its range of received times, [startMs, endMs). */
  startMs: number;
  endMs: number;
  /** The rows it held. */
  rows: number;
}

/** What one retention run did. */
export interface RetentionOutcome {
  /** The horizon now stored (0: nothing was ever dropped). */
  horizonMs: number;
  dropped: DroppedPartition[];
  /** Rows deleted from the DEFAULT partitions (received before the horizon while a clock was wrong). */
  strayRows: number;
  /** Idempotency ids forgotten (those of the rows dropped: a retry of one is a new row). */
  ids: number;
  /**
   * A partition left for the next run because rows of it still wait to be folded (arrived after the folds
   * that preceded the drop): the months from it on are kept.
   */
  postponed: string | null;
}

const PENDING = { activations: 'rollup_pending_activations', hits: 'rollup_pending_hits' } as const;

const count = async (tx: Queryable, query: string, params: readonly unknown[] = []): Promise<number> => {
  const rows = await tx.query(query, params);
  return rows[0] === undefined ? 0 : num(rows[0], 'n');
};

/** Whether rows of the partition still wait to be folded. */
const hasPending = async (tx: Queryable, partition: MonthPartition): Promise<boolean> =>
  (await count(
    tx,
    `SELECT count(*) AS n FROM (SELECT 1 FROM ${PENDING[partition.table]} p JOIN ${partition.name} r
       ON r.env_id = p.env_id AND r.seq = p.seq LIMIT 1) x`,
  )) > 0;

/**
 * Drops the month partitions of activations and hits that end at or before `horizonMs` (a month start), the
 * DEFAULT partitions' rows received before it and the idempotency ids received before it, and records the
 * horizon. `drain` folds what is pending first (the store's folder); the drop itself runs in one
 * transaction under every environment's fold lock, and postpones a month whose rows still wait to be folded.
 */
export const applyRetention = async (
  sql: Pick<Sql, 'transaction'>,
  horizonMs: number,
  drain: () => Promise<unknown>,
): Promise<RetentionOutcome> => {
  if (monthStart(horizonMs) !== horizonMs) throw new RangeError('a retention horizon is a month start');
  await drain();
  return sql.transaction(async (tx) => {
    await tx.query(
      'SELECT pg_advisory_xact_lock($1, hashtext(id)) FROM (SELECT id FROM environments ORDER BY id) e',
      [FOLD_LOCK],
    );
    const candidates = (await Promise.all(PARTITIONED_TABLES.map((table) => monthPartitions(tx, table))))
      .flat()
      .filter((p) => p.endMs <= horizonMs)
      .sort((a, b) => a.startMs - b.startMs);
    // A month with rows not folded yet stops the drop there: the months before it go, it and the rest wait.
    let effective = horizonMs;
    let postponed: string | null = null;
    for (const partition of candidates)
      if (partition.startMs < effective && (await hasPending(tx, partition))) {
        effective = partition.startMs;
        postponed = partition.name;
      }
    const dropped: DroppedPartition[] = [];
    for (const partition of candidates.filter((p) => p.endMs <= effective)) {
      const rows = await count(tx, `SELECT count(*) AS n FROM ${partition.name}`);
      await tx.query(`ALTER TABLE ${partition.table} DETACH PARTITION ${partition.name}`);
      await tx.query(`DROP TABLE ${partition.name}`);
      dropped.push({ name: partition.name, startMs: partition.startMs, endMs: partition.endMs, rows });
    }
    let strayRows = 0;
    for (const table of PARTITIONED_TABLES)
      strayRows += await count(
        tx,
        `WITH d AS (DELETE FROM ${table}_default r WHERE r.received_ms < $1 AND NOT EXISTS (
           SELECT 1 FROM ${PENDING[table]} p WHERE p.env_id = r.env_id AND p.seq = r.seq) RETURNING 1)
         SELECT count(*) AS n FROM d`,
        [effective],
      );
    const ids = await count(
      tx,
      'WITH d AS (DELETE FROM collected_ids WHERE received_ms < $1 RETURNING 1) SELECT count(*) AS n FROM d',
      [effective],
    );
    // Rows before the effective horizon may now be gone: from here on, folds keep those days as they are.
    if (dropped.length > 0 || strayRows > 0) await raiseRollupHorizon(tx, effective);
    const stored = await tx.query('SELECT horizon_ms FROM rollup_horizon');
    return {
      horizonMs: stored[0] === undefined ? 0 : num(stored[0], 'horizon_ms'),
      dropped,
      strayRows,
      ids,
      postponed,
    };
  });
};

/** A line for the log about one dropped partition. */
export const droppedLine = (partition: DroppedPartition): string =>
  `retention: dropped ${partition.name}, ${partition.rows.toLocaleString('en-US')} rows received in ${new Date(partition.startMs).toISOString().slice(0, 7)} (UTC)`;

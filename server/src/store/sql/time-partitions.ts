// The monthly partitions of activations and hits (migration 010, issue 31): one partition per UTC month of
// the rows' received time, plus a DEFAULT partition so that an insert never fails for want of a month. The
// partitions of the current month and the next two are created at start and every day (storage-upkeep.ts),
// so the DEFAULT partition stays empty unless a clock jumps; rows found there in a month about to get its
// partition are moved into it first, since PostgreSQL refuses to create a partition whose range the DEFAULT
// partition holds rows of.
import { num, text, type Queryable, type Sql } from './sql.js';

/** The tables partitioned by month of received time. */
export const PARTITIONED_TABLES = ['activations', 'hits'] as const;

/** One of PARTITIONED_TABLES. */
export type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

/** The start (epoch ms) of the UTC month containing `epochMs`. */
export const monthStart = (epochMs: number): number => {
  const date = new Date(epochMs);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
};

/** The start of the UTC month `months` after the one starting at (or containing) `epochMs`. */
export const addMonths = (epochMs: number, months: number): number => {
  const date = new Date(epochMs);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1);
};

/** The name of a table's partition for the month starting at `startMs`, e.g. `activations_2026_11`. */
export const partitionName = (table: PartitionedTable, startMs: number): string => {
  const date = new Date(startMs);
  return `${table}_${date.getUTCFullYear()}_${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
};

/** A month partition as the catalog lists it. */
export interface MonthPartition {
  table: PartitionedTable;
  name: string;
  /** Its range: [startMs, endMs) of received time. */
  startMs: number;
  endMs: number;
}

const MONTH_PARTITION = /^(activations|hits)_(\d{4})_(\d{2})$/;

/** The month partitions of `table` that exist, oldest first (the DEFAULT partition is not one). */
export const monthPartitions = async (db: Queryable, table: PartitionedTable): Promise<MonthPartition[]> => {
  // to_regclass resolves in the current schema (PostgreSQL stores of tests each have their own).
  const rows = await db.query(
    `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = to_regclass($1)`,
    [table],
  );
  const partitions: MonthPartition[] = [];
  for (const row of rows) {
    const match = MONTH_PARTITION.exec(text(row, 'relname'));
    if (match === null || match[1] !== table) continue;
    const startMs = Date.UTC(Number(match[2]), Number(match[3]) - 1, 1);
    partitions.push({ table, name: text(row, 'relname'), startMs, endMs: addMonths(startMs, 1) });
  }
  return partitions.sort((a, b) => a.startMs - b.startMs);
};

/**
 * Creates `table`'s partition for the month starting at `startMs` if it is missing, moving into it any rows
 * the DEFAULT partition holds in its range. Runs inside the caller's transaction; the table is locked against
 * inserts meanwhile (only while a partition is missing, so once a month at most).
 */
export const createMonthPartition = async (
  tx: Queryable,
  table: PartitionedTable,
  startMs: number,
): Promise<boolean> => {
  const name = partitionName(table, startMs);
  // Inserts take ROW EXCLUSIVE on the table: none lands in the DEFAULT partition between the move and the
  // CREATE, which would make the CREATE fail.
  await tx.query(`LOCK TABLE ${table} IN SHARE ROW EXCLUSIVE MODE`);
  const exists = await tx.query('SELECT to_regclass($1) IS NOT NULL AS present', [name]);
  if (exists[0]?.present === true) return false;
  const range = [startMs, addMonths(startMs, 1)];
  const stray = await tx.query(
    `SELECT count(*) AS n FROM ${table}_default WHERE received_ms >= $1 AND received_ms < $2`,
    range,
  );
  const moved = stray[0] === undefined ? 0 : num(stray[0], 'n');
  if (moved > 0) {
    await tx.query(
      `CREATE TEMPORARY TABLE moved_rows AS
       SELECT * FROM ${table}_default WHERE received_ms >= ${range[0]} AND received_ms < ${range[1]}`,
    );
    await tx.query(`DELETE FROM ${table}_default WHERE received_ms >= $1 AND received_ms < $2`, range);
  }
  await tx.query(`CREATE TABLE ${name} PARTITION OF ${table} FOR VALUES FROM (${range[0]}) TO (${range[1]})`);
  if (moved > 0) {
    // Same columns in the same order (the temporary table was made from the partition): seq values are kept.
    await tx.query(`INSERT INTO ${table} SELECT * FROM moved_rows`);
    await tx.query('DROP TABLE moved_rows');
  }
  return true;
};

/** How far ahead partitions exist: the current month and the next two. */
export const MONTHS_AHEAD = 2;

/**
 * Makes sure both tables have their partitions for the month of `nowMs` and the MONTHS_AHEAD after it;
 * returns the names created. Idempotent; safe beside inserts and beside another instance doing the same.
 */
export const keepMonthPartitions = async (sql: Sql, nowMs: number): Promise<string[]> => {
  const created: string[] = [];
  for (const table of PARTITIONED_TABLES) {
    const existing = new Set((await monthPartitions(sql, table)).map((p) => p.name));
    for (let i = 0; i <= MONTHS_AHEAD; i += 1) {
      const startMs = addMonths(monthStart(nowMs), i);
      // Checked outside a transaction first: on most days every partition is there and nothing is locked.
      if (existing.has(partitionName(table, startMs))) continue;
      if (await sql.transaction((tx) => createMonthPartition(tx, table, startMs)))
        created.push(partitionName(table, startMs));
    }
  }
  return created;
};

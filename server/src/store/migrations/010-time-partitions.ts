// Storage that can be pruned (issue 31): activations and hits become tables partitioned by UTC month of their
// received time (time-partitions.ts), so that FEATURE_RETENTION_DAYS drops whole old months (retention-sql.ts)
// instead of deleting rows one by one. The same schema on PGlite and PostgreSQL: PGlite is PostgreSQL 17.
// - Idempotency moves to collected_ids: a unique index on a partitioned table must contain the partition key,
//   and a retry arrives with a later received time, so (env_id, hid) could no longer be unique there. Ids are
//   claimed in the statement that stores the rows (collect-sql.ts).
// - rollup_horizon: the start of the oldest month still stored once a retention dropped anything; the folds
//   keep the rollups' days before it as they are (person-ledger.ts, visit-ledger.ts), and a rebuild refuses.
// - Existing rows are copied in seq order with their seq values (the pending marks and the rollups' first
//   activations name them), and the seq sequences carry on. Indexes are those of migrations 001, 003 and 009,
//   as partitioned indexes, minus the (env_id, hid) ones; the primary key (seq, received_ms) serves the folds'
//   lookups by seq. The copy holds the tables for as long as it takes: on a large PostgreSQL database, upgrade
//   at a quiet time (docs/scaling.md).
import { addMonths, createMonthPartition, monthStart, PARTITIONED_TABLES } from '../sql/time-partitions.js';
import { num, type Queryable } from '../sql/sql.js';
import type { MigrationStep } from './migration-progress.js';

const COLUMNS = {
  activations: `seq bigint NOT NULL DEFAULT nextval('activations_seq_seq'),
  env_id text NOT NULL,
  hid text,
  visitor_id text NOT NULL,
  anonymous_id text,
  campaign_id text NOT NULL,
  variation_group_id text NOT NULL,
  variation_id text NOT NULL,
  created_ms bigint NOT NULL,
  received_ms bigint NOT NULL`,
  hits: `seq bigint NOT NULL DEFAULT nextval('hits_seq_seq'),
  env_id text NOT NULL,
  hid text,
  type text NOT NULL,
  visitor_id text NOT NULL,
  customer_id text,
  goal text,
  revenue double precision,
  created_ms bigint NOT NULL,
  received_ms bigint NOT NULL,
  body jsonb NOT NULL`,
} as const;

const NAMES = {
  activations:
    'seq, env_id, hid, visitor_id, anonymous_id, campaign_id, variation_group_id, variation_id, created_ms, received_ms',
  hits: 'seq, env_id, hid, type, visitor_id, customer_id, goal, revenue, created_ms, received_ms, body',
} as const;

const INDEXES = {
  activations: [
    'ALTER TABLE activations ADD PRIMARY KEY (seq, received_ms)',
    'ALTER TABLE activations ADD FOREIGN KEY (env_id) REFERENCES environments (id)',
    'CREATE INDEX activations_env_seq ON activations (env_id, seq)',
    'CREATE INDEX activations_visitor ON activations (env_id, visitor_id)',
  ],
  hits: [
    'ALTER TABLE hits ADD PRIMARY KEY (seq, received_ms)',
    'ALTER TABLE hits ADD FOREIGN KEY (env_id) REFERENCES environments (id)',
    'CREATE INDEX hits_env_seq ON hits (env_id, seq)',
    'CREATE INDEX hits_visitor ON hits (env_id, visitor_id)',
    'CREATE INDEX hits_customer ON hits (env_id, customer_id) WHERE customer_id IS NOT NULL',
  ],
} as const;

/** Rows moved per statement by default: a progress line can follow each, and a statement stays seconds long. */
const MOVE_CHUNK = 50_000;

/**
 * Moves the rows into month partitions: one per month they were received in, and the current month and the
 * next two (the daily upkeep keeps that going). The partitions are created while the DEFAULT one is empty.
 * Rows move in chunks in seq order (through the old table's primary key), each chunk said to `progress`.
 */
const moveRows = async (
  tx: Queryable,
  { nowMs, progress, chunkRows = MOVE_CHUNK }: MigrationStep,
): Promise<void> => {
  let total = 0;
  for (const table of PARTITIONED_TABLES) {
    const [rows] = await tx.query(`SELECT count(*) AS n FROM ${table}_unpartitioned`);
    total += rows === undefined ? 0 : num(rows, 'n');
  }
  let done = 0;
  progress(done, total);
  for (const table of PARTITIONED_TABLES) {
    const [range] = await tx.query(
      `SELECT min(received_ms) AS lo, max(received_ms) AS hi FROM ${table}_unpartitioned`,
    );
    const starts = new Set<number>();
    for (let i = 0; i <= 2; i += 1) starts.add(addMonths(monthStart(nowMs), i));
    // Every month from the oldest row's to the newest's: a few dozen at most, and retention drops them.
    if (range !== undefined && range.lo !== null && range.hi !== null)
      for (let start = monthStart(num(range, 'lo')); start <= num(range, 'hi'); start = addMonths(start, 1))
        starts.add(start);
    for (const start of [...starts].sort((a, b) => a - b)) await createMonthPartition(tx, table, start);
    for (let after = -1; ;) {
      const [chunk] = await tx.query(
        `WITH moved AS (INSERT INTO ${table} (${NAMES[table]}) SELECT ${NAMES[table]} FROM ${table}_unpartitioned
           WHERE seq > $1 ORDER BY seq LIMIT $2 RETURNING seq)
         SELECT count(*) AS n, max(seq) AS last FROM moved`,
        [after, chunkRows],
      );
      const moved = chunk === undefined ? 0 : num(chunk, 'n');
      if (moved === 0) break;
      done += moved;
      progress(done, total);
      after = num(chunk ?? {}, 'last');
    }
    // The sequence belongs to the new table, or dropping the old one would drop it.
    await tx.query(`ALTER SEQUENCE ${table}_seq_seq OWNED BY ${table}.seq`);
    await tx.query(`DROP TABLE ${table}_unpartitioned`);
    for (const statement of INDEXES[table]) await tx.query(statement);
  }
};

/** Migration 10: activations and hits partitioned by month; idempotency ids in collected_ids. */
export const timePartitionsMigration = {
  version: 10,
  name: '010-time-partitions',
  sql: `
CREATE TABLE collected_ids (
  env_id text NOT NULL,
  -- 'a': an activation's id, 'h': a hit's.
  kind text NOT NULL CHECK (kind IN ('a', 'h')),
  hid text NOT NULL,
  received_ms bigint NOT NULL,
  PRIMARY KEY (env_id, kind, hid)
);
INSERT INTO collected_ids (env_id, kind, hid, received_ms)
  SELECT env_id, 'a', hid, min(received_ms) FROM activations WHERE hid IS NOT NULL GROUP BY env_id, hid;
INSERT INTO collected_ids (env_id, kind, hid, received_ms)
  SELECT env_id, 'h', hid, min(received_ms) FROM hits WHERE hid IS NOT NULL GROUP BY env_id, hid;
-- Retention deletes the ids of the months it drops.
CREATE INDEX collected_ids_received ON collected_ids (received_ms);

CREATE TABLE rollup_horizon (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  horizon_ms bigint NOT NULL
);

ALTER TABLE activations RENAME TO activations_unpartitioned;
CREATE TABLE activations (
  ${COLUMNS.activations}
) PARTITION BY RANGE (received_ms);
CREATE TABLE activations_default PARTITION OF activations DEFAULT;

ALTER TABLE hits RENAME TO hits_unpartitioned;
CREATE TABLE hits (
  ${COLUMNS.hits}
) PARTITION BY RANGE (received_ms);
CREATE TABLE hits_default PARTITION OF hits DEFAULT;
`,
  run: moveRows,
} as const;

// Planner statistics (issue 31). Without them PostgreSQL guesses every table's size and every column's
// distribution, and the report queries, which join hits and activations per visitor, turn into nested loops
// whose cost grows with the square of the rows. PostgreSQL keeps them fresh through autovacuum; PGlite runs no
// autovacuum at all, and a local PostgreSQL may have it turned off. So the store analyzes after migrations
// (migrate.ts), warns when a PostgreSQL server's autovacuum is off (postgres.ts), and runs its own schedule
// where nothing else would (pglite.ts, and postgres.ts while autovacuum is off).
//
// Imports are not analyzed on their own: the operator import (`feature-server import`, directly or through the
// operator route PUT …/campaigns of a running server) only replaces an environment's campaigns, tens of rows
// that the schedule's threshold covers; the rows that grow (hits, activations, assignments) arrive through
// collection, which the schedule follows. A backfill that writes many rows calls analyzeTables when it ends.
import type { Queryable } from './sql.js';

/**
 * The store's tables whose statistics matter: those that grow with traffic (activations, hits, identities,
 * assignments and their id codes, the report rollups), those the reports and the decision join them with
 * (campaigns, variation groups, variations), and the rollups' pending queues, whose rows come and go (the
 * schedule's VACUUM returns their space). The other tables stay a few rows per account.
 */
export const STORE_TABLES: readonly string[] = [
  'activations',
  'hits',
  'identities',
  'assignments',
  'assignment_ids',
  'campaigns',
  'variation_groups',
  'variations',
  'collected_ids',
  'rollup_pending_activations',
  'rollup_pending_hits',
  'rollup_pending_links',
  'rollup_persons',
  'rollup_visit_windows',
  'campaign_rollups',
  'campaign_rollup_revisions',
];

/** What one ANALYZE (or VACUUM (ANALYZE)) did. */
export interface AnalyzeRun {
  /** The tables analyzed, in the order given. */
  tables: readonly string[];
  /** Whether the tables were also vacuumed. */
  vacuumed: boolean;
  /** How long the statement took, in milliseconds. */
  ms: number;
}

// A table name as the store's migrations write them, optionally schema-qualified: anything else is refused
// rather than quoted, since a name arrives from code, never from a request.
const TABLE_NAME = /^[a-z_][a-z0-9_]{0,62}(?:\.[a-z_][a-z0-9_]{0,62})?$/;

const quoteTable = (name: string): string => {
  if (!TABLE_NAME.test(name)) throw new Error(`Invalid table name "${name}".`);
  return name
    .split('.')
    .map((part) => `"${part}"`)
    .join('.');
};

const run = async (sql: Queryable, tables: readonly string[], vacuum: boolean): Promise<AnalyzeRun> => {
  const list = tables.map(quoteTable).join(', ');
  const started = performance.now();
  // One statement for all tables: a single round trip, and on PGlite a single turn of its worker.
  await sql.query(vacuum ? `VACUUM (ANALYZE) ${list}` : `ANALYZE ${list}`);
  return { tables, vacuumed: vacuum, ms: performance.now() - started };
};

/**
 * Runs `ANALYZE` on the store's tables (STORE_TABLES) and on any `tables` passed (names in the current
 * schema, or `schema.table`), so that the planner knows their sizes and distributions. Never a bare `ANALYZE`:
 * on PostgreSQL that would analyze every schema of the database, other stores' included. Works inside a
 * transaction. Call it after writing many rows at once (a backfill, a migration that copies data).
 */
export const analyzeTables = (sql: Queryable, tables: readonly string[] = []): Promise<AnalyzeRun> =>
  run(sql, [...new Set([...STORE_TABLES, ...tables])], false);

/** Reads one setting through `SHOW` (what an operator would type to check it). */
const show = async (sql: Queryable, setting: string): Promise<string> => {
  const rows = await sql.query(`SHOW ${setting}`);
  const value = rows[0]?.[setting];
  return typeof value === 'string' ? value : '';
};

/**
 * Checks that a PostgreSQL server keeps planner statistics itself: returns one warning line naming the
 * setting that is off (`autovacuum`, or `track_counts`, without which autovacuum cannot see what changed)
 * and how to turn it on, or null when both are on. Not for PGlite, which has no autovacuum to turn on.
 */
export const checkAutovacuum = async (sql: Queryable): Promise<string | null> => {
  const off: string[] = [];
  for (const setting of ['autovacuum', 'track_counts']) {
    if ((await show(sql, setting)) === 'off') off.push(setting);
  }
  if (off.length === 0) return null;
  const names = off.join(' and ');
  const conf = off.map((setting) => `${setting} = on`).join(', ');
  const alter = off.map((setting) => `ALTER SYSTEM SET ${setting} = on;`).join(' ');
  return (
    `PostgreSQL's ${names} ${off.length === 1 ? 'is' : 'are'} off on this server: planner statistics go ` +
    'stale as hits and activations grow, and reports slow down sharply (this server analyzes its own ' +
    `tables meanwhile). Turn ${off.length === 1 ? 'it' : 'them'} on: set ${conf} in postgresql.conf and ` +
    `reload, or run \`${alter} SELECT pg_reload_conf();\` as a superuser.`
  );
};

/** When the schedule analyzes a table. */
export interface AnalyzeThresholds {
  /** Rows changed since the table's last analyze before it is due, whatever its size (default 50). */
  rows?: number;
  /** Plus this fraction of the table's rows (default 0.1). */
  scaleFactor?: number;
}

// PostgreSQL's own autovacuum defaults (autovacuum_analyze_threshold, autovacuum_analyze_scale_factor): the
// embedded store then keeps statistics as fresh as a default PostgreSQL does. A fixed row count instead would
// re-analyze a large table after a trickle, or leave a small one unanalyzed after it tripled.
const DEFAULT_ROWS = 50;
const DEFAULT_SCALE_FACTOR = 0.1;

/**
 * The tables of `tables` (in the current schema) whose rows changed since their last analyze by more than
 * the thresholds, as the server's own activity counters (`pg_stat_user_tables`) say; PGlite flushes those
 * counters about once a second, so a change can take a second to show.
 */
export const tablesDueForAnalyze = async (
  sql: Queryable,
  thresholds: AnalyzeThresholds = {},
  tables: readonly string[] = STORE_TABLES,
): Promise<string[]> => {
  const rows = thresholds.rows ?? DEFAULT_ROWS;
  const scaleFactor = thresholds.scaleFactor ?? DEFAULT_SCALE_FACTOR;
  // reltuples is -1 for a table never analyzed nor vacuumed: counted as empty. A partitioned table
  // (activations and hits, migration 10) counts no changes itself: its partitions' are summed, and an ANALYZE
  // of it analyzes them too.
  const due = await sql.query(
    `SELECT coalesce(p.relname, c.relname) AS relname
       FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
       LEFT JOIN pg_inherits i ON i.inhrelid = c.oid LEFT JOIN pg_class p ON p.oid = i.inhparent
      WHERE s.schemaname = current_schema() AND c.relkind = 'r' AND coalesce(p.relname, c.relname) = ANY($1::text[])
      GROUP BY 1
     HAVING sum(s.n_mod_since_analyze) >= $2 + $3 * sum(greatest(c.reltuples, 0))`,
    [tables, rows, scaleFactor],
  );
  const names = new Set(due.map((row) => String(row.relname)));
  return tables.filter((table) => names.has(table));
};

/** Options of scheduleAnalyze. */
export interface AnalyzeScheduleOptions extends AnalyzeThresholds {
  /** How often the counters are checked, in milliseconds (default ANALYZE_CHECK_INTERVAL_MS). */
  intervalMs?: number;
  /** Vacuums the due tables too (`VACUUM (ANALYZE)`); default true. */
  vacuum?: boolean;
  /** Hears each run that analyzed something (the tables, and how long it took). */
  onRun?: (run: AnalyzeRun) => void;
  /** Hears a check or a run that failed (the store restarting, a lock); the schedule goes on. */
  onError?: (error: unknown) => void;
}

/**
 * How often the schedule checks by default: once a minute, autovacuum's own `autovacuum_naptime`. The check
 * is one catalog query (4-50 ms on PGlite, depending on load). PGlite runs one statement at a time, so a
 * run delays requests by its length: at most once a minute, and only for tables that grew by a tenth.
 */
export const ANALYZE_CHECK_INTERVAL_MS = 60_000;

/** A running schedule. */
export interface AnalyzeSchedule {
  /** Stops the timer and waits for a run in progress, so the store can close behind it. */
  stop(): Promise<void>;
}

/**
 * Analyzes the store's tables that changed enough (tablesDueForAnalyze) every `intervalMs`, where no
 * autovacuum does it: on PGlite, and on a PostgreSQL whose autovacuum is off. Due tables are also vacuumed by
 * default, since that is cheap here: measured on PGlite (2 cores), an ANALYZE of a 300 000-row hits table
 * takes 130-250 ms; a VACUUM of it 1-30 ms once its pages are marked all-visible and 70-90 ms after a tenth
 * of it was deleted; only the first VACUUM after a bulk load reads every page (about as long as the
 * ANALYZE). It returns the space of deleted rows (expired assignments) and lets reads skip visible pages.
 * The timer is unref'd: it never keeps a process alive. A check never overlaps the previous one.
 */
export const scheduleAnalyze = (sql: Queryable, options: AnalyzeScheduleOptions = {}): AnalyzeSchedule => {
  const vacuum = options.vacuum ?? true;
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  const tick = (): void => {
    if (busy) return;
    busy = true;
    running = (async () => {
      try {
        const due = await tablesDueForAnalyze(sql, options);
        if (due.length > 0) options.onRun?.(await run(sql, due, vacuum));
      } catch (error) {
        options.onError?.(error);
      } finally {
        busy = false;
      }
    })();
  };
  const timer = setInterval(tick, options.intervalMs ?? ANALYZE_CHECK_INTERVAL_MS);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
};

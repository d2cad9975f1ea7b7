// Applies the migrations of migrations/ in order, each in its own transaction, recording each in
// schema_migrations. An advisory lock makes concurrent starts on one PostgreSQL database take turns.
import { MIGRATIONS, type Migration } from './index.js';
import { analyzeTables } from '../sql/planner-statistics.js';
import { rowsProgressLine } from '../progress-line.js';
import { num, type Sql } from '../sql/sql.js';

// Arbitrary constant shared by every instance: the key of the migration advisory lock.
const MIGRATION_LOCK = 7_200_107;

/** The migrations in order (embedded modules: a built server needs nothing from src/). */
export const listMigrations = (): readonly Migration[] => {
  MIGRATIONS.forEach((migration, i) => {
    // A gap or a reordering would apply a schema out of order on some database: refuse to start.
    if (migration.version !== i + 1) {
      throw new Error(`Migration ${migration.name} has version ${migration.version}, expected ${i + 1}.`);
    }
  });
  return MIGRATIONS;
};

/** Options of migrate. */
export interface MigrateOptions {
  /**
   * Hears the lines of an upgrade (a database that already held migrations): which migration runs, how far a
   * long one is, every `everyMs`, and how long it took. A new database's migrations are not said: they are
   * quick, and the first-run notice already says the database is being created.
   */
  onProgress?: (line: string) => void;
  /** How often a long step's line is said (default 2 s). */
  everyMs?: number;
  /** The clock (tests pin it). */
  now?: () => number;
  /** Rows a migration that moves rows moves per statement (default its own; tests lower it). */
  chunkRows?: number;
}

/** Applies every pending migration, then, when at least one was applied here, analyzes the store's tables. */
export const migrate = async (sql: Sql, options: MigrateOptions = {}): Promise<void> => {
  await sql.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_ms bigint NOT NULL)',
  );
  const now = options.now ?? Date.now;
  const everyMs = options.everyMs ?? 2_000;
  // An upgrade moves or marks every stored row (migrations 9-11 on a million rows take minutes): an operator
  // watching the start sees each step and, for a long one, how far it is and what is left.
  const [held] = await sql.query('SELECT count(*) AS n FROM schema_migrations');
  const say = held !== undefined && num(held, 'n') > 0 ? options.onProgress : undefined;
  let applied = 0;
  for (const migration of listMigrations()) {
    await sql.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const done = await tx.query('SELECT version FROM schema_migrations WHERE version = $1', [
        migration.version,
      ]);
      if (done.length > 0 && num(done[0] ?? {}, 'version') === migration.version) return;
      applied += 1;
      const subject = `Upgrading the database, migration ${migration.name}`;
      const started = now();
      let saidAt = started;
      // The estimate counts from the step's first report (0 rows done), not from the migration's start:
      // the statements before it (building tables, partitions) say nothing about the rows' rate.
      let rowsFrom: number | null = null;
      say?.(`${subject}…`);
      try {
        for (const statement of splitStatements(migration.sql)) await tx.query(statement);
        await migration.run?.(tx, {
          nowMs: Date.now(),
          ...(options.chunkRows === undefined ? {} : { chunkRows: options.chunkRows }),
          progress: (rows, total) => {
            rowsFrom ??= now();
            if (say === undefined || now() - saidAt < everyMs) return;
            saidAt = now();
            say(rowsProgressLine(subject, 'done', { done: rows, total, elapsedMs: saidAt - rowsFrom }));
          },
        });
      } catch (error) {
        // Its transaction rolls back: the database stays at the migration before, and says so.
        say?.(`${subject}: failed after ${Math.round((now() - started) / 1000)} s, nothing of it was kept`);
        throw error;
      }
      const tookMs = now() - started;
      if (tookMs >= everyMs) say?.(`${subject}: done in ${Math.round(tookMs / 1000)} s`);
      await tx.query('INSERT INTO schema_migrations (version, name, applied_ms) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        Date.now(),
      ]);
    });
  }
  // A migration may rewrite or backfill whole tables, and a new database has never been analyzed: either
  // way the planner would otherwise go without statistics until something analyzes (on PGlite, or on a
  // PostgreSQL without autovacuum, possibly never). Outside the migrations' transactions, so the lock is not
  // held meanwhile; a start with nothing to apply skips it and costs nothing.
  if (applied > 0) await analyzeTables(sql);
};

/** Splits a migration into statements (our migrations hold no `;` inside strings or bodies). */
const splitStatements = (text: string): string[] =>
  text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n')
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

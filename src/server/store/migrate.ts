// Applies the SQL files of migrations/ in order, each in its own transaction, recording each in
// schema_migrations. An advisory lock makes concurrent starts on one PostgreSQL database take turns.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { num, type Sql } from './sql.js';

// Arbitrary constant shared by every instance: the key of the migration advisory lock.
const MIGRATION_LOCK = 7_200_107;

/**
 * The migrations folder. Under tsx it sits beside this module; tsc does not copy .sql files, so the
 * compiled module (dist/lib/server/store) reads them from the source tree.
 */
export const migrationsDir = (): string => {
  const beside = fileURLToPath(new URL('./migrations/', import.meta.url));
  if (existsSync(beside)) return beside;
  return fileURLToPath(new URL('../../../../src/server/store/migrations/', import.meta.url));
};

/** The migration files in order: `NNN-name.sql`. */
export const listMigrations = (): Array<{ version: number; name: string; sql: string }> => {
  const dir = migrationsDir();
  return readdirSync(dir)
    .filter((file) => /^\d{3}-[a-z0-9-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number.parseInt(file.slice(0, 3), 10),
      name: file,
      sql: readFileSync(`${dir}${file}`, 'utf8'),
    }));
};

/** Applies every pending migration. */
export const migrate = async (sql: Sql): Promise<void> => {
  await sql.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_ms bigint NOT NULL)',
  );
  for (const migration of listMigrations()) {
    await sql.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const done = await tx.query('SELECT version FROM schema_migrations WHERE version = $1', [
        migration.version,
      ]);
      if (done.length > 0 && num(done[0] ?? {}, 'version') === migration.version) return;
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name, applied_ms) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        Date.now(),
      ]);
    });
  }
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

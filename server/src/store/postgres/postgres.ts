// The PostgreSQL store through node-postgres: a pool for queries and one dedicated, self-reconnecting client
// for LISTEN (pg-listener.ts), so every instance on the database learns of configuration changes (§13.5:
// within one second).
import pg from 'pg';
import { migrate } from '../migrations/migrate.js';
import { PgListener, type ListenerBackoff } from './pg-listener.js';
import {
  checkAutovacuum,
  scheduleAnalyze,
  type AnalyzeSchedule,
  type AnalyzeScheduleOptions,
} from '../sql/planner-statistics.js';
import { createSqlStore } from '../sql/sql-store.js';
import type { Queryable, Row, Sql } from '../sql/sql.js';
import type { Store } from '../store.js';

const asQueryable = (client: pg.Pool | pg.PoolClient): Queryable => ({
  query: async (text, params = []) => (await client.query(text, [...params])).rows as Row[],
});

/** Options of the PostgreSQL store. */
export interface PostgresOptions {
  connectionString: string;
  /** A schema to use instead of `public` (tests use a random one per run); created if missing. */
  schema?: string;
  /** Pool size (default 10). */
  max?: number;
  /** Reconnection delays of the LISTEN connection (tests shorten them). */
  listenBackoff?: Partial<ListenerBackoff>;
  /**
   * Hears what the store found wrong with the server at open, one line each: today autovacuum (or
   * track_counts) off, which leaves the planner without fresh statistics (planner-statistics.ts). The
   * server logs it as a warning; the store opens all the same.
   */
  onWarning?: (warning: string) => void;
  /**
   * A read replica for report reads (DATABASE_REPLICA_URL); without one, report reads get a small pool of
   * their own on the primary, so they never wait for a connection behind hits and decisions (issue 31).
   */
  replicaConnectionString?: string;
  /** The schedule that analyzes the store's tables while the server's autovacuum is off (tests shorten it). */
  analyzeSchedule?: AnalyzeScheduleOptions;
  /** Hears the lines of an upgrade's migrations (migrate.ts): the server and the CLI say them. */
  onMigrationProgress?: (line: string) => void;
}

const quoteIdent = (name: string): string => {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`Invalid schema name "${name}".`);
  return `"${name}"`;
};

/** Opens the PostgreSQL store and applies pending migrations. */
export const openPostgresStore = async (options: PostgresOptions): Promise<Store> => {
  const schema = options.schema;
  const config: pg.PoolConfig = {
    connectionString: options.connectionString,
    max: options.max ?? 10,
    ...(schema === undefined ? {} : { options: `-c search_path=${quoteIdent(schema)}` }),
  };
  const pool = new pg.Pool(config);
  // Two connections are plenty: a report reads a few rows per variation, goal and day.
  const reportPool = new pg.Pool({
    ...config,
    connectionString: options.replicaConnectionString ?? options.connectionString,
    max: 2,
  });
  // An idle client's error (the server restarting) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  reportPool.on('error', () => undefined);
  if (schema !== undefined) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);

  const listener = new PgListener(
    {
      connectionString: options.connectionString,
      ...(config.options === undefined ? {} : { options: config.options }),
    },
    options.listenBackoff,
  );
  const sql: Sql = {
    ...asQueryable(pool),
    reportReads: asQueryable(reportPool),
    channelPrefix: `feature_${schema ?? 'public'}`,
    exec: async (text) => {
      await pool.query(text);
    },
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(asQueryable(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    listen: (channel, onPayload, onInterruption) => listener.listen(channel, onPayload, onInterruption),
    close: async () => {
      await schedule?.stop();
      await listener.close();
      await pool.end();
      await reportPool.end();
    },
  };
  let schedule: AnalyzeSchedule | null = null;
  try {
    await migrate(
      sql,
      options.onMigrationProgress === undefined ? {} : { onProgress: options.onMigrationProgress },
    );
    const warning = await checkAutovacuum(sql);
    if (warning !== null) {
      options.onWarning?.(warning);
      // Nothing else would analyze these tables until an operator turns autovacuum on: the embedded store's
      // schedule does it meanwhile, on the store's tables only.
      schedule = scheduleAnalyze(sql, options.analyzeSchedule);
    }
  } catch (error) {
    await pool.end();
    await reportPool.end();
    throw error;
  }
  return createSqlStore(sql, 'postgres');
};

// Support of the tests of issue 31's monthly partitions and retention: a store opened together with a way
// to query its database behind its back (which partition holds a row, which partitions exist), on each store
// kind, and the rows those tests store.
import pg from 'pg';
import { migrate } from '../../../server/src/store/migrations/migrate.js';
import { openPgliteThread } from '../../../server/src/store/pglite/pglite-thread.js';
import type { Row, Sql } from '../../../server/src/store/sql/sql.js';
import { createSqlStore } from '../../../server/src/store/sql/sql-store.js';
import type { Store } from '../../../server/src/store/store.js';
import type { StoreKind } from '../support.js';
import { auditedByTests } from '../test-actor.js';

/** A store and its database. */
export interface StoreWithSql {
  store: Store;
  /** Runs one query on the store's database (its schema, on PostgreSQL). */
  query(text: string, params?: readonly unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

/** Opens a store of `kind` (a new in-memory PGlite, or the run's PostgreSQL schema) with raw access. */
export const openStoreWithSql = async (kind: StoreKind): Promise<StoreWithSql> => {
  if (kind.postgres === undefined) {
    const thread = await openPgliteThread(null);
    await migrate(thread);
    const store = auditedByTests(createSqlStore(thread, 'pglite'));
    return { store, query: (text, params) => thread.query(text, params), close: () => store.close() };
  }
  const store = await kind.open();
  const client = new pg.Client({
    connectionString: kind.postgres.url,
    options: `-c search_path=${kind.postgres.schema}`,
  });
  await client.connect();
  return {
    store,
    query: async (text, params) => (await client.query<Row>(text, params as unknown[])).rows,
    close: async () => {
      await client.end();
      await store.close();
    },
  };
};

/** The partition that holds each of a table's rows, by seq. */
export const partitionsOfRows = async (db: StoreWithSql, table: string): Promise<Record<string, string>> =>
  Object.fromEntries(
    (await db.query(`SELECT seq, tableoid::regclass::text AS p FROM ${table} ORDER BY seq`)).map((row) => [
      String(row.seq),
      String(row.p),
    ]),
  );

/** The partitions of a table, by name. */
export const partitionNames = async (db: StoreWithSql, table: string): Promise<string[]> =>
  (
    await db.query(
      `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = to_regclass($1) ORDER BY c.relname`,
      [table],
    )
  ).map((row) => String(row.relname));

/** A migrated database of `kind` with no store (so no folder folds behind the test's back). */
export const openBareDatabase = async (
  kind: StoreKind,
): Promise<{ sql: Pick<Sql, 'query' | 'transaction'>; close(): Promise<void> }> => {
  if (kind.postgres === undefined) {
    const thread = await openPgliteThread(null);
    await migrate(thread);
    return { sql: thread, close: () => thread.close() };
  }
  const { url } = kind.postgres;
  const schema = `${kind.postgres.schema}_bare`;
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  const query = async (text: string, params?: readonly unknown[]): Promise<Row[]> =>
    (await client.query<Row>(text, params as unknown[])).rows;
  // One connection: a transaction is BEGIN … COMMIT on it.
  const sql: Sql = {
    query,
    exec: async (text) => {
      await client.query(text);
    },
    transaction: async (fn) => {
      await client.query('BEGIN');
      try {
        const result = await fn({ query });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
    listen: () => Promise.reject(new Error('not in these tests')),
    channelPrefix: schema,
    close: async () => {
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    },
  };
  await migrate(sql);
  return { sql, close: () => sql.close() };
};

// The embedded store: PGlite in a data folder (or in memory for tests), behind the shared SQL surface.
import { PGlite } from '@electric-sql/pglite';
import { lockDataDir } from './data-dir-lock.js';
import { migrate } from './migrate.js';
import { createSqlStore } from './sql-store.js';
import type { Queryable, Row, Sql } from './sql.js';
import type { Store } from './store.js';

interface PgliteLike {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

const asQueryable = (db: PgliteLike): Queryable => ({
  query: async (text, params = []) => (await db.query(text, [...params])).rows as Row[],
});

/**
 * A queue that starts each statement (or transaction) on its own event-loop turn. PGlite runs a statement
 * synchronously on the main thread and passes its lock to the next waiting statement within microtasks, so
 * queued statements would otherwise run back to back without the event loop accepting connections or reading
 * requests: under load a new connection's first request waited seconds (the p99 of hit ingestion).
 */
const turnByTurn = (): (<T>(run: () => Promise<T>) => Promise<T>) => {
  let tail: Promise<unknown> = Promise.resolve();
  return (run) => {
    const result = tail.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(run);
    tail = result.catch(() => undefined);
    return result;
  };
};

/** Wraps an open PGlite instance as the shared SQL surface (exported for tests that share one instance). */
export const pgliteSql = (db: PGlite, onClose: () => void = () => undefined): Sql => {
  const serial = turnByTurn();
  return {
    query: (text, params = []) => serial(async () => (await db.query(text, [...params])).rows as Row[]),
    channelPrefix: 'feature',
    exec: (text) =>
      serial(async () => {
        await db.exec(text);
      }),
    transaction: (fn) => serial(() => db.transaction((tx) => fn(asQueryable(tx)))),
    listen: async (channel, onPayload) => {
      const unlisten = await db.listen(channel, onPayload);
      return () => unlisten();
    },
    close: async () => {
      try {
        await db.close();
      } finally {
        onClose();
      }
    },
  };
};

/**
 * Opens the embedded store in `dataDir` (created if missing), or in memory when `dataDir` is null, and
 * applies pending migrations. Throws DataDirBusyError when another process holds the folder.
 */
export const openPgliteStore = async (dataDir: string | null): Promise<Store> => {
  const release = dataDir === null ? () => undefined : lockDataDir(dataDir);
  try {
    const db = dataDir === null ? new PGlite() : new PGlite(dataDir);
    await db.waitReady;
    const sql = pgliteSql(db, release);
    await migrate(sql);
    return createSqlStore(sql, 'pglite');
  } catch (error) {
    release();
    throw error;
  }
};

// The embedded store: PGlite in a data folder (or in memory for tests), behind the shared SQL surface. The
// server's store runs PGlite on a worker thread (pglite-thread.ts), because PGlite runs each statement
// synchronously and on the main thread stalled every request behind it; `pgliteSql` still wraps an
// in-process instance for tests that share one database between the store and plain SQL.
import { PGlite } from '@electric-sql/pglite';
import { lockDataDir } from './data-dir-lock.js';
import { migrate } from './migrate.js';
import { openPgliteThread } from './pglite-thread.js';
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
 * Opens the embedded store in `dataDir` (created if missing), or in memory when `dataDir` is null, on its
 * own worker thread, and applies pending migrations. Throws DataDirBusyError when another process holds the
 * folder.
 */
export const openPgliteStore = async (dataDir: string | null): Promise<Store> => {
  // The lock stays on this thread: it names this process, which owns the folder whatever thread writes it.
  const release = dataDir === null ? () => undefined : lockDataDir(dataDir);
  let thread: Sql;
  try {
    thread = await openPgliteThread(dataDir);
  } catch (error) {
    release();
    throw error;
  }
  const sql: Sql = {
    ...thread,
    close: async () => {
      try {
        await thread.close();
      } finally {
        release();
      }
    },
  };
  try {
    await migrate(sql);
  } catch (error) {
    await sql.close();
    throw error;
  }
  return createSqlStore(sql, 'pglite');
};

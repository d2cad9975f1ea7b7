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

/** Wraps an open PGlite instance as the shared SQL surface (exported for tests that share one instance). */
export const pgliteSql = (db: PGlite, onClose: () => void = () => undefined): Sql => ({
  ...asQueryable(db),
  channelPrefix: 'feature',
  exec: async (text) => {
    await db.exec(text);
  },
  transaction: (fn) => db.transaction((tx) => fn(asQueryable(tx))),
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
});

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

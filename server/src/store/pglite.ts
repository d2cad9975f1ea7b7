// The embedded store: PGlite in a data folder (or in memory for tests), behind the shared SQL surface. It
// runs on a worker thread (pglite-thread.ts): PGlite runs each statement synchronously, so on the main
// thread it stalled every request behind it.
import { lockDataDir } from './data-dir-lock.js';
import { filterAssignmentReads } from './filtered-assignment-reads.js';
import { migrate } from './migrate.js';
import { openPgliteThread } from './pglite-thread.js';
import { createSqlStore } from './sql-store.js';
import type { Sql } from './sql.js';
import type { Store } from './store.js';

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
  // This process alone writes the folder (the lock above): reads can skip visitors it certainly lacks.
  return filterAssignmentReads(createSqlStore(sql, 'pglite'), sql);
};

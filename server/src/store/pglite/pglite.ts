// The embedded store: PGlite in a data folder (or in memory for tests), behind the shared SQL surface. It
// runs on a worker thread (pglite-thread.ts): PGlite runs each statement synchronously, so on the main
// thread it stalled every request behind it. The folder is its owner's alone (data-dir-modes.ts).
import { lockDataDir } from './data-dir-lock.js';
import { prepareDataDir, restrictDataDirModes, type DataDirRepair } from './data-dir-modes.js';
import { filterAssignmentReads } from './filtered-assignment-reads.js';
import { migrate } from '../migrations/migrate.js';
import { openPgliteThread } from './pglite-thread.js';
import {
  scheduleAnalyze,
  type AnalyzeSchedule,
  type AnalyzeScheduleOptions,
} from '../sql/planner-statistics.js';
import { createSqlStore } from '../sql/sql-store.js';
import type { Sql } from '../sql/sql.js';
import type { Store } from '../store.js';

/** Options of openPgliteStore. */
export interface PgliteStoreOptions {
  /**
   * Hears that the folder was found open to other users (group or other bits on it or in it) and was made
   * private at open; the server logs it. Not called when nothing changed.
   */
  onModesRepaired?: (repair: DataDirRepair) => void;
  /**
   * The schedule that keeps planner statistics fresh, since PGlite runs no autovacuum (planner-statistics.ts:
   * a check a minute by default; tests shorten it and hear each run).
   */
  analyzeSchedule?: AnalyzeScheduleOptions;
  /** Hears the lines of an upgrade's migrations (migrate.ts): the server and the CLI say them. */
  onMigrationProgress?: (line: string) => void;
}

/**
 * Opens the embedded store in `dataDir` (created 0700 if missing), or in memory when `dataDir` is null, on
 * its own worker thread, and applies pending migrations. The folder and everything in it are kept private
 * to its owner: repaired at open (`onModesRepaired` hears of it) and again once PGlite has written its files,
 * and at close. Throws DataDirOwnerError when the folder belongs to another user, DataDirBusyError when
 * another process holds it.
 */
export const openPgliteStore = async (
  dataDir: string | null,
  options: PgliteStoreOptions = {},
): Promise<Store> => {
  // Owner first: nothing, not even the lock file, is written into another user's folder.
  if (dataDir !== null) prepareDataDir(dataDir);
  // The lock stays on this thread: it names this process, which owns the folder whatever thread writes it.
  const release = dataDir === null ? () => undefined : lockDataDir(dataDir);
  // PGlite sets its files' modes itself whatever the umask (data-dir-modes.ts): they are repaired after it
  // wrote them (a new database's thousand files, the caches each start rewrites) and at close, so that a
  // repair at the next open finds only what someone else changed.
  const restrict = (): DataDirRepair | null => (dataDir === null ? null : restrictDataDirModes(dataDir));
  let thread: Sql;
  try {
    const repair = restrict();
    if (repair !== null && repair.changed > 0) options.onModesRepaired?.(repair);
    thread = await openPgliteThread(dataDir);
  } catch (error) {
    release();
    throw error;
  }
  let schedule: AnalyzeSchedule | null = null;
  const sql: Sql = {
    ...thread,
    close: async () => {
      try {
        // Before the worker closes: a run in progress finishes, and no new one starts on a closed store.
        await schedule?.stop();
        await thread.close();
        // The data is safe on disk by now: a failed repair must not turn a clean stop into an error, and the
        // next open repairs (and says so) anyway.
        try {
          restrict();
        } catch {
          // Said at the next open.
        }
      } finally {
        release();
      }
    },
  };
  try {
    await migrate(
      sql,
      options.onMigrationProgress === undefined ? {} : { onProgress: options.onMigrationProgress },
    );
    restrict();
  } catch (error) {
    await sql.close();
    throw error;
  }
  schedule = scheduleAnalyze(sql, options.analyzeSchedule);
  // This process alone writes the folder (the lock above): reads can skip visitors it certainly lacks.
  return filterAssignmentReads(createSqlStore(sql, 'pglite'), sql);
};

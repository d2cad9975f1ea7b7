// Opening the store a configuration names, apart from the server (main.ts) so that a CLI command that opens
// the store loads neither the app (fastify, the routes) nor the other store's driver: each store's module is
// loaded only when it is the one opened (pg alone takes over a second to load under load on 2 cores).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerConfig } from '../config.js';
import { prepareDataDir, type DataDirRepair } from './pglite/data-dir-modes.js';
import type { Store } from './store.js';

/** What openStore tells its caller about the embedded folder while it opens it. */
export interface StoreOpenEvents {
  /** Creating the embedded database takes seconds: heard first (the CLI says so on stderr). */
  onFirstRun?: (dataDir: string) => void;
  /** The folder was found open to other users and was made private (the server logs it). */
  onModesRepaired?: (repair: DataDirRepair) => void;
  /** PostgreSQL found something to fix at open, e.g. autovacuum off (a server logs it as a warning). */
  onWarning?: (warning: string) => void;
  /** An upgrade's migrations say which runs and how far a long one is (the CLI says it on stderr). */
  onMigrationProgress?: (line: string) => void;
}

/** Opens the store the configuration names: PostgreSQL with DATABASE_URL, else the embedded folder. */
export const openStore = async (config: ServerConfig, events: StoreOpenEvents = {}): Promise<Store> => {
  if (config.databaseUrl !== null) {
    const { openPostgresStore } = await import('./postgres/postgres.js');
    return openPostgresStore({
      connectionString: config.databaseUrl,
      ...(config.databaseReplicaUrl === null ? {} : { replicaConnectionString: config.databaseReplicaUrl }),
      ...(events.onWarning === undefined ? {} : { onWarning: events.onWarning }),
      ...(events.onMigrationProgress === undefined
        ? {}
        : { onMigrationProgress: events.onMigrationProgress }),
    });
  }
  // Before the first-run notice: another user's folder is refused, not announced as being created.
  prepareDataDir(config.dataDir);
  // PG_VERSION is the last thing an initialised PostgreSQL data folder lacks.
  if (!existsSync(join(config.dataDir, 'PG_VERSION'))) events.onFirstRun?.(config.dataDir);
  const { openPgliteStore } = await import('./pglite/pglite.js');
  return openPgliteStore(config.dataDir, {
    ...(events.onModesRepaired === undefined ? {} : { onModesRepaired: events.onModesRepaired }),
    ...(events.onMigrationProgress === undefined ? {} : { onMigrationProgress: events.onMigrationProgress }),
  });
};

// Which store a command works on (PROTOCOL.md §13.9): PostgreSQL with DATABASE_URL (side by side with any
// server); else the embedded folder, opened directly, or, when a running server holds it, through that
// server's operator routes with the credential it left in the folder. A read-only command never creates
// the embedded database. The store's modules are loaded only when the store is opened: a command through a
// running server needs none of them, and loading them (fastify, PGlite, pg) costs more than the whole call.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerConfig } from '../config.js';
import { readLocalOperator, type LocalOperator } from '../local-operator.js';
import { DataDirBusyError } from '../store/pglite/data-dir-lock.js';
import { describeRepair, type DataDirRepair } from '../store/pglite/data-dir-modes.js';
import type { Store } from '../store/store.js';
import { CliError } from './cli-error.js';
import { operatorAnswers, operatorClient } from './operator-client.js';
import type { Operations, StoreUsed } from './operations.js';

/** Whether a command only reads (then it must not create a database) or may write. */
export type OpenMode = 'read' | 'write';

/** Where DATABASE_URL points, without its user or password. */
const databaseName = (url: string): string => {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
};

/** Which store the configuration names, before it is opened. */
export const configuredStore = (config: ServerConfig): StoreUsed =>
  config.databaseUrl === null
    ? { kind: 'embedded', dataDir: config.dataDir }
    : { kind: 'postgres', database: databaseName(config.databaseUrl) };

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Says a line on the process's stderr, as the CLI's notes read (stdout may carry --json). */
const noteOnStderr = (text: string): void => {
  process.stderr.write(`feature-server: ${text}\n`);
};

/**
 * Opens the configured store, saying through `note` (stderr: stdout may be --json) when the first run creates
 * it, and when the embedded folder was found open to other users and made private (a server passes
 * `onModesRepaired` to say it in its logs instead). `onWarning` hears what PostgreSQL found to fix
 * (autovacuum off): a server logs it; a one-off command does not pass it, since its few queries do not
 * suffer from it. `onMigrationProgress` hears an upgrade's migrations, which can take minutes (through `note`
 * by default; a server logs them).
 */
export const openConfiguredStore = (
  config: ServerConfig,
  note: (text: string) => void = noteOnStderr,
  onModesRepaired: (repair: DataDirRepair) => void = (repair) => note(describeRepair(repair)),
  onWarning?: (warning: string) => void,
  onMigrationProgress: (line: string) => void = note,
): Promise<Store> =>
  import('../store/open-store.js').then(({ openStore }) =>
    openStore(config, {
      onFirstRun: (dataDir) =>
        note(`creating the embedded database in ${dataDir} (first run only, a few seconds)…`),
      onModesRepaired,
      ...(onWarning === undefined ? {} : { onWarning }),
      onMigrationProgress,
    }),
  );

/** The operations on the configured store, opened. */
const onStore = async (
  config: ServerConfig,
  used: StoreUsed,
  note: (text: string) => void,
): Promise<Operations> => {
  const [{ storeOperations }, store] = await Promise.all([
    import('./store-operations.js'),
    openConfiguredStore(config, note),
  ]);
  return storeOperations(store, used);
};

/**
 * The running server that holds the embedded folder, when one does: its credential is in the folder, its
 * process is alive and it answers with that credential. Null otherwise (no server, or one that stopped
 * without removing its credential).
 */
const runningServer = async (dataDir: string): Promise<LocalOperator | null> => {
  const operator = readLocalOperator(dataDir);
  if (operator === null || !isAlive(operator.pid)) return null;
  return (await operatorAnswers(operator)) ? operator : null;
};

/** Opens what a command works on, saying what opening finds through `note`; the caller closes it. */
export const openOperations = async (
  config: ServerConfig,
  mode: OpenMode,
  note: (text: string) => void = noteOnStderr,
): Promise<Operations> => {
  const used = configuredStore(config);
  if (used.kind === 'postgres') return onStore(config, used, note);
  // A server holds the folder: through it at once, rather than after the store's modules are loaded and the
  // folder is found busy (seconds, against a few milliseconds for a call).
  const running = await runningServer(config.dataDir);
  if (running !== null) return operatorClient(running, { ...used, server: running.url });
  // PG_VERSION is the last thing an initialised data folder lacks (main.ts); a running server has one.
  if (mode === 'read' && !existsSync(join(config.dataDir, 'PG_VERSION')))
    throw new CliError(
      'no_database',
      `There is no database in ${config.dataDir} yet, so there is nothing to read (nothing was created): ` +
        'set FEATURE_DATA_DIR to the data folder of your server, or DATABASE_URL, or create the database ' +
        'with `feature-server demo` or `feature-server account create --name N`.',
    );
  try {
    return await onStore(config, used, note);
  } catch (error) {
    if (!(error instanceof DataDirBusyError)) throw error;
    // A server took the folder meanwhile and left a credential: go through it. Missing, or left by a server
    // that is gone: the busy folder's message says what to do.
    const operator = await runningServer(config.dataDir);
    if (operator === null) throw error;
    return operatorClient(operator, { ...used, server: operator.url });
  }
};

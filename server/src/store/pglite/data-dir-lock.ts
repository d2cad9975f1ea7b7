// The embedded store's folder can be held by one process only (PGlite is not multi-process): a lock file
// holding the owner's pid. A second process stops at once with a message saying what to do (§13.9). A lock
// left by a dead process is taken over.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Raised when another live process holds the data folder. */
export class DataDirBusyError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The data folder ${dir} is in use by process ${pid} (a running feature-server). ` +
        'Stop the server first (Ctrl+C in its terminal), or run against PostgreSQL (DATABASE_URL) where a ' +
        'server and commands run side by side, or use the operator routes (/admin/v1, FEATURE_OPERATOR_KEY).',
    );
    this.name = 'DataDirBusyError';
  }
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Takes the folder's lock; returns the function that releases it. Throws DataDirBusyError. */
export const lockDataDir = (dir: string): (() => void) => {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'feature-server.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
        throw new DataDirBusyError(dir, owner);
      }
      rmSync(file, { force: true });
    }
  }
  throw new DataDirBusyError(dir, -1);
};

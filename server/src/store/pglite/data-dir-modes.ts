// The embedded store's folder holds visitors' data and the rows that grant access (remote control accesses,
// console sessions), so only the user that runs the server may read or write it (issue #29). A umask is not
// enough: PGlite writes through Emscripten's file system, which sets each new file's mode itself after
// creating it (0666 for the files of a new database, 0644 for caches it rewrites), whatever the process's
// umask. So the folder is made 0700, which alone keeps other users out of everything in it, and every entry
// in it is brought to owner-only modes when the store opens and when it closes.
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync, type Stats } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { InputError } from '../../errors.js';

/** How many changed entries a repair names as examples (a new database has about a thousand files). */
const EXAMPLES = 3;

/** Group and other bits, and setuid, setgid and sticky: none belongs on the folder or in it. */
const NOT_OWNER = 0o7077;

/** One entry whose mode a repair changed. */
export interface ModeChange {
  /** The entry's path inside the data folder (`.` for the folder itself). */
  path: string;
  /** Its permission bits before. */
  from: number;
  /** Its permission bits after. */
  to: number;
}

/** What a repair of the data folder's modes changed. */
export interface DataDirRepair {
  dataDir: string;
  /** How many folders and files had group or other bits (or no owner access to a folder). */
  changed: number;
  /** The first few of them. */
  examples: ModeChange[];
}

/** Raised when the data folder belongs to another user than the one running the server. */
export class DataDirOwnerError extends Error {
  constructor(dir: string, owner: number, uid: number) {
    super(
      `The data folder ${dir} belongs to uid ${owner}, but feature-server runs as uid ${uid}, so it was not ` +
        `opened (the data of another user is theirs to read and change). Run feature-server as uid ${owner}, ` +
        `or give the folder to uid ${uid} (\`chown -R ${uid} ${dir}\`), or set FEATURE_DATA_DIR to a folder ` +
        'of your own.',
    );
    this.name = 'DataDirOwnerError';
  }
}

/** Whether modes and owners mean anything here (not on Windows, where Node has no getuid either). */
const posix = (): boolean => typeof process.getuid === 'function' && process.platform !== 'win32';

const octal = (mode: number): string => `0${(mode & 0o7777).toString(8).padStart(3, '0')}`;

/**
 * Creates the data folder, mode 0700, when it is missing (its parents as usual), and checks that it is a
 * folder of the user running this process. Throws DataDirOwnerError for another user's folder.
 */
export const prepareDataDir = (dir: string): void => {
  mkdirSync(dirname(dir), { recursive: true });
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // stat, not lstat: FEATURE_DATA_DIR may name a link to the real folder.
  const stats = statSync(dir);
  if (!stats.isDirectory())
    throw new InputError(`FEATURE_DATA_DIR is ${dir}, which is not a folder: set it to a folder's path.`);
  if (!posix()) return;
  const uid = process.getuid?.() ?? stats.uid;
  if (stats.uid !== uid) throw new DataDirOwnerError(dir, stats.uid, uid);
};

/** Stats of `path`, or null when it vanished meanwhile (PGlite removes temporary files while it runs). */
const statIfThere = (path: string): Stats | null => {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
};

/** The entries of a folder; none when it vanished meanwhile. */
const entriesOf = (path: string): string[] => {
  try {
    return readdirSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
};

/**
 * Takes group and other bits away from the data folder and everything in it: folders become 0700, files
 * keep only their owner's bits (0666 → 0600). Links are left alone (a mode change would reach their target,
 * which may lie outside). Returns what changed. Call it after prepareDataDir.
 */
export const restrictDataDirModes = (dir: string): DataDirRepair => {
  const repair: DataDirRepair = { dataDir: dir, changed: 0, examples: [] };
  if (!posix()) return repair;
  const visit = (path: string, stats: Stats): void => {
    if (!stats.isDirectory() && !stats.isFile()) return;
    const from = stats.mode & 0o7777;
    const to = stats.isDirectory() ? 0o700 : from & ~NOT_OWNER;
    if (to !== from) {
      try {
        chmodSync(path, to);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return;
        throw new InputError(
          `Could not make ${path} private to its owner (${code ?? String(error)}): it belongs to uid ` +
            `${stats.uid}; give the data folder and everything in it to the user running feature-server ` +
            `(\`chown -R\`).`,
        );
      }
      repair.changed++;
      if (repair.examples.length < EXAMPLES)
        repair.examples.push({ path: relative(dir, path) || '.', from, to });
    }
    if (stats.isDirectory())
      for (const name of entriesOf(path)) {
        const child = join(path, name);
        const childStats = statIfThere(child);
        if (childStats !== null) visit(child, childStats);
      }
  };
  // stat for the folder itself, as in prepareDataDir: a link to it is followed.
  visit(dir, statSync(dir));
  return repair;
};

/** A repair in words, for the logs: how many entries, and a few of them. */
export const describeRepair = (repair: DataDirRepair): string => {
  const examples = repair.examples.map(
    ({ path, from, to }) => `${path === '.' ? 'the folder' : path} ${octal(from)} → ${octal(to)}`,
  );
  const more = repair.changed > repair.examples.length ? ', …' : '';
  return (
    `the data folder ${repair.dataDir} was open to other users: ${repair.changed} ` +
    `${repair.changed === 1 ? 'entry was' : 'entries were'} made private to its owner (folders 0700, files ` +
    `without group or other bits), e.g. ${examples.join(', ')}${more}`
  );
};

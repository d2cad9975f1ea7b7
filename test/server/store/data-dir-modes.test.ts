// The embedded store's folder is its owner's alone (issue #29, finding 4): a server creates it 0700 with no
// group or other bits on anything in it, repairs (and logs) a folder an older server left 0755 with 0666
// files, and refuses a folder that belongs to another user.
import assert from 'node:assert/strict';
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  describeRepair,
  prepareDataDir,
  restrictDataDirModes,
} from '../../../server/src/store/pglite/data-dir-modes.js';
import { runCliCommand, runServerProcess } from '../cli-support.js';

/** Every folder and file under `dir` (itself included; links left out), with its permission bits. */
const modesUnder = (dir: string): Map<string, number> => {
  const modes = new Map<string, number>();
  const visit = (path: string): void => {
    const stats = lstatSync(path);
    if (stats.isSymbolicLink()) return;
    modes.set(relative(dir, path) || '.', stats.mode & 0o7777);
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return modes;
};

/** The entries that other users could read, write or enter, as `path 0mode`. */
const openToOthers = (dir: string): string[] =>
  [...modesUnder(dir)]
    .filter(([, mode]) => (mode & 0o077) !== 0)
    .map(([path, mode]) => `${path} 0${mode.toString(8)}`);

const listening = (stdout: string): boolean => stdout.includes('\n');

void describe('the data folder is private to the user running the server', () => {
  const root = mkdtempSync(join(tmpdir(), 'feature-modes-'));
  // Not created here: the server creates it, as it does ./.feature-data.
  const data = join(root, 'data');
  const env = { FEATURE_DATA_DIR: data, LOG_LEVEL: 'info', LOG_FORMAT: 'json' };
  after(() => rmSync(root, { recursive: true, force: true }));

  void it('a server started on a new folder leaves no group or other bits on anything in it', async () => {
    let seen = new Map<string, number>();
    await runServerProcess(['serve', '--json'], env, listening, () => {
      seen = modesUnder(data);
      assert.deepEqual(openToOthers(data), [], 'while the server runs');
      return Promise.resolve();
    });
    // The database's files, the lock and the local operator credential were all there to be checked.
    assert.ok(seen.size > 1000, `${seen.size} entries`);
    for (const path of ['.', 'PG_VERSION', 'postgresql.conf', 'pg_hba.conf', 'global'])
      assert.ok(seen.has(path), path);
    assert.equal(seen.get('.'), 0o700);
    assert.equal(seen.get('feature-server.lock'), 0o600);
    assert.equal(seen.get('operator-credential.json'), 0o600);
    assert.deepEqual(openToOthers(data), [], 'once it stopped');
  });

  void it('repairs a folder left 0755 with 0666 files at start, and logs what it changed', async () => {
    // As the finding saw a folder made by an earlier server: folders 0755, files 0666.
    const entries = [...modesUnder(data).keys()];
    for (const path of entries)
      chmodSync(join(data, path), lstatSync(join(data, path)).isDirectory() ? 0o755 : 0o666);
    const run = await runServerProcess(['serve', '--json'], env, listening, () => {
      assert.deepEqual(openToOthers(data), []);
      return Promise.resolve();
    });
    const records = run.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const repaired = records.find((record) => String(record.msg).includes('open to other users'));
    assert.ok(repaired !== undefined, run.stderr);
    assert.equal(repaired.level, 40);
    // Every entry of the folder was loosened above, so every one was repaired, the folder first.
    assert.equal(repaired.changed, entries.length);
    assert.equal(repaired.dataDir, data);
    const examples = repaired.examples as string[];
    assert.equal(examples.length, 3);
    assert.equal(examples[0], '.');
    assert.match(
      String(repaired.msg),
      new RegExp(
        `^the data folder ${data} was open to other users: ${entries.length} entries were made private to ` +
          'its owner \\(folders 0700, files without group or other bits\\), e\\.g\\. the folder 0755 → 0700, ',
      ),
    );
    assert.match(String(repaired.msg), / 0666 → 0600/);
    assert.deepEqual(openToOthers(data), []);
  });

  void it(
    'refuses a folder that belongs to another user, naming the folder, its owner and the running uid',
    {
      skip:
        process.getuid?.() === 0
          ? false
          : 'needs root: only root can give a folder to another user (uid 65534) to start against',
    },
    async () => {
      const theirs = join(root, 'theirs');
      mkdirSync(theirs, { mode: 0o755 });
      chownSync(theirs, 65534, 65534);
      const plain = await runCliCommand(['serve'], { FEATURE_DATA_DIR: theirs, PORT: '0' });
      assert.equal(plain.code, 2);
      assert.equal(
        plain.stderr,
        `feature-server: The data folder ${theirs} belongs to uid 65534, but feature-server runs as uid 0, ` +
          'so it was not opened (the data of another user is theirs to read and change). Run feature-server ' +
          `as uid 65534, or give the folder to uid 0 (\`chown -R 0 ${theirs}\`), or set FEATURE_DATA_DIR to a ` +
          'folder of your own.\n',
      );
      const json = await runCliCommand(['serve', '--json'], { FEATURE_DATA_DIR: theirs, PORT: '0' });
      assert.equal(json.code, 2);
      const answer = JSON.parse(json.stdout) as { error: { code: string; message: string } };
      assert.equal(answer.error.code, 'data_dir_owner');
      // Nothing was written into it (no lock, no database), and its mode was not touched.
      assert.deepEqual(readdirSync(theirs), []);
      assert.equal(statSync(theirs).mode & 0o777, 0o755);
    },
  );
});

void describe('restrictDataDirModes', () => {
  const root = mkdtempSync(join(tmpdir(), 'feature-restrict-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  void it('creates a missing folder 0700, keeps owner bits, and leaves what links point to alone', () => {
    const dir = join(root, 'made', 'data');
    prepareDataDir(dir);
    assert.equal(statSync(dir).mode & 0o7777, 0o700);
    // Modes set by chmod: the ones given at creation pass through this process's umask.
    mkdirSync(join(dir, 'base', '5'), { recursive: true });
    chmodSync(join(dir, 'base'), 0o775);
    chmodSync(join(dir, 'base', '5'), 0o755);
    const files = { 'base/5/1259': 0o666, 'run.sh': 0o755, 'read-only': 0o444 };
    for (const [path, mode] of Object.entries(files)) {
      writeFileSync(join(dir, path), 'x');
      chmodSync(join(dir, path), mode);
    }
    const outside = join(root, 'outside');
    writeFileSync(outside, 'x');
    chmodSync(outside, 0o644);
    symlinkSync(outside, join(dir, 'link'));

    const repair = restrictDataDirModes(dir);
    assert.equal(repair.changed, 5);
    assert.deepEqual(Object.fromEntries(modesUnder(dir)), {
      '.': 0o700,
      base: 0o700,
      'base/5': 0o700,
      'base/5/1259': 0o600,
      'run.sh': 0o700,
      'read-only': 0o400,
    });
    assert.equal(statSync(outside).mode & 0o777, 0o644);
    assert.equal(restrictDataDirModes(dir).changed, 0, 'a second pass finds nothing');
    assert.match(
      describeRepair(repair),
      /^the data folder .* was open to other users: 5 entries were made private to its owner \(folders 0700, files without group or other bits\), e\.g\. (\S+ 0\d{3} → 0\d{3}, ){2}\S+ 0\d{3} → 0\d{3}, …$/,
    );
  });
});

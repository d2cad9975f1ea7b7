// `feature-server` commands on the store itself (PROTOCOL.md §13.9): a read-only command never creates a
// database, a busy folder whose credential does not answer keeps the folder's message, and `--help` lists
// every command. The campaign commands have their own file (campaign-commands.test.ts).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { writeLocalOperator } from '../../../server/src/local-operator.js';
import { lockDataDir } from '../../../server/src/store/pglite/data-dir-lock.js';
import { runCliInProcess } from '../cli-support.js';
import { cliJson } from './cli-json.js';

void describe('feature-server commands (embedded store, no server)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-cli-commands-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('a read-only command on a folder without a database says so and creates nothing', async () => {
    const missing = join(dir, 'missing');
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const [list, report] = await Promise.all([
      cliJson(['account', 'list'], { FEATURE_DATA_DIR: missing }, { code: 2 }),
      cliJson(['report', '--env', 'e1'], { FEATURE_DATA_DIR: empty }, { code: 2 }),
    ]);
    for (const [run, folder] of [
      [list, missing],
      [report, empty],
    ] as const) {
      const error = run.error as { code: string; message: string };
      assert.equal(error.code, 'no_database');
      assert.ok(error.message.startsWith(`There is no database in ${folder} yet`), error.message);
      assert.match(run.stderr, /nothing was created/);
    }
    assert.equal(existsSync(missing), false);
    assert.deepEqual(readdirSync(empty), []);
  });

  void it('keeps the busy folder message when the credential in it does not answer', async () => {
    const data = join(dir, 'busy');
    const release = lockDataDir(data);
    // A live pid (this process) but nothing listening: a server that stopped without cleaning up, say.
    writeLocalOperator(data, { url: 'http://127.0.0.1:9', key: 'ffo_stale', pid: process.pid });
    try {
      // In a child process: the lock names this process, which a command run in it would take as its own.
      const busy = await cliJson(
        ['account', 'create', '--name', 'X'],
        { FEATURE_DATA_DIR: data },
        { code: 2, spawn: true },
      );
      const error = busy.error as { code: string; message: string };
      assert.equal(error.code, 'data_dir_busy');
      assert.match(error.message, new RegExp(`The data folder .*busy is in use by process ${process.pid}`));
      assert.match(busy.stderr, /Stop the server first/);
    } finally {
      release();
    }
  });

  void it('--help lists every command', async () => {
    const help = await runCliInProcess(['--help'], { FEATURE_DATA_DIR: join(dir, 'help') });
    assert.equal(help.code, 0);
    for (const command of [
      'serve',
      'start',
      'demo',
      'account create',
      'account list',
      'env create',
      'env list',
      'env rotate-key',
      'panic on|off',
      'import FILE',
      'campaign list',
      'campaign show',
      'campaign create FILE',
      'campaign update ID [FILE]',
      'campaign toggle',
      'campaign delete',
      'report --env',
      'access create',
      'access list',
      'access show',
      'access revoke',
      'console end-sessions',
    ])
      assert.ok(help.stdout.includes(`  ${command}`), `${command} in\n${help.stdout}`);
    assert.equal(existsSync(join(dir, 'help')), false);
  });
});

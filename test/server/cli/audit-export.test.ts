// `feature-server audit export` (issue 36): an account's audit log as JSON lines, oldest first, from the
// embedded store itself and through the running server that holds it (the same lines either way); what the
// CLI changes on the store is logged as "CLI (user)", what it changes through a server as that server's key.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { AuditAnswer } from '../../../server/src/services/audit-answers.js';
import { runCliInProcess, startServerProcess } from '../cli-support.js';
import { copyTemplateDataDir } from '../template-data-dir.js';
import { cliJson } from './cli-json.js';

const KEY = 'operator-key-for-the-audit-export-command-0123';

const linesOf = (text: string): AuditAnswer[] =>
  text === ''
    ? []
    : text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as AuditAnswer);

void describe('feature-server audit export', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-audit-export-'));
  const dataDir = join(dir, 'data');
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('exports from the store and through the server that holds it, the CLI named as itself', async () => {
    await copyTemplateDataDir(dataDir);
    const env = { FEATURE_DATA_DIR: dataDir };
    const account = await cliJson(['account', 'create', '--name', 'Audited by the CLI'], env);
    const accountId = account.accountId as string;
    await cliJson(['env', 'create', '--account', accountId, '--name', 'prod'], env);

    const onStore = await runCliInProcess(['audit', 'export', '--account', accountId], env);
    assert.equal(onStore.code, 0, onStore.stderr);
    const lines = linesOf(onStore.stdout);
    assert.deepEqual(
      lines.map((line) => [line.action, line.actor]),
      [
        ['account.created', { kind: 'cli', id: null, label: `CLI (${userInfo().username})`, address: null }],
        [
          'environment.created',
          { kind: 'cli', id: null, label: `CLI (${userInfo().username})`, address: null },
        ],
      ],
    );
    assert.deepEqual(lines[0]?.diff, [
      { path: '', before: null, after: { id: accountId, name: 'Audited by the CLI' } },
    ]);

    const file = join(dir, 'audit.jsonl');
    const written = await cliJson(['audit', 'export', '--account', accountId, '--output', file], env);
    assert.deepEqual(written, { exported: 2, output: file, store: { kind: 'embedded', dataDir } });
    assert.equal(readFileSync(file, 'utf8'), onStore.stdout);
    const later = await runCliInProcess(
      ['audit', 'export', '--account', accountId, '--since', '2999-01-01'],
      env,
    );
    assert.equal(later.stdout, '');

    const refused = await cliJson(['audit', 'export', '--account', 'nope'], env, { code: 2 });
    assert.match(JSON.stringify(refused), /nope/);
    const badSince = await cliJson(['audit', 'export', '--account', accountId, '--since', 'last week'], env, {
      code: 2,
    });
    assert.match(JSON.stringify(badSince), /--since last week is not a time/);

    const server = await startServerProcess({ ...env, FEATURE_OPERATOR_KEY: KEY });
    try {
      await cliJson(['env', 'create', '--account', accountId, '--name', 'staging'], env);
      const through = await runCliInProcess(['audit', 'export', '--account', accountId], env);
      assert.equal(through.code, 0, through.stderr);
      assert.match(through.stderr, /through the running server/);
      const all = linesOf(through.stdout);
      assert.deepEqual(all.slice(0, 2), lines);
      assert.equal(all.length, 3);
      assert.equal(all[2]?.action, 'environment.created');
      // Through the server, the change is the server's local operator key's.
      assert.equal(all[2].actor.kind, 'operator_key');
      assert.equal(all[2].actor.address, '127.0.0.1');
      const since = await runCliInProcess(
        ['audit', 'export', '--account', accountId, '--since', all[2].at],
        env,
      );
      assert.deepEqual(linesOf(since.stdout), [all[2]]);
    } finally {
      server.child.kill('SIGTERM');
      await once(server.child, 'exit');
    }
  });
});

// The read-only commands give the same answer through a running server as on the store itself (PROTOCOL.md
// §13.9): the objects with --json, and the same text without (the report table with its names). While a server
// holds the embedded folder they go to it at once, without opening the store.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServerProcess } from '../cli-support.js';
import { copyTemplateDataDir } from '../template-data-dir.js';
import { cliJson, type CliJson } from './cli-json.js';

/** What a command answered, without what tells the two ways apart: the store used and the report's time. */
const answer = (run: CliJson): unknown =>
  JSON.parse(JSON.stringify({ ...run, store: undefined }), (key, value: unknown) =>
    key === 'generated_at' ? undefined : value,
  );

void describe('read-only feature-server commands through a running server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-cli-read-'));
  const dataDir = join(dir, 'data');
  const env = { FEATURE_DATA_DIR: dataDir };
  after(() => rmSync(dir, { recursive: true, force: true }));
  before(() => copyTemplateDataDir(dataDir));

  void it('answer as they do on the store: lists, a campaign, the report and its table', async () => {
    // The demo: an account, an environment and three named campaigns.
    const demo = await cliJson(['demo'], env);
    const envId = String(demo.envId);
    const accountId = String(demo.accountId);
    const reads: Array<{ args: string[]; json: boolean }> = [
      { args: ['account', 'list'], json: true },
      { args: ['env', 'list', '--account', accountId], json: true },
      { args: ['campaign', 'list', '--env', envId], json: true },
      { args: ['campaign', 'show', 'checkout-button', '--env', envId], json: false },
      { args: ['report', '--env', envId], json: true },
      { args: ['report', '--env', envId], json: false },
    ];
    const onStore: CliJson[] = [];
    for (const { args, json } of reads) onStore.push(await cliJson(args, env, { json }));
    const direct = { kind: 'embedded', dataDir };
    assert.deepEqual(onStore[0]?.store, direct);

    const server = await startServerProcess(env);
    const through = { kind: 'embedded', dataDir, server: server.url };
    try {
      for (const [i, { args, json }] of reads.entries()) {
        const run = await cliJson(args, env, { json });
        const before = onStore[i];
        assert.ok(before !== undefined);
        if (json) {
          assert.deepEqual(run.store, through, `${args.join(' ')} went through the server`);
          assert.deepEqual(answer(run), answer(before), args.join(' '));
        } else {
          assert.equal(run.stdout, before.stdout, args.join(' '));
          assert.match(run.stderr, /\(through the running server at /);
        }
      }
    } finally {
      server.child.kill('SIGTERM');
      await once(server.child, 'exit');
    }
    // The table names the demo's campaigns and groups, through the server as on the store.
    const table = onStore[5]?.stdout ?? '';
    assert.match(table, /^Checkout button +Everyone +Original \(ref\) /m);
    assert.match(table, /^Premium discount +Premium members +Discount \(ref\) /m);
  });
});

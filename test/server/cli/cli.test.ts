// The `feature-server` CLI (§13.9): --json output, errors on stderr with a non-zero exit, the embedded
// folder's single-process lock, and a demo API key that stays the same across runs. One-shot commands run in
// this process (runCliInProcess, seconds cheaper each); the binary's own exit code, a busy port and another
// process's hold on the folder are tested on child processes.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Decision } from '../../../src/protocol/index.js';
import { readDemoCredentials } from '../../../server/src/demo-credentials.js';
import { lockDataDir } from '../../../server/src/store/pglite/data-dir-lock.js';
import { runCliCommand, runCliInProcess, startServerProcess } from '../cli-support.js';
import { checkoutCampaign, post, premiumToggle } from '../support.js';
import { copyTemplateDataDir } from '../template-data-dir.js';

void describe('feature-server CLI (embedded store)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-cli-'));
  const env = { FEATURE_DATA_DIR: join(dir, 'data') };
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('creates an account and an environment, imports campaigns and reports', async () => {
    const account = await runCliInProcess(['account', 'create', '--name', 'Shop', '--json'], env);
    assert.equal(account.code, 0, account.stderr);
    // The first command creates the folder and says why it takes seconds, on stderr: stdout stays JSON.
    assert.match(
      account.stderr,
      /creating the embedded database in .*data \(first run only, a few seconds\)/,
    );
    const { accountId } = JSON.parse(account.stdout) as { accountId: string };
    assert.match(accountId, /^[a-z2-7]{20}$/);
    const created = await runCliInProcess(
      ['env', 'create', '--account', accountId, '--name', 'prod', '--xpc', '--json'],
      env,
    );
    const { envId, apiKey } = JSON.parse(created.stdout) as { envId: string; apiKey: string };
    assert.match(apiKey, /^fk_/);
    assert.equal(created.stderr, '', 'the folder exists now: nothing to announce');
    const file = join(dir, 'campaigns.json');
    writeFileSync(file, JSON.stringify({ panic: false, campaigns: [checkoutCampaign(), premiumToggle()] }));
    const imported = await runCliInProcess(['import', file, '--env', envId, '--json'], env);
    // Every --json object names the store the command used (§13.9): here the folder, opened directly.
    assert.deepEqual(JSON.parse(imported.stdout), {
      envId,
      campaigns: 2,
      store: { kind: 'embedded', dataDir: env.FEATURE_DATA_DIR },
    });
    const report = await runCliInProcess(['report', '--env', envId, '--campaign', 'c1', '--json'], env);
    const body = JSON.parse(report.stdout) as {
      campaign_id: string;
      variation_groups: Array<{ variations: unknown[] }>;
    };
    assert.equal(body.campaign_id, 'c1');
    assert.equal(body.variation_groups[0]?.variations.length, 2);
    const table = await runCliInProcess(['report', '--env', envId], env);
    // Campaigns and groups by their names (the file's c1 is "Checkout", its group "Everyone").
    assert.match(table.stdout, /^Checkout: sequential \(valid however often you look\)/);
    assert.match(table.stdout, /^campaign\s+group\s+variation\s+visits/m);
    assert.match(table.stdout, /^Checkout +Everyone +Original \(ref\) /m);
  });

  void it('seeds the demo once and keeps its key across runs, in a file only its owner reads', async () => {
    const demo = async (): Promise<{ envId: string; apiKey: string; stderr: string }> => {
      const run = await runCliInProcess(['demo', '--json'], env);
      assert.equal(run.code, 0, run.stderr);
      return { ...(JSON.parse(run.stdout) as { envId: string; apiKey: string }), stderr: run.stderr };
    };
    const first = await demo();
    const file = join(env.FEATURE_DATA_DIR, 'demo-credentials.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { envId: first.envId, apiKey: first.apiKey });
    const second = await demo();
    assert.deepEqual([second.envId, second.apiKey, second.stderr], [first.envId, first.apiKey, '']);

    // Without the file the key cannot be shown again (only its digest is stored): rotated, and said so.
    rmSync(file);
    const third = await demo();
    assert.equal(third.envId, first.envId);
    assert.notEqual(third.apiKey, first.apiKey);
    assert.match(
      third.stderr,
      /demo-credentials\.json was missing or did not match, so the demo API key was rotated/,
    );
    assert.equal(readDemoCredentials(file)?.apiKey, third.apiKey);
    const human = await runCliInProcess(['demo'], env);
    assert.match(
      human.stdout,
      new RegExp(`^Demo already there: environment ${first.envId}, API key ${third.apiKey}\n$`),
    );
  });

  void it('`start` twice prints the same demo key, and it works on the decision route', async () => {
    const startDir = { FEATURE_DATA_DIR: join(dir, 'start-data') };
    // A copy of a migrated folder: the first test covers creating one; this one is about the demo's key.
    await copyTemplateDataDir(startDir.FEATURE_DATA_DIR);
    const keys: string[] = [];
    for (let run = 0; run < 2; run++) {
      const server = await startServerProcess(startDir, ['start', '--json']);
      try {
        const { envId, apiKey } = server.printed;
        assert.ok(typeof envId === 'string' && typeof apiKey === 'string');
        keys.push(apiKey);
        const decision = await post(
          `${server.url}/v2/${envId}/campaigns`,
          { visitorId: 'demo-visitor', context: { plan: 'premium' } },
          { 'x-api-key': apiKey },
        );
        assert.equal(decision.status, 200);
        assert.equal((decision.body as Decision).campaigns.length, 3);
      } finally {
        server.child.kill('SIGTERM');
        await once(server.child, 'exit');
      }
    }
    assert.equal(keys[1], keys[0]);
  });

  void it('says what to change on bad input, on stderr, with a non-zero exit', async () => {
    // In a child process: the exit code is the binary's, the one a shell sees.
    const missing = await runCliCommand(['env', 'create', '--name', 'x', '--json'], env);
    assert.notEqual(missing.code, 0);
    // With --json the error is also the one JSON object on stdout.
    assert.deepEqual(JSON.parse(missing.stdout), {
      error: { code: 'invalid_input', message: 'Missing --account: pass --account ACCOUNT_ID.' },
    });
    assert.match(missing.stderr, /Missing --account/);
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        campaigns: [
          {
            id: 'c',
            name: 'C',
            type: 'ab',
            variationGroups: [
              {
                id: 'g',
                name: 'G',
                variations: [
                  { id: 'v', name: 'V', allocation: 120, modifications: { type: 'FLAG', value: {} } },
                ],
              },
            ],
          },
        ],
      }),
    );
    const invalid = await runCliInProcess(['import', bad, '--env', 'whatever'], env);
    assert.notEqual(invalid.code, 0);
    assert.match(invalid.stderr, /campaigns\[0\]\.variationGroups\[0\]\.variations\[0\]\.allocation/);
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ panic: false, campaigns: [checkoutCampaign()] }));
    for (const command of [
      ['import', good, '--env', 'nosuchenv'],
      ['report', '--env', 'nosuchenv'],
    ]) {
      const noEnv = await runCliInProcess(command, env);
      assert.notEqual(noEnv.code, 0);
      assert.match(
        noEnv.stderr,
        /No environment has the id "nosuchenv": use an id that `feature-server env create` printed/,
      );
    }
    const unknown = await runCliInProcess(['frobnicate'], env);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /Unknown command/);
  });

  void it('says which port is taken, and leaves the folder free for the next command', async () => {
    const taken = createServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const address = taken.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const serve = await runCliCommand(['serve', '--json'], { ...env, PORT: String(port) });
      assert.equal(serve.code, 2, serve.stderr);
      const printed = JSON.parse(serve.stdout) as { error: { message: string } };
      assert.match(printed.error.message, new RegExp(`127\\.0\\.0\\.1:${port} is already in use`));
      assert.match(
        serve.stderr,
        new RegExp(
          `127\\.0\\.0\\.1:${port} is already in use \\(another feature-server\\?\\): stop it, or set PORT`,
        ),
      );
    } finally {
      taken.close();
    }
    const next = await runCliInProcess(['account', 'create', '--name', 'After', '--json'], env);
    assert.equal(next.code, 0, next.stderr);
  });

  void it('stops at once when another process holds the embedded folder', async () => {
    const release = lockDataDir(env.FEATURE_DATA_DIR);
    try {
      const busy = await runCliCommand(['account', 'create', '--name', 'X', '--json'], env);
      assert.notEqual(busy.code, 0);
      assert.match(busy.stderr, /Stop the server first/);
    } finally {
      release();
    }
  });
});

// The `feature-server` CLI (§13.9): --json output, errors on stderr with a non-zero exit, the embedded
// folder's single-process lock.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { lockDataDir } from '../../src/server/store/data-dir-lock.js';
import { runCliCommand } from './cli-support.js';
import { checkoutCampaign, premiumToggle } from './support.js';

void describe('feature-server CLI (embedded store)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-cli-'));
  const env = { FEATURE_DATA_DIR: join(dir, 'data') };
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('creates an account and an environment, imports campaigns and reports', async () => {
    const account = await runCliCommand(['account', 'create', '--name', 'Shop', '--json'], env);
    assert.equal(account.code, 0, account.stderr);
    const { accountId } = JSON.parse(account.stdout) as { accountId: string };
    assert.match(accountId, /^[a-z2-7]{20}$/);
    const created = await runCliCommand(
      ['env', 'create', '--account', accountId, '--name', 'prod', '--xpc', '--json'],
      env,
    );
    const { envId, apiKey } = JSON.parse(created.stdout) as { envId: string; apiKey: string };
    assert.match(apiKey, /^fk_/);
    const file = join(dir, 'campaigns.json');
    writeFileSync(file, JSON.stringify({ panic: false, campaigns: [checkoutCampaign(), premiumToggle()] }));
    const imported = await runCliCommand(['import', file, '--env', envId, '--json'], env);
    assert.deepEqual(JSON.parse(imported.stdout), { envId, campaigns: 2 });
    const report = await runCliCommand(['report', '--env', envId, '--campaign', 'c1', '--json'], env);
    const body = JSON.parse(report.stdout) as {
      campaign_id: string;
      variation_groups: Array<{ variations: unknown[] }>;
    };
    assert.equal(body.campaign_id, 'c1');
    assert.equal(body.variation_groups[0]?.variations.length, 2);
    const table = await runCliCommand(['report', '--env', envId], env);
    assert.match(table.stdout, /^campaign\s+group\s+variation\s+visits/);
    assert.match(table.stdout, /Original \(ref\)/);
  });

  void it('seeds the demo once and shows a working key each time', async () => {
    const first = JSON.parse((await runCliCommand(['demo', '--json'], env)).stdout) as {
      envId: string;
      apiKey: string;
    };
    const second = JSON.parse((await runCliCommand(['demo', '--json'], env)).stdout) as {
      envId: string;
      apiKey: string;
    };
    assert.equal(second.envId, first.envId);
    assert.notEqual(second.apiKey, first.apiKey);
  });

  void it('says what to change on bad input, on stderr, with a non-zero exit', async () => {
    const missing = await runCliCommand(['env', 'create', '--name', 'x', '--json'], env);
    assert.notEqual(missing.code, 0);
    assert.equal(missing.stdout, '');
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
    const invalid = await runCliCommand(['import', bad, '--env', 'whatever'], env);
    assert.notEqual(invalid.code, 0);
    assert.match(invalid.stderr, /campaigns\[0\]\.variationGroups\[0\]\.variations\[0\]\.allocation/);
    const unknown = await runCliCommand(['frobnicate'], env);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /Unknown command/);
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

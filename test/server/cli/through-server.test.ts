// `feature-server` commands while a server in another process holds the embedded store's folder (PROTOCOL.md
// §13.9): they go through that server's operator routes with the credential it wrote into the folder, say
// so, and print the same objects as on the store; once the server stops, they open the folder themselves.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CampaignReport } from '../../../src/protocol/index.js';
import { startServerProcess } from '../cli-support.js';
import { checkoutCampaign, post, premiumToggle } from '../support.js';
import { copyTemplateDataDir } from '../template-data-dir.js';
import { cliJson } from './cli-json.js';

interface AccessAnswer {
  id: string;
  account_id: string;
  name: string;
  environments: string[];
  actions: string[];
  client_id: string;
  created_at: string;
  revoked_at: string | null;
}

void describe('feature-server commands through a running server (embedded store)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-cli-server-'));
  const dataDir = join(dir, 'data');
  const env = { FEATURE_DATA_DIR: dataDir };
  after(() => rmSync(dir, { recursive: true, force: true }));
  // A copy of a migrated folder: what is tested is commands through the server, not the folder's creation.
  before(() => copyTemplateDataDir(dataDir));

  void it('runs every kind of command through the server that holds the folder', async () => {
    const server = await startServerProcess(env);
    const through = { kind: 'embedded', dataDir, server: server.url };
    try {
      assert.ok(existsSync(join(dataDir, 'operator-credential.json')));
      const account = await cliJson(['account', 'create', '--name', 'Shop'], env);
      assert.deepEqual(account.store, through, 'went through the server');
      const accountId = String(account.accountId);
      const created = await cliJson(
        ['env', 'create', '--account', accountId, '--name', 'prod', '--xpc'],
        env,
      );
      const envId = String(created.envId);
      const apiKey = String(created.apiKey);
      assert.match(apiKey, /^fk_/);
      const file = join(dir, 'campaigns.json');
      writeFileSync(file, JSON.stringify({ panic: false, campaigns: [checkoutCampaign(), premiumToggle()] }));

      // Independent commands in parallel, each through the server.
      const [imported, accounts, environments, access] = await Promise.all([
        cliJson(['import', file, '--env', envId], env),
        cliJson(['account', 'list'], env),
        cliJson(['env', 'list', '--account', accountId], env),
        cliJson(
          [
            'access',
            'create',
            ...['--account', accountId, '--name', 'ci', '--actions', 'report.read,campaign.toggle'],
            ...['--envs', envId],
          ],
          env,
        ),
      ]);
      assert.deepEqual(imported, { envId, campaigns: 2, store: through });
      assert.deepEqual(
        (accounts.accounts as Array<{ id: string; name: string }>).map((a) => [a.id, a.name]),
        [[accountId, 'Shop']],
      );
      assert.deepEqual(environments.environments, [
        {
          id: envId,
          account_id: accountId,
          name: 'prod',
          panic: false,
          settings: { enabledXPC: true, enabled1V1T: false },
        },
      ]);
      assert.match(String(access.clientId), /^ffc_/);
      assert.match(String(access.clientSecret), /^ffs_/);
      assert.match(access.stderr, /shown this once and never again/);
      assert.deepEqual(access.store, through);
      // The secret printed is the real one: the server issues a token for it.
      const token = await post(`${server.url}/oauth/${accountId}/token`, {
        grant_type: 'client_credentials',
        scope: '*',
        client_id: access.clientId,
        client_secret: access.clientSecret,
      });
      assert.equal(token.status, 200, JSON.stringify(token.body));

      const [listed, report, panic, rotated] = await Promise.all([
        cliJson(['access', 'list', '--account', accountId], env),
        cliJson(['report', '--env', envId, '--campaign', 'checkout'], env),
        cliJson(['panic', 'on', '--env', envId], env),
        cliJson(['env', 'rotate-key', '--env', envId], env),
      ]);
      const accesses = listed.accesses as AccessAnswer[];
      assert.deepEqual(
        accesses.map((a) => [a.id, a.name, a.client_id, a.actions, a.environments, a.revoked_at]),
        [[access.accessId, 'ci', access.clientId, ['campaign.toggle', 'report.read'], [envId], null]],
      );
      assert.ok(!listed.stdout.includes(String(access.clientSecret)), 'a list never shows the secret');
      assert.equal((report as unknown as CampaignReport).campaign_id, 'c1', 'found by its slug');
      assert.deepEqual(report.store, through);
      assert.deepEqual(panic, { envId, panic: 'on', store: through });
      assert.notEqual(rotated.apiKey, apiKey);
      // The server itself serves the changes: panic on, and only the new key opens the decision route.
      const decide = (key: unknown) =>
        post(`${server.url}/v2/${envId}/campaigns`, { visitorId: 'v1' }, { 'x-api-key': String(key) });
      assert.equal((await decide(apiKey)).status, 403);
      assert.deepEqual((await decide(rotated.apiKey)).body, { visitorId: 'v1', campaigns: [], panic: true });

      const revoked = await cliJson(['access', 'revoke', String(access.accessId)], env);
      assert.deepEqual(revoked, { revoked: access.accessId, store: through });
      const [shown, table] = await Promise.all([
        cliJson(['access', 'show', String(access.accessId)], env),
        cliJson(['account', 'list'], env, { json: false }),
      ]);
      assert.notEqual((shown.access as AccessAnswer).revoked_at, null);
      // Without --json, the store is named on stderr and the list is a table on stdout.
      assert.equal(
        table.stderr,
        `feature-server: using the embedded store in ${dataDir} (through the running server at ${server.url})\n`,
      );
      assert.match(table.stdout, new RegExp(`^id +name +created\n${accountId} +Shop +\\d{4}-`));

      // Errors through the server (one JSON object on stdout, a non-zero exit), and a campaign list.
      const [unknownAccess, unknownEnv, campaigns] = await Promise.all([
        cliJson(['access', 'show', 'nosuchaccess'], env, { code: 2 }),
        cliJson(['report', '--env', 'nosuchenv'], env, { code: 2 }),
        cliJson(['campaign', 'list', '--env', envId], env),
      ]);
      assert.deepEqual(unknownAccess.error, {
        code: 'unknown_access',
        message:
          'No access has the id "nosuchaccess": list them with `feature-server access list --account A`.',
      });
      assert.equal((unknownEnv.error as { code: string }).code, 'unknown_environment');
      // Campaign commands too (campaign-commands.test.ts has them all).
      assert.deepEqual(
        (campaigns.campaigns as Array<{ id: string }>).map((c) => c.id),
        ['c1', 'c2'],
      );
      assert.deepEqual(campaigns.store, through);
    } finally {
      server.child.kill('SIGTERM');
      await once(server.child, 'exit');
    }

    // The server removed its credential when it stopped: commands open the folder themselves again.
    assert.ok(!existsSync(join(dataDir, 'operator-credential.json')));
    const direct = { kind: 'embedded', dataDir };
    const listed = await cliJson(['campaign', 'list', '--env', 'nosuchenv'], env, { code: 2 });
    assert.deepEqual(listed.store, direct);
    assert.equal((listed.error as { code: string }).code, 'unknown_environment');
  });
});

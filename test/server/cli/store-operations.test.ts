// The CLI's operations on a store it opened itself (no process, no server): the answers have the operator
// routes' shapes, unknown ids are refused with the CLI's codes, and a read-only open creates nothing.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CliError } from '../../../server/src/cli/cli-error.js';
import { configuredStore, openOperations } from '../../../server/src/cli/open-operations.js';
import { describeStore, type Operations } from '../../../server/src/cli/operations.js';
import { storeOperations } from '../../../server/src/cli/store-operations.js';
import { readServerConfig } from '../../../server/src/config.js';
import { openPgliteStore } from '../../../server/src/store/pglite/pglite.js';
import { checkoutCampaign, seedEnvironment } from '../support.js';
import { copyTemplateDataDir } from '../template-data-dir.js';
import { auditedByTests } from '../test-actor.js';

const refusedWith = (code: string) => (error: unknown) => error instanceof CliError && error.code === code;

void describe('CLI store operations', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-cli-ops-'));
  let ops: Operations;
  let seeded: { envId: string; apiKey: string; accountId: string };
  before(async () => {
    // A copy of a migrated folder: what is tested is the operations, not the folder's creation.
    await copyTemplateDataDir(join(dir, 'data'));
    const store = auditedByTests(await openPgliteStore(join(dir, 'data')));
    seeded = await seedEnvironment(store, [checkoutCampaign()]);
    ops = storeOperations(store, { kind: 'embedded', dataDir: join(dir, 'data') });
  });
  after(async () => {
    await ops.close();
    rmSync(dir, { recursive: true, force: true });
  });

  void it('creates, lists, shows and revokes accesses in the operator routes’ shapes', async () => {
    const { accountId, envId } = seeded;
    const { access, clientSecret } = await ops.createAccess({
      accountId,
      name: 'ci',
      actions: ['report.read', 'campaign.list'],
      environments: [],
    });
    assert.match(clientSecret, /^ffs_/);
    assert.deepEqual(Object.keys(access).sort(), [
      'account_id',
      'actions',
      'client_id',
      'created_at',
      'environments',
      'id',
      'name',
      'revoked_at',
    ]);
    assert.deepEqual([access.actions, access.environments], [['campaign.list', 'report.read'], []]);
    assert.deepEqual(await ops.listAccesses(accountId), [access]);
    const revoked = await ops.revokeAccess(access.id);
    assert.notEqual(revoked.revoked_at, null);
    assert.deepEqual(await ops.getAccess(access.id), revoked);
    await assert.rejects(ops.getAccess('nosuch'), refusedWith('unknown_access'));
    await assert.rejects(ops.listAccesses('nosuch'), refusedWith('unknown_account'));
    await assert.rejects(
      ops.createAccess({ accountId: 'nosuch', name: 'x', actions: ['report.read'], environments: [] }),
      refusedWith('unknown_account'),
    );
    await assert.rejects(
      ops.createAccess({ accountId, name: 'x', actions: ['report.read'], environments: ['elsewhere'] }),
      /environments: "elsewhere" is not an environment of this account/,
    );
    assert.equal((await ops.listEnvironments(accountId))[0]?.id, envId);
  });

  void it('finds a report by id or slug, and checks and rotates API keys', async () => {
    const { envId, apiKey } = seeded;
    assert.deepEqual(
      (await ops.reports(envId, 'checkout')).map((r) => r.campaign_id),
      ['c1'],
    );
    assert.deepEqual(
      (await ops.reports(envId)).map((r) => r.campaign_id),
      ['c1'],
    );
    await assert.rejects(ops.reports(envId, 'nosuch'), refusedWith('unknown_campaign'));
    await assert.rejects(ops.reports('nosuch'), refusedWith('unknown_environment'));
    assert.equal(await ops.apiKeyMatches(envId, apiKey), true);
    const rotated = await ops.rotateApiKey(envId);
    assert.equal(await ops.apiKeyMatches(envId, apiKey), false);
    assert.equal(await ops.apiKeyMatches(envId, rotated), true);
    assert.equal((await ops.setPanic(envId, true)).panic, true);
  });

  void it('names the store without a database password, and never creates one to read', async () => {
    const postgres = readServerConfig({ DATABASE_URL: 'postgres://flags:s3cret@db.example:5432/flags' });
    assert.deepEqual(configuredStore(postgres), { kind: 'postgres', database: 'db.example:5432/flags' });
    assert.equal(describeStore(configuredStore(postgres)), 'PostgreSQL at db.example:5432/flags');
    const folder = join(dir, 'never');
    await assert.rejects(
      openOperations(readServerConfig({ FEATURE_DATA_DIR: folder }), 'read'),
      refusedWith('no_database'),
    );
    assert.equal(existsSync(folder), false);
  });
});

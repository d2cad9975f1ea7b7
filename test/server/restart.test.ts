// Durability (§5.2): a hit acknowledged by a server in another process is still there after that process is
// killed (SIGKILL, no clean shutdown) and the server restarted on the same embedded data folder.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openPgliteStore } from '../../server/src/store/pglite/pglite.js';
import { startServerProcess } from './cli-support.js';
import { checkoutCampaign, post, seedEnvironment } from './support.js';
import { copyTemplateDataDir } from './template-data-dir.js';
import { auditedByTests } from './test-actor.js';

void describe('restart durability (embedded store)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-restart-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('keeps acknowledged hits and activations across a killed process', async () => {
    // A copy of a migrated folder: what is tested is the restart, not the folder's creation (initdb).
    await copyTemplateDataDir(dir);
    const seedStore = auditedByTests(await openPgliteStore(dir));
    const env = await seedEnvironment(seedStore, [checkoutCampaign()]);
    await seedStore.close();

    const first = await startServerProcess({ FEATURE_DATA_DIR: dir });
    const hits = {
      cid: env.envId,
      t: 'BATCH',
      h: [{ t: 'EVENT', vid: 'v', cuid: null, qt: 0, hid: 'durable-1', ec: 'Action Tracking', ea: 'buy' }],
    };
    assert.deepEqual((await post(`${first.url}/events`, hits)).body, {
      accepted: 1,
      duplicates: 0,
      rejected: [],
      rejectedCount: 0,
    });
    const activation = {
      cid: env.envId,
      batch: [{ vid: 'v', caid: 'vg1', vaid: 'v2', qt: 0, hid: 'durable-2' }],
    };
    assert.equal((await post(`${first.url}/v2/activate`, activation)).status, 204);
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');

    const second = await startServerProcess({ FEATURE_DATA_DIR: dir });
    // The same hit again is a duplicate: it was stored by the killed process.
    assert.deepEqual((await post(`${second.url}/events`, hits)).body, {
      accepted: 0,
      duplicates: 1,
      rejected: [],
      rejectedCount: 0,
    });
    second.child.kill('SIGTERM');
    await once(second.child, 'exit');

    const store = auditedByTests(await openPgliteStore(dir));
    try {
      assert.deepEqual(await store.countHits(env.envId), { EVENT: 1 });
      assert.equal((await store.reportExposures(env.envId, 'c1')).length, 1);
    } finally {
      await store.close();
    }
  });
});

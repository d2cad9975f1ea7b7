// `feature-server campaign list|show|create|update|toggle|delete` (PROTOCOL.md §13.9) on the embedded store
// itself and through a running server that holds it: the same objects (the remote control API's campaign,
// §13.5), a bad file refused by the field's path, a taken id a conflict, interrupted final, and, through the
// server, every change in its bucketing file at once. Commands run in parallel where the server serves them
// (the folder itself admits one process at a time), so the run stays at about 1 s per round of processes.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { BucketingFile, RemoteCampaign } from '../../../src/protocol/index.js';
import { openPgliteStore } from '../../../server/src/store/pglite/pglite.js';
import { startServerProcess } from '../cli-support.js';
import { checkoutCampaign, premiumToggle, seedEnvironment } from '../support.js';
import { copyTemplateDataDir } from '../template-data-dir.js';
import { cliJson, type CliJson } from './cli-json.js';
import { auditedByTests } from '../test-actor.js';

/** A new campaign in the remote control API's form, without ids (the store makes them). */
const banner = {
  name: 'Banner',
  type: 'toggle',
  slug: 'banner',
  variation_groups: [
    {
      name: 'Everyone',
      targeting: {
        targeting_groups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: '' }] }],
      },
      variations: [
        {
          name: 'Off',
          reference: true,
          allocation: 0,
          modifications: { type: 'FLAG', value: { banner: null } },
        },
        { name: 'On', allocation: 100, modifications: { type: 'FLAG', value: { banner: 'sale' } } },
      ],
    },
  ],
};
const [group] = banner.variation_groups;
const overAllocated = {
  ...banner,
  variation_groups: [
    { ...group, variations: [group?.variations[0], { ...group?.variations[1], allocation: 150 }] },
  ],
};

/** Writes the campaign files every scenario uses into `dir`; returns their paths. */
const writeFiles = (dir: string) => {
  const file = (name: string, value: unknown): string => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(value));
    return path;
  };
  return {
    banner: file('banner.json', banner),
    clash: file('clash.json', { ...banner, id: 'c1', slug: 'another' }),
    bad: file('bad.json', overAllocated),
    patch: file('patch.json', { name: 'Banner v2', bucket_ranges: [[0, 50]], position: 0 }),
    statePatch: file('state.json', { state: 'paused' }),
  };
};

/**
 * An environment with c1 (slug checkout) and c2 in a fresh embedded folder (a copy of a migrated one: what is
 * tested is the commands, not the folder's creation); the store is closed again.
 */
const seedFolder = async (dataDir: string): Promise<string> => {
  await copyTemplateDataDir(dataDir);
  const store = auditedByTests(await openPgliteStore(dataDir));
  const { envId } = await seedEnvironment(store, [checkoutCampaign(), premiumToggle()]);
  await store.close();
  return envId;
};

const errorOf = (run: CliJson) => run.error as { code: string; message: string; details?: unknown };

/** The campaign of a command's object. */
const campaignOf = (run: CliJson): RemoteCampaign => run.campaign as RemoteCampaign;

const BAD_ALLOCATION = {
  code: 'invalid_input',
  message: 'variation_groups[0].variations[1].allocation: must be an integer from 0 to 100',
  details: [
    { path: 'variation_groups[0].variations[1].allocation', message: 'must be an integer from 0 to 100' },
  ],
};
const C1_TAKEN = {
  code: 'conflict',
  message: 'The campaign id "c1" already belongs to a campaign of this environment: give it another id.',
};
const INTERRUPTED = {
  code: 'conflict',
  message: 'Campaign "c1" is interrupted, which is final: create a new campaign to run it again.',
};

void describe('feature-server campaign commands', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-cli-campaigns-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const files = writeFiles(dir);

  void it('work on the store itself, one process after another', async () => {
    const dataDir = join(dir, 'direct');
    const envId = await seedFolder(dataDir);
    const env = { FEATURE_DATA_DIR: dataDir };
    const onStore = { kind: 'embedded', dataDir };
    const run = (args: string[], code = 0) => cliJson([...args, '--env', envId], env, { code });

    const created = await run(['campaign', 'create', files.banner]);
    assert.deepEqual(created.store, onStore);
    const id = campaignOf(created).id;
    assert.match(id, /^[a-z2-7]{20}$/);
    assert.deepEqual(
      [campaignOf(created).state, campaignOf(created).slug, campaignOf(created).bucket_ranges],
      ['active', 'banner', [[0, 100]]],
    );
    assert.deepEqual(errorOf(await run(['campaign', 'create', files.clash], 2)), C1_TAKEN);
    const bad = await run(['campaign', 'create', files.bad], 2);
    assert.deepEqual(errorOf(bad), BAD_ALLOCATION);
    assert.equal(bad.stderr, `feature-server: ${BAD_ALLOCATION.message}\n`);

    const updated = campaignOf(await run(['campaign', 'update', id, files.patch]));
    assert.deepEqual([updated.name, updated.bucket_ranges], ['Banner v2', [[0, 50]]]);
    assert.deepEqual(updated.variation_groups, campaignOf(created).variation_groups);
    // By its slug, as the readable text.
    const shown = await cliJson(['campaign', 'show', 'banner', '--env', envId], env, { json: false });
    assert.match(shown.stdout, new RegExp(`^Campaign: +${id} \\(slug banner\\)\nName: +Banner v2\n`));
    assert.match(shown.stdout, /\nTraffic: +0-50 %\n/);
    assert.match(shown.stdout, /\n {2}\S+ +On +100 % +banner="sale"\n/);

    assert.equal(
      campaignOf(await run(['campaign', 'toggle', 'c1', '--state', 'interrupted'])).state,
      'interrupted',
    );
    assert.deepEqual(errorOf(await run(['campaign', 'toggle', 'c1', '--state', 'active'], 2)), INTERRUPTED);
    assert.deepEqual(await run(['campaign', 'delete', 'c2']), { deleted: 'c2', store: onStore });
    // Moved first by the update; c2 deleted; c1 kept, interrupted.
    const listed = await cliJson(['campaign', 'list', '--env', envId], env, { json: false });
    assert.match(
      listed.stdout,
      new RegExp(
        `^id +slug +type +state +name\n${id} +banner +toggle +active +Banner v2\nc1 +checkout +ab +interrupted +Checkout\n$`,
      ),
    );
  });

  void it('work through the running server, which serves each change at once', async () => {
    const dataDir = join(dir, 'served');
    const envId = await seedFolder(dataDir);
    const env = { FEATURE_DATA_DIR: dataDir };
    const server = await startServerProcess(env);
    const through = { kind: 'embedded', dataDir, server: server.url };
    const run = (args: string[], code = 0) => cliJson([...args, '--env', envId], env, { code });
    const served = async (): Promise<BucketingFile> =>
      (await (await fetch(`${server.url}/cdn/${envId}/bucketing.json`)).json()) as BucketingFile;
    try {
      const [created, clash, bad, stateRefused, bySlug, unknownEnv] = await Promise.all([
        run(['campaign', 'create', files.banner]),
        run(['campaign', 'create', files.clash], 2),
        run(['campaign', 'create', files.bad], 2),
        run(['campaign', 'update', 'c2', files.statePatch], 2),
        run(['campaign', 'show', 'checkout']),
        cliJson(['campaign', 'list', '--env', 'nosuchenv'], env, { code: 2 }),
      ]);
      assert.deepEqual(created.store, through);
      const id = campaignOf(created).id;
      assert.deepEqual(
        [campaignOf(created).state, campaignOf(created).slug, campaignOf(created).bucket_ranges],
        ['active', 'banner', [[0, 100]]],
      );
      assert.deepEqual(errorOf(clash), C1_TAKEN);
      assert.deepEqual(errorOf(bad), BAD_ALLOCATION);
      assert.deepEqual(clash.store, through);
      // The state is the toggle's to change (its own action on the API): named, not ignored.
      assert.deepEqual(errorOf(stateRefused).details, [
        { path: 'state', message: 'is "active": change it with PATCH …/campaigns/c2/toggle' },
      ]);
      assert.equal(campaignOf(bySlug).id, 'c1');
      assert.equal(errorOf(unknownEnv).code, 'unknown_environment');
      assert.deepEqual(
        (await served()).campaigns.map((c) => c.id),
        ['c1', 'c2', id],
      );

      const [updated, interrupted, deleted] = await Promise.all([
        run(['campaign', 'update', id, files.patch]),
        run(['campaign', 'toggle', 'c1', '--state', 'interrupted']),
        run(['campaign', 'delete', 'c2']),
      ]);
      assert.deepEqual(
        [campaignOf(updated).name, campaignOf(updated).bucket_ranges],
        ['Banner v2', [[0, 50]]],
      );
      assert.equal(campaignOf(interrupted).state, 'interrupted');
      assert.deepEqual(deleted, { deleted: 'c2', store: through });
      // Interrupted c1 and deleted c2 are out; the banner moved first with half the traffic.
      const file = await served();
      assert.deepEqual(
        file.campaigns.map((c) => [c.id, c.name, c.bucketRanges]),
        [[id, 'Banner v2', [{ r: [0, 50] }]]],
      );

      const [back, gone, shown, listed] = await Promise.all([
        run(['campaign', 'toggle', 'c1', '--state', 'active'], 2),
        run(['campaign', 'show', 'c2'], 2),
        run(['campaign', 'show', 'banner']),
        cliJson(['campaign', 'list', '--env', envId], env, { json: false }),
      ]);
      assert.deepEqual(errorOf(back), INTERRUPTED);
      assert.equal(errorOf(gone).code, 'unknown_campaign');
      assert.deepEqual(shown.campaign, updated.campaign);
      assert.match(
        listed.stdout,
        new RegExp(
          `^id +slug +type +state +name\n${id} +banner +toggle +active +Banner v2\nc1 +checkout +ab +interrupted +Checkout\n$`,
        ),
      );
      assert.match(listed.stderr, /through the running server/);
    } finally {
      server.child.kill('SIGTERM');
      await once(server.child, 'exit');
    }
  });
});

// `feature-server campaign create|update` with the analysis options (PROTOCOL.md §14.6), `campaign show` with
// the settings, and `import`: on the embedded store itself and through a running server, the same objects.
// Options set only the fields given (a FILE is optional on update); each bad value is named by its option with
// what to change; an imported file keeps its settings, and a campaign shown with --json and created again (in
// another environment) keeps them: the CLI's export and import round trip.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { AnalysisSettings, BucketingFile, RemoteCampaign } from '../../../src/protocol/index.js';
import { openPgliteStore } from '../../../server/src/store/pglite/pglite.js';
import { startServerProcess } from '../cli-support.js';
import { checkoutCampaign, premiumToggle, seedEnvironment } from '../support.js';
import { copyTemplateDataDir } from '../template-data-dir.js';
import { cliJson, type CliJson } from './cli-json.js';
import { auditedByTests } from '../test-actor.js';

const DEFAULTS: AnalysisSettings = {
  primary_goal: null,
  method: 'sequential',
  alpha: 0.05,
  expected_visitors: 5000,
};

const PURCHASE = { type: 'transaction', name: 'Purchase' } as const;

/**
 * Two environments in a fresh embedded folder (a copy of a migrated one: what is tested is the commands, not
 * the folder's creation), the first with c1 (no settings) and c2; the store is closed.
 */
const seedFolder = async (dataDir: string): Promise<{ envId: string; otherEnvId: string }> => {
  await copyTemplateDataDir(dataDir);
  const store = auditedByTests(await openPgliteStore(dataDir));
  const { envId } = await seedEnvironment(store, [checkoutCampaign(), premiumToggle()]);
  const { envId: otherEnvId } = await seedEnvironment(store, []);
  await store.close();
  return { envId, otherEnvId };
};

const campaignOf = (run: CliJson): RemoteCampaign => run.campaign as RemoteCampaign;
const errorOf = (run: CliJson) => run.error as { code: string; message: string };

void describe('feature-server campaign analysis options', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-cli-analysis-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, value: unknown): string => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(value));
    return path;
  };

  void it('set, keep and clear the settings on the store itself; bad values are named by their option', async () => {
    const dataDir = join(dir, 'direct');
    const { envId } = await seedFolder(dataDir);
    const env = { FEATURE_DATA_DIR: dataDir };
    const run = (args: string[], code = 0) => cliJson([...args, '--env', envId], env, { code });

    // c1 was imported without settings: the defaults.
    assert.deepEqual(campaignOf(await run(['campaign', 'show', 'c1'])).analysis, DEFAULTS);

    const set = await run([
      'campaign',
      'update',
      'c1',
      '--primary-goal',
      'event:add_to_cart',
      '--alpha',
      '0.02',
      '--expected-visitors',
      '20000',
    ]);
    const goal = { type: 'event', name: 'add_to_cart' };
    assert.deepEqual(campaignOf(set).analysis, {
      ...DEFAULTS,
      primary_goal: goal,
      alpha: 0.02,
      expected_visitors: 20000,
    });
    // One option: the others are kept; a FILE and options together: both apply.
    const patch = file('rename.json', { name: 'Checkout v2', analysis: { alpha: 0.1 } });
    const fixed = campaignOf(await run(['campaign', 'update', 'c1', patch, '--method', 'fixed']));
    assert.equal(fixed.name, 'Checkout v2');
    assert.deepEqual(fixed.analysis, {
      primary_goal: goal,
      method: 'fixed',
      alpha: 0.1,
      expected_visitors: 20000,
    });
    const cleared = campaignOf(await run(['campaign', 'update', 'c1', '--primary-goal', 'none']));
    assert.deepEqual(cleared.analysis, { ...fixed.analysis, primary_goal: null });

    const shown = await cliJson(['campaign', 'show', 'c1', '--env', envId], env, { json: false });
    assert.match(
      shown.stdout,
      /\nAnalysis: +no primary goal \(no verdict\), fixed, alpha 0\.1, 20000 expected visitors\n/,
    );

    const refusals = await Promise.all(
      [
        ['--alpha', '0.5', /^--alpha must be a number from 0\.001 to 0\.2.*\(got "0\.5"\)\.$/],
        ['--alpha', 'abc', /^--alpha must be a number/],
        ['--expected-visitors', '20k', /^--expected-visitors must be a whole number from 100 to 100000000/],
        ['--expected-visitors', '99', /^--expected-visitors must be a whole number/],
        ['--method', 'bayesian', /^--method must be sequential .* or fixed .*\(got "bayesian"\)\.$/],
        ['--primary-goal', 'click:x', /^--primary-goal must be event:ACTION .*transaction:AFFILIATION/],
        ['--primary-goal', 'event:', /^--primary-goal must be event:ACTION/],
        ['--primary-goal', 'add_to_cart', /\(got "add_to_cart"\)\.$/],
      ].map(async ([option, value, message]) => {
        const refused = await run(['campaign', 'update', 'c1', option as string, value as string], 2);
        assert.match(errorOf(refused).message, message as RegExp);
      }),
    );
    assert.equal(refusals.length, 8);
    // What only the server knows is named by the field.
    const reserved = await run(['campaign', 'update', 'c1', '--primary-goal', 'event:fs_consent'], 2);
    assert.match(errorOf(reserved).message, /^analysis\.primary_goal\.name: "fs_consent" is reserved/);
    const neither = await run(['campaign', 'update', 'c1'], 2);
    assert.match(errorOf(neither).message, /^Missing the file of fields to change: .*--primary-goal/);
    // Nothing refused was stored.
    assert.deepEqual(campaignOf(await run(['campaign', 'show', 'c1'])).analysis, cleared.analysis);
  });

  void it('an import keeps them; show --json then create elsewhere keeps them (through the running server)', async () => {
    const dataDir = join(dir, 'served');
    const { envId, otherEnvId } = await seedFolder(dataDir);
    const env = { FEATURE_DATA_DIR: dataDir };
    const server = await startServerProcess(env);
    const run = (args: string[], envOf = envId, code = 0) =>
      cliJson([...args, '--env', envOf], env, { code });
    try {
      const imported = file('import.json', {
        campaigns: [
          { ...checkoutCampaign(), analysis: { primary_goal: PURCHASE, alpha: 0.01 } },
          premiumToggle(),
        ],
      });
      await run(['import', imported]);
      const [c1, c2, badImport] = await Promise.all([
        run(['campaign', 'show', 'c1']),
        run(['campaign', 'show', 'c2']),
        run(
          ['import', file('bad.json', { campaigns: [{ ...checkoutCampaign(), analysis: { alpha: 2 } }] })],
          envId,
          2,
        ),
      ]);
      const settings = { ...DEFAULTS, primary_goal: PURCHASE, alpha: 0.01 };
      assert.deepEqual(campaignOf(c1).analysis, settings);
      assert.deepEqual(campaignOf(c2).analysis, DEFAULTS);
      assert.match(
        errorOf(badImport).message,
        /campaigns\[0\]\.analysis\.alpha must be a number from 0\.001/,
      );

      // The CLI's export: the campaign as shown, created again in another environment (ids kept: another
      // environment), then changed there by option.
      const exported = file('exported.json', campaignOf(c1));
      const copy = campaignOf(
        await run(['campaign', 'create', exported, '--expected-visitors', '40000'], otherEnvId),
      );
      assert.equal(copy.id, 'c1');
      assert.deepEqual(copy.analysis, { ...settings, expected_visitors: 40000 });
      const banner = {
        name: 'Banner',
        type: 'toggle',
        variation_groups: [
          {
            name: 'Everyone',
            targeting: {
              targeting_groups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: '' }] }],
            },
            variations: [
              { name: 'Off', reference: true, modifications: { type: 'FLAG', value: { banner: null } } },
              { name: 'On', allocation: 100, modifications: { type: 'FLAG', value: { banner: 'sale' } } },
            ],
          },
        ],
      };
      const created = await run([
        'campaign',
        'create',
        file('banner.json', banner),
        '--method',
        'fixed',
        '--primary-goal',
        'transaction:Purchase',
      ]);
      assert.deepEqual(campaignOf(created).analysis, {
        ...DEFAULTS,
        method: 'fixed',
        primary_goal: PURCHASE,
      });

      // The served file never carries them.
      const served = (await (
        await fetch(`${server.url}/cdn/${envId}/bucketing.json`)
      ).json()) as BucketingFile;
      assert.deepEqual(
        served.campaigns.map((c) => [c.id, Object.hasOwn(c, 'analysis')]),
        [
          ['c1', false],
          ['c2', false],
          [campaignOf(created).id, false],
        ],
      );
    } finally {
      server.child.kill('SIGTERM');
      await once(server.child, 'exit');
    }
  });
});

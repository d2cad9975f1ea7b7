// What the platform's own SDKs (@flagship.io/js-sdk 5.2.0) cannot evaluate as we do (issue 15): a warning per
// campaign and rule, from the pure function that `feature-server import` prints and the remote control API can
// answer. Each expectation comes from reading that SDK's local engine (BucketingManager) and flag building
// (DecisionManager.getModifications): no semver operators, bucketRanges ignored, string operators that throw
// on a missing key or a null target, NOT_EQUALS that matches a missing key, [] targets, 1V1T ignored, and a
// later campaign's null that replaces an earlier campaign's value.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { BucketingCampaign, JsonValue, Targeting } from '../../../src/protocol/index.js';
import { importOutcome, importWarnings } from '../../../server/src/cli/import-file.js';
import {
  campaignCompatibility,
  environmentCompatibility,
  type CompatibilityWarning,
} from '../../../server/src/remote/compatibility.js';
import { runCliInProcess } from '../cli-support.js';
import { checkoutCampaign, premiumToggle } from '../support.js';
import { copyTemplateDataDir } from '../template-data-dir.js';

const rule = (key: string, operator: string, value?: JsonValue): Targeting =>
  value === undefined ? ({ key, operator } as Targeting) : { key, operator, value };

/** The checkout campaign with these targeting groups (each a list of rules). */
const targeted = (...groups: Targeting[][]): BucketingCampaign => {
  const campaign = checkoutCampaign();
  const [group] = campaign.variationGroups;
  assert.ok(group !== undefined);
  return {
    ...campaign,
    variationGroups: [
      { ...group, targeting: { targetingGroups: groups.map((targetings) => ({ targetings })) } },
    ],
  };
};

/** The checkout campaign with these bucket ranges. */
const ranged = (...ranges: Array<[number, number]>): BucketingCampaign => ({
  ...checkoutCampaign(),
  bucketRanges: ranges.map((r) => ({ r })),
});

const codes = (warnings: readonly CompatibilityWarning[]): string[] =>
  warnings.map((w) => `${w.code} ${w.path}`);
const TG = 'variationGroups[0].targeting.targetingGroups';

void describe('campaignCompatibility', () => {
  void it('finds nothing in the compatible subset', () => {
    assert.deepEqual(campaignCompatibility(checkoutCampaign()), []);
    assert.deepEqual(campaignCompatibility(premiumToggle()), []);
    const guarded = targeted(
      [rule('plan', 'EXISTS'), rule('plan', 'CONTAINS', 'prem'), rule('plan', 'NOT_EQUALS', 'free')],
      [rule('age', 'GREATER_THAN_OR_EQUALS', 18), rule('age', 'NOT_EQUALS', 30)],
      [rule('country', 'EQUALS', ['fr', 'de']), rule('country', 'NOT_CONTAINS', ['x', 'y'])],
      [rule('fs_users', 'STARTS_WITH', 'user-'), rule('fs_client', 'NOT_EQUALS', 'x')],
      [rule('fs_all_users', 'NOT_EQUALS', ''), rule('plan', 'NOT_EXISTS')],
    );
    assert.deepEqual(campaignCompatibility(guarded), []);
    assert.deepEqual(campaignCompatibility(ranged([0, 100])), []);
    assert.deepEqual(campaignCompatibility(ranged([0, 40], [40, 100])), []);
  });

  void it('warns of semver operators, and reads no further in their targeting group', () => {
    const warnings = campaignCompatibility(
      targeted(
        [rule('app_version', 'SEMVER_GREATER_THAN_OR_EQUALS', '2.1.0'), rule('plan', 'CONTAINS', 'x')],
        [rule('plan', 'EXISTS')],
      ),
    );
    assert.deepEqual(codes(warnings), [`semver_operator ${TG}[0].targetings[0]`]);
    assert.deepEqual(warnings[0]?.modes, ['bucketing']);
    // deepEqual asserted the type: warnings[0] is there.
    assert.equal(warnings[0].campaignId, 'c1');
    assert.match(warnings[0].message, /SEMVER_GREATER_THAN_OR_EQUALS on "app_version"/);
  });

  void it('warns of bucket ranges that do not take all traffic', () => {
    const half = campaignCompatibility(ranged([0, 50]));
    assert.deepEqual(codes(half), ['bucket_ranges bucketRanges']);
    assert.match(half[0]?.message ?? '', /takes 50 % of traffic/);
    const none = campaignCompatibility(ranged());
    assert.match(none[0]?.message ?? '', /takes 0 % of traffic/);
    const gap = campaignCompatibility(ranged([0, 30], [31, 100]), { paths: 'remote' });
    assert.deepEqual(codes(gap), ['bucket_ranges bucket_ranges']);
    assert.match(gap[0]?.message ?? '', /takes 99 %/);
  });

  void it('warns of string operators over a key a visitor may lack, or over a target that is not text', () => {
    const warnings = campaignCompatibility(
      targeted(
        [rule('plan', 'CONTAINS', 'prem')],
        [rule('plan', 'NOT_EQUALS', 'free'), rule('plan', 'ENDS_WITH', ['a', 'b'])],
        [rule('plan', 'EXISTS'), rule('plan', 'STARTS_WITH', null)],
        [rule('plan', 'EXISTS'), rule('plan', 'NOT_CONTAINS', 5)],
        [rule('plan', 'EQUALS', 'x'), rule('plan', 'CONTAINS')],
      ),
    );
    assert.deepEqual(codes(warnings), [
      `string_operator_on_missing_key ${TG}[0].targetings[0]`,
      `not_equals_on_missing_key ${TG}[1].targetings[0]`,
      `string_operator_on_missing_key ${TG}[1].targetings[1]`,
      `string_operator_without_text ${TG}[2].targetings[1]`,
      `string_operator_on_non_text ${TG}[3].targetings[1]`,
      `string_operator_without_text ${TG}[4].targetings[1]`,
    ]);
    assert.match(warnings[0]?.message ?? '', /Put an EXISTS rule on "plan" before it/);
  });

  void it('warns of [] targets where the two engines differ', () => {
    const warnings = campaignCompatibility(
      targeted(
        [rule('plan', 'NOT_EQUALS', [])],
        [rule('plan', 'EXISTS', []), rule('plan', 'CONTAINS', 'never read')],
        [rule('plan', 'EQUALS', [])],
      ),
    );
    assert.deepEqual(codes(warnings), [
      `empty_list_target ${TG}[0].targetings[0]`,
      `empty_list_target ${TG}[1].targetings[0]`,
    ]);
    assert.match(warnings[0]?.message ?? '', /match every visitor, ours never match/);
    assert.match(warnings[1]?.message ?? '', /never match, ours ignore the target/);
  });

  void it("names paths in the remote control API's fields when asked", () => {
    const warnings = campaignCompatibility(targeted([rule('v', 'SEMVER_EQUALS', '1.0.0')]), {
      paths: 'remote',
    });
    assert.deepEqual(codes(warnings), [
      'semver_operator variation_groups[0].targeting.targeting_groups[0].targetings[0]',
    ]);
  });
});

void describe('environmentCompatibility', () => {
  const banner = (id: string, value: JsonValue): BucketingCampaign => ({
    id,
    name: id,
    type: 'toggle',
    variationGroups: [
      {
        id: `${id}-vg`,
        name: 'All',
        targeting: { targetingGroups: [{ targetings: [rule('fs_all_users', 'EQUALS', '')] }] },
        variations: [
          {
            id: `${id}-v`,
            name: 'On',
            reference: true,
            allocation: 100,
            modifications: { type: 'FLAG', value: { btnColor: value } },
          },
        ],
      },
    ],
  });

  void it("warns when a later campaign's null replaces an earlier campaign's value in the platform's flags", () => {
    // checkoutCampaign's reference sets btnColor to null: after `blue`, that null is what their flags keep.
    const masked = environmentCompatibility([banner('blue', 'blue'), checkoutCampaign()]);
    assert.deepEqual(codes(masked), [
      'null_masks_earlier_flag variationGroups[0].variations[0].modifications.value',
    ]);
    assert.deepEqual(masked[0]?.modes, ['decision_api', 'bucketing']);
    assert.match(masked[0].message, /earlier campaign "blue"/);
    // Before it, nothing to mask.
    assert.deepEqual(environmentCompatibility([checkoutCampaign(), banner('blue', 'blue')]), []);
    // A key some variations leave out is null only in decision answers (exposeAllKeys).
    const checkout = checkoutCampaign();
    const [group] = checkout.variationGroups;
    assert.ok(group?.variations[0] !== undefined && group.variations[1] !== undefined);
    const leftOut: BucketingCampaign = {
      ...checkout,
      variationGroups: [
        {
          ...group,
          variations: [
            { ...group.variations[0], modifications: { type: 'FLAG', value: {} } },
            group.variations[1],
          ],
        },
      ],
    };
    const absent = environmentCompatibility([banner('blue', 'blue'), leftOut]);
    assert.deepEqual(absent[0]?.modes, ['decision_api']);
    // A campaign checked alone, not yet in the environment, goes last.
    assert.equal(
      campaignCompatibility(checkoutCampaign(), { campaigns: [banner('blue', 'blue')] }).length,
      1,
    );
  });

  void it('warns each ab campaign when one visitor, one test is on and there are several', () => {
    const settings = { enabledXPC: false, enabled1V1T: true };
    assert.deepEqual(environmentCompatibility([checkoutCampaign(), premiumToggle()], settings), []);
    const two = environmentCompatibility([checkoutCampaign(), checkoutCampaign('b')], settings);
    assert.deepEqual(
      two.filter((w) => w.code === 'one_visitor_one_test').map((w) => [w.campaignId, w.code]),
      [
        ['c1', 'one_visitor_one_test'],
        ['bc1', 'one_visitor_one_test'],
      ],
    );
    // Without it, only the second checkout's null btnColor over the first's green is left.
    assert.deepEqual(
      environmentCompatibility([checkoutCampaign(), checkoutCampaign('b')]).map((w) => w.code),
      ['null_masks_earlier_flag'],
    );
  });
});

void describe('feature-server import', () => {
  const file = {
    panic: false,
    campaigns: [
      checkoutCampaign(),
      {
        ...targeted([rule('app', 'SEMVER_LOWER_THAN', '3.0.0')]),
        id: 'c9',
        slug: 'c9',
        bucketRanges: [{ r: [0, 10] }],
      },
    ],
  };
  // Ids must be unique in the environment: the second campaign's group and variations get their own.
  const second = file.campaigns[1];
  assert.ok(second !== undefined);
  second.variationGroups = second.variationGroups.map((g) => ({
    ...g,
    id: 'vg9',
    // Its own flag key: a null btnColor after checkout's green would be a warning of its own.
    variations: g.variations.map((v) => ({
      ...v,
      id: `${v.id}-9`,
      modifications: { type: 'FLAG', value: { banner: v.reference === true ? null : 'sale' } },
    })),
  }));

  void it('lists the warnings of a file, and prints them (a warnings array with --json, none when none)', () => {
    const warnings = importWarnings(file);
    assert.deepEqual(
      warnings.map((w) => [w.campaignId, w.code]),
      [
        ['c9', 'bucket_ranges'],
        ['c9', 'semver_operator'],
      ],
    );
    const { value, human } = importOutcome('e1', 2, warnings);
    assert.deepEqual(value, { envId: 'e1', campaigns: 2, warnings });
    assert.match(
      human,
      /^2 campaign\(s\) imported into e1\.\nwarning: campaign c9, bucketRanges \(bucketing mode\): /,
    );
    assert.match(human, /docs\/http-api\.md/);
    assert.deepEqual(importOutcome('e1', 1, []), {
      value: { envId: 'e1', campaigns: 1 },
      human: '1 campaign(s) imported into e1.',
    });
  });

  void it('prints them from the command line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-compat-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const env = { FEATURE_DATA_DIR: join(dir, 'data') };
    // A copy of a migrated folder, and the commands in this process: what is tested is what they print.
    await copyTemplateDataDir(env.FEATURE_DATA_DIR);
    const account = await runCliInProcess(['account', 'create', '--name', 'Shop', '--json'], env);
    assert.equal(account.code, 0, account.stderr);
    const { accountId } = JSON.parse(account.stdout) as { accountId: string };
    const created = await runCliInProcess(
      ['env', 'create', '--account', accountId, '--name', 'p', '--json'],
      env,
    );
    const { envId } = JSON.parse(created.stdout) as { envId: string };
    const path = join(dir, 'campaigns.json');
    writeFileSync(path, JSON.stringify(file));
    const json = await runCliInProcess(['import', path, '--env', envId, '--json'], env);
    assert.equal(json.code, 0, json.stderr);
    const printed = JSON.parse(json.stdout) as { campaigns: number; warnings: CompatibilityWarning[] };
    assert.equal(printed.campaigns, 2);
    assert.deepEqual(printed.warnings, importWarnings(file));
    const text = await runCliInProcess(['import', path, '--env', envId], env);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /warning: campaign c9, variationGroups\[0\]\.targeting\.targetingGroups\[0\]\.targetings\[0\]/,
    );
  });
});

// What the platform's own SDKs cannot do with a campaign as we serve it (issue 15; docs/http-api.md, "Using
// the platform's SDKs"). In decision-API mode our server decides and those SDKs only build flags from the
// answer; in bucketing mode their local engine evaluates our bucketing file, and it differs from ours
// (PROTOCOL.md §7, §8) as read in @flagship.io/js-sdk 5.2.0 (BucketingManager, DecisionManager):
// - it knows no SEMVER_* operator: such a rule never matches, so its targeting group never does;
// - it ignores `bucketRanges`: a campaign takes all traffic;
// - CONTAINS, NOT_CONTAINS, STARTS_WITH and ENDS_WITH call toString() on the context value and on the target:
//   a visitor without the key, or a target that is null or absent, throws, and that visitor gets no flag of
//   any campaign; a number or boolean target is compared as text (ours never matches a non-string);
// - NOT_EQUALS matches a visitor without the key (ours: only NOT_EXISTS does);
// - a list target of [] matches under NOT_EQUALS and NOT_CONTAINS and never under EXISTS and NOT_EXISTS
//   (ours: [] never matches, and EXISTS / NOT_EXISTS ignore the target);
// - it ignores enabled1V1T;
// and in both modes, when two campaigns set one flag key, a later campaign's null replaces the earlier value
// (ours keeps it, §9.1), so those SDKs show the default.
// Their engine evaluates the rules of a targeting group in order and stops at the first that fails, so a rule
// guarded by an earlier one of its group that only matches when the key is set (EXISTS, EQUALS, a comparison,
// a string operator) never meets a missing key. Pure functions: the CLI's import and the remote control API
// call them.
import type { AccountSettings, BucketingCampaign, JsonValue, Targeting } from 'feature-ts/protocol';

/** What a warning is about. */
export type CompatibilityCode =
  | 'semver_operator'
  | 'bucket_ranges'
  | 'string_operator_on_missing_key'
  | 'string_operator_without_text'
  | 'string_operator_on_non_text'
  | 'not_equals_on_missing_key'
  | 'empty_list_target'
  | 'null_masks_earlier_flag'
  | 'one_visitor_one_test';

/** A decision mode of the platform's SDKs. */
export type PlatformMode = 'bucketing' | 'decision_api';

/** Something the platform's SDKs evaluate differently from our server and SDK, in one campaign. */
export interface CompatibilityWarning {
  campaignId: string;
  code: CompatibilityCode;
  /** The modes of the platform's SDKs that differ: their local engine (`bucketing`), or both. */
  modes: readonly PlatformMode[];
  /** Where, in the campaign: bucketing-file names, or the remote control API's with `paths: 'remote'`. */
  path: string;
  message: string;
}

/** The environment a campaign is checked in. */
export interface CompatibilityOptions {
  /**
   * The environment's campaigns in order (the campaign itself among them, or not yet: then it goes last):
   * earlier ones are what its null flags could mask, and its ab siblings count under one visitor, one test.
   */
  campaigns?: readonly BucketingCampaign[];
  accountSettings?: Partial<AccountSettings>;
  /** Field names of paths: the bucketing file's (default) or the remote control API's snake_case. */
  paths?: 'bucketing' | 'remote';
}

const BUCKETING_ONLY: readonly PlatformMode[] = Object.freeze(['bucketing']);
const BOTH: readonly PlatformMode[] = Object.freeze(['decision_api', 'bucketing']);

// Context keys the platform's SDKs always set (fs_users is the visitor id for targeting).
const ALWAYS_SET: ReadonlySet<string> = new Set(['fs_users', 'fs_client', 'fs_version']);
const STRING_OPERATORS: ReadonlySet<string> = new Set([
  'CONTAINS',
  'NOT_CONTAINS',
  'STARTS_WITH',
  'ENDS_WITH',
]);
const COMPARISONS: ReadonlySet<string> = new Set([
  'GREATER_THAN',
  'LOWER_THAN',
  'GREATER_THAN_OR_EQUALS',
  'LOWER_THAN_OR_EQUALS',
]);
// A list target of [] matches under these in their engine (every() of nothing), or never (some()).
const EVERY_OF_LIST: ReadonlySet<string> = new Set(['NOT_EQUALS', 'NOT_CONTAINS']);

const NAMES = {
  bucketing: { groups: 'variationGroups', targetingGroups: 'targetingGroups', ranges: 'bucketRanges' },
  remote: { groups: 'variation_groups', targetingGroups: 'targeting_groups', ranges: 'bucket_ranges' },
} as const;

const quoted = (value: JsonValue | undefined): string =>
  value === undefined ? 'nothing' : JSON.stringify(value);

/** The warnings of one targeting group's rules, walked as their engine walks them. */
const groupWarnings = (
  targetings: readonly Targeting[],
  at: string,
  add: (code: CompatibilityCode, path: string, message: string) => void,
): void => {
  const set = new Set(ALWAYS_SET);
  for (const [index, rule] of targetings.entries()) {
    const where = `${at}.targetings[${index}]`;
    const { operator, key } = rule;
    // Absent in an imported file's EXISTS rules; the type says JsonValue.
    const value = rule.value as JsonValue | undefined;
    if (key === 'fs_all_users') continue;
    if (operator.startsWith('SEMVER_')) {
      add(
        'semver_operator',
        where,
        `${operator} on "${key}": the platform's SDKs know no semantic-version operator, so in bucketing mode this rule never matches (nor its targeting group); ours compares versions. Use the decision API with those SDKs, or target exact versions with EQUALS.`,
      );
      return; // Their engine stops at a rule that fails: later rules of the group are never evaluated.
    }
    const list = Array.isArray(value) ? value : null;
    if (list?.length === 0) {
      if (EVERY_OF_LIST.has(operator) || operator === 'EXISTS' || operator === 'NOT_EXISTS') {
        add(
          'empty_list_target',
          where,
          `${operator} on "${key}" with the target []: the platform's SDKs in bucketing mode ${EVERY_OF_LIST.has(operator) ? 'match every visitor' : 'never match'}, ours ${EVERY_OF_LIST.has(operator) ? 'never match' : 'ignore the target'}. Give a value, or remove the rule.`,
        );
      }
      if (!EVERY_OF_LIST.has(operator)) return;
      continue;
    }
    const mayBeMissing = !set.has(key);
    if (STRING_OPERATORS.has(operator)) {
      const targets: ReadonlyArray<JsonValue | undefined> = list ?? [value];
      if (targets.some((t) => t === null || t === undefined)) {
        add(
          'string_operator_without_text',
          where,
          `${operator} on "${key}" with the target ${quoted(value)}: the platform's SDKs in bucketing mode throw on a null or absent target, and the visitor gets no flag at all. Give a text target.`,
        );
      } else if (targets.some((t) => typeof t !== 'string')) {
        add(
          'string_operator_on_non_text',
          where,
          `${operator} on "${key}" with the target ${quoted(value)}: the platform's SDKs in bucketing mode compare it as text, ours never match a target that is not a string. Quote the target.`,
        );
      }
      if (mayBeMissing) {
        add(
          'string_operator_on_missing_key',
          where,
          `${operator} on "${key}", which a visitor's context may lack: the platform's SDKs in bucketing mode throw for such a visitor, who then gets no flag of any campaign (ours: the rule does not match). Put an EXISTS rule on "${key}" before it in the same targeting group.`,
        );
      }
    }
    if (operator === 'NOT_EQUALS' && mayBeMissing) {
      add(
        'not_equals_on_missing_key',
        where,
        `NOT_EQUALS on "${key}", which a visitor's context may lack: the platform's SDKs in bucketing mode match such a visitor, ours do not. Put an EXISTS rule on "${key}" before it in the same targeting group.`,
      );
    }
    // Rules that match, in their engine, only when the key is set guard the rules after them.
    const guards =
      operator === 'EXISTS' ||
      (operator === 'EQUALS' && value !== undefined) ||
      COMPARISONS.has(operator) ||
      STRING_OPERATORS.has(operator);
    if (guards) set.add(key);
  }
};

/** How many of the buckets 0-99 a campaign's ranges `[from, to)` take. */
const bucketsTaken = (ranges: NonNullable<BucketingCampaign['bucketRanges']>): number => {
  let taken = 0;
  for (let bucket = 0; bucket < 100; bucket++) {
    if (ranges.some(({ r: [from, to] }) => bucket >= from && bucket < to)) taken++;
  }
  return taken;
};

/** The flag keys that some variation of an earlier campaign sets to a value, with the first such campaign. */
const keysSetBefore = (earlier: readonly BucketingCampaign[]): Map<string, string> => {
  const keys = new Map<string, string>();
  for (const campaign of earlier)
    for (const group of campaign.variationGroups)
      for (const variation of group.variations)
        for (const [key, value] of Object.entries(variation.modifications.value))
          if (value !== null && !keys.has(key)) keys.set(key, campaign.id);
  return keys;
};

/** The campaigns before `campaign` in `campaigns` (all of them when it is not there yet: it goes last). */
const before = (
  campaign: BucketingCampaign,
  campaigns: readonly BucketingCampaign[],
): readonly BucketingCampaign[] => {
  const index = campaigns.findIndex((c) => c.id === campaign.id);
  return index === -1 ? campaigns : campaigns.slice(0, index);
};

/** Everything the platform's SDKs evaluate differently in `campaign` (none: it is in the compatible subset). */
export const campaignCompatibility = (
  campaign: BucketingCampaign,
  options: CompatibilityOptions = {},
): CompatibilityWarning[] => {
  const names = NAMES[options.paths ?? 'bucketing'];
  const warnings: CompatibilityWarning[] = [];
  const add =
    (modes: readonly PlatformMode[]) =>
    (code: CompatibilityCode, path: string, message: string): void => {
      warnings.push({ campaignId: campaign.id, code, modes, path, message });
    };
  const ranges = campaign.bucketRanges;
  if (ranges !== undefined) {
    const taken = bucketsTaken(ranges);
    if (taken < 100) {
      add(BUCKETING_ONLY)(
        'bucket_ranges',
        names.ranges,
        `The campaign takes ${taken} % of traffic; the platform's SDKs in bucketing mode ignore ${names.ranges} and show it to all. Use the decision API with those SDKs, or take all traffic ([[0,100]]).`,
      );
    }
  }
  const earlierKeys = keysSetBefore(before(campaign, options.campaigns ?? []));
  for (const [g, group] of campaign.variationGroups.entries()) {
    const groupPath = `${names.groups}[${g}]`;
    for (const [t, targetingGroup] of (group.targeting?.targetingGroups ?? []).entries()) {
      groupWarnings(
        targetingGroup.targetings,
        `${groupPath}.targeting.${names.targetingGroups}[${t}]`,
        add(BUCKETING_ONLY),
      );
    }
    const keys = new Set(group.variations.flatMap((v) => Object.keys(v.modifications.value)));
    for (const key of keys) {
      const earlier = earlierKeys.get(key);
      if (earlier === undefined) continue;
      // An explicit null reaches their flags in both modes; an absent key only through the decision API's
      // exposeAllKeys, which adds it as null (§9.2).
      const nullAt = group.variations.findIndex((v) => v.modifications.value[key] === null);
      const absentAt = group.variations.findIndex((v) => !Object.hasOwn(v.modifications.value, key));
      if (nullAt === -1 && absentAt === -1) continue;
      const at = nullAt === -1 ? absentAt : nullAt;
      add(nullAt === -1 ? ['decision_api'] : BOTH)(
        'null_masks_earlier_flag',
        `${groupPath}.variations[${at}].modifications.value`,
        `Flag "${key}" is also set by the earlier campaign "${earlier}": where this campaign's variation leaves it null, the platform's SDKs show the default value (the last campaign wins, null included), ours keep "${earlier}"'s value. Give "${key}" a value in every variation, or use another key.`,
      );
    }
  }
  const campaigns = options.campaigns ?? [];
  const abCampaigns = new Set([...campaigns, campaign].filter((c) => c.type === 'ab').map((c) => c.id));
  if (options.accountSettings?.enabled1V1T === true && campaign.type === 'ab' && abCampaigns.size > 1) {
    add(BUCKETING_ONLY)(
      'one_visitor_one_test',
      'type',
      `The environment runs one visitor, one test, which the platform's SDKs in bucketing mode ignore: they may show this ab campaign with ${abCampaigns.size - 1} other(s). Use the decision API with those SDKs.`,
    );
  }
  return warnings;
};

/** The warnings of every campaign of an environment, in order (a bucketing file: campaigns and settings). */
export const environmentCompatibility = (
  campaigns: readonly BucketingCampaign[],
  accountSettings?: Partial<AccountSettings>,
  paths: 'bucketing' | 'remote' = 'bucketing',
): CompatibilityWarning[] =>
  campaigns.flatMap((campaign) =>
    campaignCompatibility(campaign, {
      campaigns,
      paths,
      ...(accountSettings === undefined ? {} : { accountSettings }),
    }),
  );

// GrowthBook (@growthbook/growthbook 1.8.0) as a bench peer, on features converted from our bucketing file.
//
// Comparable, not identical. What is kept: every flag key of the file is a feature (the 50 campaigns set 150
// keys: flagN in both groups, extraNx0 and extraNx1 in one group each), with one experiment rule per variation
// group that sets it; the rule's condition is the group's targeting (an $or of the targeting groups, each an
// $and of its rules), and, so that the first matching group wins as in §8.3, "and none of the campaign's
// earlier groups"; the experiment key is the group id, so the keys of one group get one variation (linked
// features); weights are the allocations normalised, coverage their sum / 100 (a 25/25/25 group leaves 25 % of
// visitors out); a campaign's `bucketRanges` become a filter (GrowthBook's namespaces) hashed on the visitor
// id with one seed for all campaigns, as §8.3 hashes the id alone.
// What differs:
// - Hashing: FNV-1a (hashVersion 2) of seed + id into [0, 1), not MurmurHash3 % 100, and bucket ranges are
//   laid out per variation with the coverage gap at each one's end: the same shares, other visitors.
// - Conditions are the ones a GrowthBook user writes: equality is loose (`"1" == 1`), `$ne`/`$not` match a
//   missing attribute, comparisons are not type-strict, `$vgte` pads versions (a 2-part "1.2" is lower than
//   "1.2.0"; unparsable versions compare as strings). The fixture's visitors have every key with the type its
//   rules expect, so none of this changes a decision here.
// - A read is an evaluation: GrowthBook keeps no per-visitor decision, each `getFeatureValue` runs the rules
//   (condition, hash) again. Ours and the platform's SDK compute once and read a map.
// - "None of the earlier groups" ($nor) re-evaluates their conditions for visitors outside them: about 10 %
//   of an assign here, which a GrowthBook user (whose excluded visitors fall through to the next rule) skips.
// - "Last campaign wins" (§9.1) becomes rules in reverse campaign order, and a null value a passthrough when
//   another campaign sets the key; no key of the fixture is set by two campaigns.
import {
  GrowthBookClient,
  type ConditionInterface,
  type FeatureDefinition,
  type FeatureRule,
  type UserScopedGrowthBook,
} from '@growthbook/growthbook';
import type {
  BucketingCampaign,
  BucketingFile,
  BucketingVariationGroup,
  JsonValue,
  Targeting,
} from '../../src/protocol/index.js';
import { flagKeys, visitors } from './fixture.js';
import type { PeerSdk, PeerVisitor } from './peer.js';

/** The name the bench prints. */
export const GROWTHBOOK_PEER = 'GrowthBook 1.8.0 (GrowthBookClient, user-scoped)';

type Condition = Record<string, unknown>;

/** Matches nobody: `$or: []` would match everybody in GrowthBook. */
const NEVER: Condition = { $not: {} };
const ALWAYS: Condition = {};

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const STRING_OPERATORS = new Set(['CONTAINS', 'NOT_CONTAINS', 'STARTS_WITH', 'ENDS_WITH']);

/** One rule on one target value (a list target is split by the caller); undefined: matches nobody. */
const scalarCondition = (operator: string, attribute: string, t: JsonValue): Condition | undefined => {
  const on = (c: unknown): Condition => ({ [attribute]: c });
  // §7: string operators on a non-string target never match.
  if (STRING_OPERATORS.has(operator) && typeof t !== 'string') return undefined;
  const text = typeof t === 'string' ? t : '';
  switch (operator) {
    case 'EQUALS':
      return on(t);
    case 'NOT_EQUALS':
      return on({ $ne: t });
    case 'CONTAINS':
      return on({ $regex: escapeRegex(text) });
    case 'NOT_CONTAINS':
      return on({ $not: { $regex: escapeRegex(text) } });
    case 'STARTS_WITH':
      return on({ $regex: `^${escapeRegex(text)}` });
    case 'ENDS_WITH':
      return on({ $regex: `${escapeRegex(text)}$` });
    case 'GREATER_THAN':
      return on({ $gt: t });
    case 'LOWER_THAN':
      return on({ $lt: t });
    case 'GREATER_THAN_OR_EQUALS':
      return on({ $gte: t });
    case 'LOWER_THAN_OR_EQUALS':
      return on({ $lte: t });
    case 'SEMVER_EQUALS':
      return on({ $veq: t });
    case 'SEMVER_NOT_EQUALS':
      return on({ $vne: t });
    case 'SEMVER_GREATER_THAN':
      return on({ $vgt: t });
    case 'SEMVER_LOWER_THAN':
      return on({ $vlt: t });
    case 'SEMVER_GREATER_THAN_OR_EQUALS':
      return on({ $vgte: t });
    case 'SEMVER_LOWER_THAN_OR_EQUALS':
      return on({ $vlte: t });
    default:
      return undefined;
  }
};

/** One targeting rule of §7 as a GrowthBook condition (an unknown operator matches nobody, as in ours). */
export const ruleCondition = (rule: Targeting): Condition => {
  if (rule.key === 'fs_all_users') return ALWAYS;
  const attribute = rule.key === 'fs_users' ? 'id' : rule.key;
  if (rule.operator === 'EXISTS') return { [attribute]: { $exists: true } };
  if (rule.operator === 'NOT_EXISTS') return { [attribute]: { $exists: false } };
  const t = rule.value;
  if (!Array.isArray(t)) return scalarCondition(rule.operator, attribute, t) ?? NEVER;
  if (t.length === 0) return NEVER;
  if (rule.operator === 'EQUALS') return { [attribute]: { $in: t } };
  // §7: a list holds for some element, or for every one under the two negative operators.
  const each = t.map((x) => scalarCondition(rule.operator, attribute, x) ?? NEVER);
  return rule.operator === 'NOT_EQUALS' || rule.operator === 'NOT_CONTAINS' ? { $and: each } : { $or: each };
};

/** A variation group's targeting: any targeting group, each with all its rules; none matches nobody. */
export const groupCondition = (group: BucketingVariationGroup): Condition => {
  const groups = group.targeting?.targetingGroups ?? [];
  if (groups.length === 0) return NEVER;
  return {
    $or: groups.map((g) => (g.targetings.length === 0 ? NEVER : { $and: g.targetings.map(ruleCondition) })),
  };
};

/** The seed every campaign's traffic filter shares: §8.3 hashes the visitor id alone, whatever the campaign. */
const TRAFFIC_SEED = 'bucketRanges';

const trafficFilter = (campaign: BucketingCampaign): FeatureRule['filters'] => {
  const ranges = campaign.bucketRanges;
  if (ranges === undefined || ranges.some(({ r }) => r[0] <= 0 && r[1] >= 100)) return undefined;
  return [
    {
      seed: TRAFFIC_SEED,
      hashVersion: 2,
      attribute: 'id',
      ranges: ranges.map(({ r }) => [r[0] / 100, r[1] / 100]),
    },
  ];
};

/** The value a variation gives `key`: null when it does not set it (§6). */
const valueOf = (modifications: unknown, key: string): JsonValue => {
  if (typeof modifications !== 'object' || modifications === null) return null;
  return (modifications as Record<string, JsonValue>)[key] ?? null;
};

/** The file's flags as GrowthBook features, one per flag key (see the head of this file for what differs). */
export const toGrowthBookFeatures = (file: BucketingFile): Record<string, FeatureDefinition> => {
  const setters = new Map<string, number>(); // key → how many campaigns set it
  for (const key of flagKeys(file)) setters.set(key, 0);
  for (const campaign of file.campaigns) {
    const keys = new Set(flagKeys({ ...file, campaigns: [campaign] }));
    for (const key of keys) setters.set(key, (setters.get(key) ?? 0) + 1);
  }
  const features: Record<string, FeatureDefinition> = {};
  for (const key of setters.keys()) features[key] = { defaultValue: null, rules: [] };
  // Reverse campaign order: GrowthBook's first matching rule wins, ours the last campaign (§9.1).
  for (const campaign of [...file.campaigns].reverse()) {
    const filters = trafficFilter(campaign);
    const earlier: Condition[] = [];
    for (const group of campaign.variationGroups) {
      const own = groupCondition(group);
      const condition = earlier.length === 0 ? own : { $and: [own], $nor: [...earlier] };
      earlier.push(own);
      const allocations = group.variations.map((v) => Math.max(0, v.allocation ?? 0));
      const total = allocations.reduce((a, b) => a + b, 0);
      if (group.variations.length < 2 || total === 0) continue; // GrowthBook needs 2 variations; nobody is allocated
      const groupKeys = flagKeys({ ...file, campaigns: [{ ...campaign, variationGroups: [group] }] });
      for (const key of groupKeys) {
        const values = group.variations.map((v) => valueOf(v.modifications.value, key));
        const shared = (setters.get(key) ?? 0) > 1;
        const rule: FeatureRule = {
          id: `${campaign.id}/${group.id}`,
          key: group.id,
          condition: condition as ConditionInterface,
          variations: values,
          weights: allocations.map((a) => a / total),
          coverage: Math.min(1, total / 100),
          hashAttribute: 'id',
          hashVersion: 2,
          meta: group.variations.map((v, i) => ({
            key: v.id,
            ...(shared && values[i] === null ? { passthrough: true } : {}),
          })),
          ...(filters ? { filters } : {}),
        };
        features[key]?.rules?.push(rule);
      }
    }
  }
  return features;
};

/**
 * Starts GrowthBook on `file` the way a Node server does since 1.3: one `GrowthBookClient` holding the
 * features, and per request a `createScopedInstance` with the visitor's attributes (the older per-request
 * `new GrowthBook({...})` is meant for one user per instance, in browsers). `initSync` with a payload and
 * neither `clientKey`, `streaming` nor `pollingInterval`: no request. No tracking callback, feature-usage
 * callback or event logger: an experiment view costs only its dedupe set.
 */
export const startGrowthBookPeer = (file: BucketingFile): Promise<PeerSdk> => {
  const people = visitors();
  const keys = flagKeys(file);
  const client = new GrowthBookClient().initSync({ payload: { features: toGrowthBookFeatures(file) } });
  const scoped = (i: number): UserScopedGrowthBook => {
    const v = people[i % people.length];
    if (v === undefined) throw new Error(`no visitor ${i}`);
    const user = client.createScopedInstance({ attributes: { id: v.id, ...v.context } });
    // What `fetchFlags` does in ours: every flag of the visitor computed once.
    for (const key of keys) user.evalFeature(key);
    return user;
  };
  return Promise.resolve({
    name: GROWTHBOOK_PEER,
    assign: (i) => {
      scoped(i);
    },
    readyVisitor: (i): Promise<PeerVisitor> => {
      const user = scoped(i);
      return Promise.resolve({ read: (key, defaultValue) => user.getFeatureValue(key, defaultValue) });
    },
    close: () => {
      client.destroy();
      return Promise.resolve();
    },
  });
};

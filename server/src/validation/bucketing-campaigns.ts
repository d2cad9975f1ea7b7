// The campaigns of a bucketing-format file given to `feature-server import` (PROTOCOL.md §6, §13.5 rules):
// checked field by field, with the path of the first problem, and normalised (bucketRanges always written).
// The variation-group checks are shared with the remote control API's campaign format
// (remote/campaign-format.ts), which spells one field in snake_case and adds stricter rules (GroupRules);
// the import keeps the file's looser rules, so every file that imported before still does.
import {
  CAMPAIGN_LIMITS,
  CAMPAIGN_TYPES,
  CONTEXT_LIMITS,
  TARGETING_OPERATORS,
  isJsonObject,
  type BucketingCampaign,
  type BucketingVariation,
  type BucketingVariationGroup,
  type JsonValue,
  type Targeting,
  type VariationGroupTargeting,
} from 'feature-ts/protocol';
import { isValidId } from '../ids.js';
import { checkAnalysis } from './analysis-settings.js';
import { fail, fieldPath, rejectUnknownFields } from './field-error.js';
import { badString } from './fields.js';
import { STORABLE_TEXT_RULE, isStorableText } from './storable-text.js';

export { FieldError, fail, fieldPath, rejectUnknownFields } from './field-error.js';

/** Length limits of the API's texts; ids have their own (1-64 characters, PROTOCOL.md §1). */
export const TEXT_LIMITS = {
  /** Campaign, variation group and variation names. */
  name: 256,
  slug: 256,
  description: 10_000,
  /** Targeting and flag keys: as long as a context key may be (§3). */
  key: CONTEXT_LIMITS.maxKeyLength,
  modificationsType: 64,
} as const;

// JSON values nest at most this deep in a body (§2.1); the walk below never goes further.
const MAX_DEPTH = 64;

const illFormed = (text: string): boolean => !isStorableText(text);
const ILL_FORMED = STORABLE_TEXT_RULE;

/** A message when `value` is not storable text of 1..`max` characters (§2.1; `min` 0 allows ''), else null. */
export const badText = (value: unknown, max: number, min = 1): string | null => {
  if (min === 0 && value === '') return null;
  const bad = badString(value, max);
  if (bad !== null) return bad;
  return illFormed(value as string) ? ILL_FORMED : null;
};

/** The path and reason of the first string or key in a JSON value that is not storable text, or null. */
const findBadJson = (value: unknown, path: string, depth: number): [string, string] | null => {
  if (typeof value === 'string') return illFormed(value) ? [path, ILL_FORMED] : null;
  if (typeof value !== 'object' || value === null) return null;
  if (depth >= MAX_DEPTH) return [path, `nests deeper than ${MAX_DEPTH} levels`];
  for (const [key, item] of Object.entries(value)) {
    if (illFormed(key)) return [path, `has a key that ${ILL_FORMED}`];
    const at = Array.isArray(value) ? `${path}[${key}]` : fieldPath(path, key);
    const bad = findBadJson(item, at, depth + 1);
    if (bad !== null) return bad;
  }
  return null;
};

const checkJson = (value: unknown, path: string): JsonValue => {
  const bad = findBadJson(value, path, 0);
  if (bad !== null) fail(...bad);
  // A parsed JSON body holds JSON values only; the walk above bounded it and checked its texts.
  return value as JsonValue;
};

/** Checks an object's id and claims it: ids are unique across the campaigns, groups and variations. */
export const claimId = (id: unknown, path: string, ids: Set<string>, scope: string): string => {
  if (!isValidId(id)) fail(path, 'must be an id of 1-64 characters from [A-Za-z0-9_-]');
  if (ids.has(id)) fail(path, `"${id}" is used twice ${scope}`);
  ids.add(id);
  return id;
};

/** Checks a campaign type (§3). */
export const checkCampaignType = (type: unknown, path: string): string => {
  if (!(CAMPAIGN_TYPES as readonly unknown[]).includes(type))
    fail(path, `must be one of ${CAMPAIGN_TYPES.join(', ')}`);
  return type as string;
};

/** How a format spells and checks variation groups: the bucketing file's rules or the remote API's. */
export interface GroupRules {
  /** The key of the list under `targeting`: `targetingGroups` (file) or `targeting_groups` (API). */
  readonly targetingGroups: string;
  /** Where ids must be unique, for messages: "in the file", "in the campaign". */
  readonly scope: string;
  /**
   * The remote control API's rules on top of the file's (§13.5): no unknown fields, bounded non-empty
   * texts, targeting required, exactly one reference variation, one value type per flag key in a group.
   */
  readonly strict: boolean;
  /** Makes the id of an object given without one (strict only; the file needs every id). */
  readonly newId?: () => string;
}

/** The bucketing file's rules, as the import has always applied them. */
export const FILE_RULES: GroupRules = {
  targetingGroups: 'targetingGroups',
  scope: 'in the file',
  strict: false,
};

const idOf = (object: Record<string, unknown>, rules: GroupRules): unknown =>
  object.id === undefined && rules.strict && rules.newId !== undefined ? rules.newId() : object.id;

const checkName = (name: unknown, path: string, rules: GroupRules): string => {
  const bad = rules.strict
    ? badText(name, TEXT_LIMITS.name)
    : typeof name === 'string'
      ? null
      : 'must be a string';
  if (bad !== null) fail(path, bad);
  return name as string;
};

const checkRule = (t: unknown, at: string, rules: GroupRules): Targeting => {
  if (rules.strict) {
    if (!isJsonObject(t)) fail(at, 'must be an object {"key", "operator", "value"}');
    rejectUnknownFields(t, ['key', 'operator', 'value'], at);
  }
  if (!isJsonObject(t) || typeof t.key !== 'string') fail(`${at}.key`, 'must be a string');
  const badKey = rules.strict ? badText(t.key, TEXT_LIMITS.key) : null;
  if (badKey !== null) fail(`${at}.key`, badKey);
  const operator = t.operator;
  if (!(TARGETING_OPERATORS as readonly unknown[]).includes(operator))
    fail(`${at}.operator`, `"${String(operator)}" is not a known operator`);
  if (rules.strict && !Object.hasOwn(t, 'value'))
    fail(`${at}.value`, 'is required (any JSON value; EXISTS and NOT_EXISTS ignore it)');
  checkTargetSize(operator as string, t.value, `${at}.value`);
  // The file's values are kept as given; the API's are checked as text the store can keep.
  const value = rules.strict ? checkJson(t.value, `${at}.value`) : (t.value as JsonValue);
  return { operator: operator as string, key: t.key, value };
};

const tooLong = (text: string, max: number): string =>
  `is ${text.length} characters long; a targeting's string value${max === CAMPAIGN_LIMITS.maxVersionTargetLength ? ' under a SEMVER operator' : ''} has at most ${max} (docs/http-api.md, Limits)`;

/** Where to put what does not fit in one list: for an "every element" operator, not in another group. */
const splitAdvice = (operator: string): string =>
  operator === 'NOT_EQUALS' || operator === 'NOT_CONTAINS'
    ? 'put the rest in another targeting of the same targeting group: both must hold'
    : 'put the rest in another targeting group: groups are alternatives';

/** Throws when a targeting's value passes the limits that bound a decision's cost (issue 29). */
const checkTargetSize = (operator: string, value: unknown, path: string): void => {
  const max = operator.startsWith('SEMVER_')
    ? CAMPAIGN_LIMITS.maxVersionTargetLength
    : CAMPAIGN_LIMITS.maxTargetLength;
  if (typeof value === 'string' && value.length > max) fail(path, tooLong(value, max));
  if (!Array.isArray(value)) return;
  if (value.length > CAMPAIGN_LIMITS.maxListItems)
    fail(
      path,
      `is a list of ${value.length} items; a targeting's list has at most ${CAMPAIGN_LIMITS.maxListItems} (${splitAdvice(operator)})`,
    );
  value.forEach((item, i) => {
    if (typeof item === 'string' && item.length > max) fail(`${path}[${i}]`, tooLong(item, max));
  });
};

const checkTargeting = (
  targeting: unknown,
  path: string,
  rules: GroupRules,
): VariationGroupTargeting | undefined => {
  const list = rules.targetingGroups;
  if (targeting === undefined) {
    if (!rules.strict) return undefined;
    fail(path, `is required: {"${list}": [{"targetings": [...]}]} (key fs_all_users targets everyone)`);
  }
  if (rules.strict) {
    if (!isJsonObject(targeting)) fail(path, `must be an object {"${list}": [...]}`);
    rejectUnknownFields(targeting, [list], path);
  }
  const groups = isJsonObject(targeting) ? targeting[list] : undefined;
  if (!Array.isArray(groups)) fail(`${path}.${list}`, 'must be an array');
  const targetingGroups = (groups as unknown[]).map((tg, i) => {
    const at = `${path}.${list}[${i}]`;
    if (rules.strict) {
      if (!isJsonObject(tg)) fail(at, 'must be an object {"targetings": [...]}');
      rejectUnknownFields(tg, ['targetings'], at);
    }
    const targetings = isJsonObject(tg) ? tg.targetings : undefined;
    if (!Array.isArray(targetings)) fail(`${at}.targetings`, 'must be an array');
    return {
      targetings: (targetings as unknown[]).map((t, j) => checkRule(t, `${at}.targetings[${j}]`, rules)),
    };
  });
  return { targetingGroups };
};

const checkModifications = (
  mods: unknown,
  at: string,
  rules: GroupRules,
): BucketingVariation['modifications'] => {
  if (!isJsonObject(mods) || typeof mods.type !== 'string' || !isJsonObject(mods.value)) {
    fail(at, 'must be {"type": string, "value": {flag key: value}}');
  }
  if (!rules.strict) return mods as unknown as BucketingVariation['modifications'];
  rejectUnknownFields(mods, ['type', 'value'], at);
  const badType = badText(mods.type, TEXT_LIMITS.modificationsType);
  if (badType !== null) fail(`${at}.type`, badType);
  for (const key of Object.keys(mods.value)) {
    const badKey = badText(key, TEXT_LIMITS.key);
    if (badKey !== null) fail(fieldPath(`${at}.value`, key), `is a flag key that ${badKey}`);
  }
  return { type: mods.type, value: checkJson(mods.value, `${at}.value`) as Record<string, JsonValue> };
};

const checkVariation = (v: unknown, at: string, ids: Set<string>, rules: GroupRules): BucketingVariation => {
  if (!isJsonObject(v)) fail(at, 'must be an object');
  if (rules.strict) rejectUnknownFields(v, ['id', 'name', 'reference', 'allocation', 'modifications'], at);
  const id = claimId(idOf(v, rules), `${at}.id`, ids, rules.scope);
  const name = checkName(v.name, `${at}.name`, rules);
  // The file treats null as absent (= 0); the typed API does not.
  const allocation = rules.strict ? (v.allocation === undefined ? 0 : v.allocation) : (v.allocation ?? 0);
  if (typeof allocation !== 'number' || !Number.isInteger(allocation) || allocation < 0 || allocation > 100) {
    fail(`${at}.allocation`, 'must be an integer from 0 to 100');
  }
  if (rules.strict && v.reference !== undefined && typeof v.reference !== 'boolean')
    fail(`${at}.reference`, 'must be true or false');
  const modifications = checkModifications(v.modifications, `${at}.modifications`, rules);
  return { id, name, reference: v.reference === true, allocation, modifications };
};

const jsonType = (value: JsonValue): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/** Throws at the first flag key whose value type differs from an earlier variation's (null aside, §13.5). */
const checkFlagTypes = (variations: BucketingVariation[], path: string): void => {
  const seen = new Map<string, { type: string; index: number }>();
  variations.forEach((variation, k) => {
    for (const [key, value] of Object.entries(variation.modifications.value)) {
      const type = jsonType(value);
      if (type === 'null') continue;
      const earlier = seen.get(key);
      if (earlier === undefined) seen.set(key, { type, index: k });
      else if (earlier.type !== type)
        fail(
          fieldPath(`${path}[${k}].modifications.value`, key),
          `is a ${type} here but a ${earlier.type} in variations[${earlier.index}]: a flag has one type in a group`,
        );
    }
  });
};

/**
 * Checks one variation group in `rules`' format, claiming its ids and its variations' in `ids`; returns it
 * normalised to the bucketing format (camelCase; every variation with `reference` and `allocation`).
 */
export const checkVariationGroup = (
  group: unknown,
  path: string,
  ids: Set<string>,
  rules: GroupRules,
): BucketingVariationGroup => {
  if (!isJsonObject(group)) fail(path, 'must be an object');
  if (rules.strict) rejectUnknownFields(group, ['id', 'name', 'targeting', 'variations'], path);
  const id = claimId(idOf(group, rules), `${path}.id`, ids, rules.scope);
  const name = checkName(group.name, `${path}.name`, rules);
  const targeting = checkTargeting(group.targeting, `${path}.targeting`, rules);
  if (!Array.isArray(group.variations) || group.variations.length === 0)
    fail(`${path}.variations`, 'must be a non-empty array');
  const variations = (group.variations as unknown[]).map((v, k) =>
    checkVariation(v, `${path}.variations[${k}]`, ids, rules),
  );
  const sum = variations.reduce((total, v) => total + (v.allocation ?? 0), 0);
  if (sum > 100) fail(`${path}.variations`, `allocations sum to ${sum}, more than 100`);
  const references = variations.filter((v) => v.reference === true).length;
  if (rules.strict && references !== 1)
    fail(`${path}.variations`, `must have exactly one reference variation (found ${references})`);
  if (references > 1) fail(`${path}.variations`, 'must have at most one reference variation');
  if (rules.strict) checkFlagTypes(variations, `${path}.variations`);
  return targeting === undefined ? { id, name, variations } : { id, name, targeting, variations };
};

/** Validates and normalises the campaigns of an imported file; throws InputError naming the field. */
export const validateBucketingCampaigns = (file: unknown): BucketingCampaign[] => {
  const campaigns = isJsonObject(file) ? file.campaigns : undefined;
  if (!Array.isArray(campaigns))
    fail('campaigns', 'must be an array (a bucketing-format file: {"campaigns": […]})');
  const ids = new Set<string>();
  const slugs = new Set<string>();
  return (campaigns as unknown[]).map((campaign, i): BucketingCampaign => {
    const path = `campaigns[${i}]`;
    if (!isJsonObject(campaign)) fail(path, 'must be an object');
    const c = campaign;
    claimId(c.id, `${path}.id`, ids, FILE_RULES.scope);
    if (typeof c.name !== 'string') fail(`${path}.name`, 'must be a string');
    checkCampaignType(c.type, `${path}.type`);
    if (c.slug !== undefined && c.slug !== null) {
      if (typeof c.slug !== 'string') fail(`${path}.slug`, 'must be a string or null');
      if (slugs.has(c.slug)) fail(`${path}.slug`, `"${c.slug}" is used twice in the file`);
      slugs.add(c.slug);
    }
    const ranges = c.bucketRanges ?? [{ r: [0, 100] }];
    if (
      !Array.isArray(ranges) ||
      !ranges.every(
        (r) =>
          isJsonObject(r) &&
          Array.isArray(r.r) &&
          r.r.length === 2 &&
          r.r.every((n) => typeof n === 'number' && n >= 0 && n <= 100),
      )
    ) {
      fail(`${path}.bucketRanges`, 'must be an array of {"r": [from, to]} with percents 0-100');
    }
    if (!Array.isArray(c.variationGroups)) fail(`${path}.variationGroups`, 'must be an array');
    // The file's groups are kept as given (fields the import does not know included); only checked here.
    (c.variationGroups as unknown[]).forEach((g, j) =>
      checkVariationGroup(g, `${path}.variationGroups[${j}]`, ids, FILE_RULES),
    );
    // Checked above field by field: the shape is a bucketing campaign.
    const checked: BucketingCampaign = {
      ...(c as unknown as BucketingCampaign),
      bucketRanges: ranges as BucketingCampaign['bucketRanges'] & object,
    };
    // The analysis settings (§14.6) are kept as read, never as given: the report trusts what is stored.
    delete checked.analysis;
    const analysis = c.analysis === undefined ? undefined : checkAnalysis(c.analysis, `${path}.analysis`);
    return analysis === undefined ? checked : { ...checked, analysis };
  });
};

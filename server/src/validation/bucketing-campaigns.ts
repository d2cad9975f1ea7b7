// The campaigns of a bucketing-format file given to `feature-server import` (PROTOCOL.md §6, §13.5 rules):
// checked field by field, with the path of the first problem, and normalised (bucketRanges always written).
// The variation-group checks are shared with the remote control API's campaign format
// (remote/campaign-format.ts), which spells one field in snake_case and adds stricter rules (GroupRules);
// the import keeps the file's looser rules, so every file that imported before still does.
import {
  CAMPAIGN_TYPES,
  isJsonObject,
  type BucketingCampaign,
  type BucketingVariation,
  type BucketingVariationGroup,
  type JsonValue,
} from 'feature-ts/protocol';
import { isValidId } from '../ids.js';
import { checkAnalysis } from './analysis-settings.js';
import { fail, fieldPath, rejectUnknownFields } from './field-error.js';
import { FILE_RULES, TEXT_LIMITS, badText, checkJson, type GroupRules } from './campaign-rules.js';
import { checkTargeting } from './targeting-check.js';

export { FieldError, fail, fieldPath, rejectUnknownFields } from './field-error.js';
export { FILE_RULES, TEXT_LIMITS, badText, type GroupRules } from './campaign-rules.js';

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

// The campaigns of a bucketing-format file given to `feature-server import` (PROTOCOL.md §6, §13.5 rules):
// checked field by field, with the path of the first problem, and normalised (bucketRanges always written).
import {
  CAMPAIGN_TYPES,
  TARGETING_OPERATORS,
  isJsonObject,
  type BucketingCampaign,
} from 'feature-ts/protocol';
import { InputError } from '../errors.js';
import { isValidId } from '../ids.js';

const fail = (path: string, message: string): never => {
  throw new InputError(`${path} ${message}`);
};

/** Checks an object's id and claims it: ids are unique across the file's campaigns, groups and variations. */
const claimId = (id: unknown, path: string, ids: Set<string>): void => {
  if (!isValidId(id)) fail(path, 'must be an id of 1-64 characters from [A-Za-z0-9_-]');
  if (ids.has(id as string)) fail(path, `"${String(id)}" is used twice in the file`);
  ids.add(id as string);
};

const checkGroup = (group: unknown, path: string, ids: Set<string>): void => {
  if (!isJsonObject(group)) fail(path, 'must be an object');
  const g = group as Record<string, unknown>;
  claimId(g.id, `${path}.id`, ids);
  if (typeof g.name !== 'string') fail(`${path}.name`, 'must be a string');
  if (g.targeting !== undefined) {
    const groups = isJsonObject(g.targeting) ? g.targeting.targetingGroups : undefined;
    if (!Array.isArray(groups)) fail(`${path}.targeting.targetingGroups`, 'must be an array');
    (groups as unknown[]).forEach((tg, i) => {
      const targetings = isJsonObject(tg) ? tg.targetings : undefined;
      if (!Array.isArray(targetings))
        fail(`${path}.targeting.targetingGroups[${i}].targetings`, 'must be an array');
      (targetings as unknown[]).forEach((t, j) => {
        const at = `${path}.targeting.targetingGroups[${i}].targetings[${j}]`;
        if (!isJsonObject(t) || typeof t.key !== 'string') fail(`${at}.key`, 'must be a string');
        const operator = (t as Record<string, unknown>).operator;
        if (!(TARGETING_OPERATORS as readonly unknown[]).includes(operator))
          fail(`${at}.operator`, `"${String(operator)}" is not a known operator`);
      });
    });
  }
  if (!Array.isArray(g.variations) || g.variations.length === 0)
    fail(`${path}.variations`, 'must be a non-empty array');
  let sum = 0;
  let references = 0;
  (g.variations as unknown[]).forEach((v, k) => {
    const at = `${path}.variations[${k}]`;
    if (!isJsonObject(v)) fail(at, 'must be an object');
    const variation = v as Record<string, unknown>;
    claimId(variation.id, `${at}.id`, ids);
    if (typeof variation.name !== 'string') fail(`${at}.name`, 'must be a string');
    const allocation = variation.allocation ?? 0;
    if (
      typeof allocation !== 'number' ||
      !Number.isInteger(allocation) ||
      allocation < 0 ||
      allocation > 100
    ) {
      fail(`${at}.allocation`, 'must be an integer from 0 to 100');
    }
    sum += allocation as number;
    if (variation.reference === true) references++;
    const mods = variation.modifications;
    if (!isJsonObject(mods) || typeof mods.type !== 'string' || !isJsonObject(mods.value)) {
      fail(`${at}.modifications`, 'must be {"type": string, "value": {flag key: value}}');
    }
  });
  if (sum > 100) fail(`${path}.variations`, `allocations sum to ${sum}, more than 100`);
  if (references > 1) fail(`${path}.variations`, 'must have at most one reference variation');
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
    const c = campaign as Record<string, unknown>;
    claimId(c.id, `${path}.id`, ids);
    if (typeof c.name !== 'string') fail(`${path}.name`, 'must be a string');
    if (!(CAMPAIGN_TYPES as readonly unknown[]).includes(c.type))
      fail(`${path}.type`, `must be one of ${CAMPAIGN_TYPES.join(', ')}`);
    if (c.slug !== undefined && c.slug !== null) {
      if (typeof c.slug !== 'string') fail(`${path}.slug`, 'must be a string or null');
      if (slugs.has(c.slug as string))
        fail(`${path}.slug`, `"${c.slug as string}" is used twice in the file`);
      slugs.add(c.slug as string);
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
    (c.variationGroups as unknown[]).forEach((g, j) => checkGroup(g, `${path}.variationGroups[${j}]`, ids));
    // Checked above field by field: the shape is a bucketing campaign.
    return {
      ...(c as unknown as BucketingCampaign),
      bucketRanges: ranges as BucketingCampaign['bucketRanges'] & object,
    };
  });
};

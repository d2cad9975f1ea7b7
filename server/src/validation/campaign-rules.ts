// What the campaign formats share (the bucketing file of `feature-server import`, and the remote control API's
// campaign format, remote/campaign-format.ts): their limits, and the rules no JSON Schema of one field can
// state, each naming the field by its path: ids unique across a campaign's objects, allocations summing to at
// most 100, reference variations, one value type per flag key in a group, a targeting value's size by its
// operator. Everything a field says alone is in the formats' schemas (remote/campaign-body-schemas.ts,
// bucketing-file-schema.ts).
import {
  CAMPAIGN_LIMITS,
  CONTEXT_LIMITS,
  type BucketingVariation,
  type CampaignState,
  type JsonValue,
} from 'feature-ts/protocol';
import { fail, fieldPath } from './field-error.js';

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

/** An id in a campaign body or file, as its schema states it: 1-64 characters of [A-Za-z0-9_-] (§1). */
export const ID_SCHEMA = {
  type: 'string',
  pattern: '^[A-Za-z0-9_-]{1,64}$',
  'x-rule': 'must be an id of 1-64 characters from [A-Za-z0-9_-]',
} as const;

/** Campaign states (§13.5): `paused` and `interrupted` campaigns are left out of decisions. */
export const CAMPAIGN_STATES = [
  'active',
  'paused',
  'interrupted',
] as const satisfies readonly CampaignState[];

/** The largest `position` (the store keeps it in an SQL integer; past the end means last anyway). */
export const MAX_POSITION = 2_147_483_647;

/** At most this many bucket ranges per campaign (§6): a share of 100 percents needs no more. */
export const MAX_BUCKET_RANGES = 100;

/** Claims an id: ids are unique across a campaign's groups and variations (and the file's campaigns). */
export const claimId = (id: string, path: string, ids: Set<string>, scope: string): string => {
  if (ids.has(id)) fail(path, `"${id}" is used twice ${scope}`);
  ids.add(id);
  return id;
};

/** A group's variations: allocations summing to at most 100, and one reference (`exact`) or at most one. */
export const checkAllocations = (
  variations: ReadonlyArray<Pick<BucketingVariation, 'allocation' | 'reference'>>,
  path: string,
  exact: boolean,
): void => {
  const sum = variations.reduce((total, v) => total + (v.allocation ?? 0), 0);
  if (sum > 100) fail(path, `allocations sum to ${sum}, more than 100`);
  const references = variations.filter((v) => v.reference === true).length;
  if (exact && references !== 1)
    fail(path, `must have exactly one reference variation (found ${references})`);
  if (references > 1) fail(path, 'must have at most one reference variation');
};

const jsonType = (value: JsonValue): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/** Throws at the first flag key whose value type differs from an earlier variation's (null aside, §13.5). */
export const checkFlagTypes = (
  variations: ReadonlyArray<Pick<BucketingVariation, 'modifications'>>,
  path: string,
): void => {
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

const tooLong = (text: string, max: number): string =>
  `is ${text.length} characters long; a targeting's string value${max === CAMPAIGN_LIMITS.maxVersionTargetLength ? ' under a SEMVER operator' : ''} has at most ${max} (docs/http-api.md, Limits)`;

/** Where to put what does not fit in one list: for an "every element" operator, not in another group. */
const splitAdvice = (operator: string): string =>
  operator === 'NOT_EQUALS' || operator === 'NOT_CONTAINS'
    ? 'put the rest in another targeting of the same targeting group: both must hold'
    : 'put the rest in another targeting group: groups are alternatives';

/** Throws when a targeting's value passes the limits that bound a decision's cost (issue 29). */
export const checkTargetSize = (operator: string, value: unknown, path: string): void => {
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

/** The target sizes of every rule of a group's targeting groups; `path` names their list as the format spells it. */
export const checkTargetSizes = (
  targetingGroups: ReadonlyArray<{ targetings: ReadonlyArray<{ operator: string; value?: unknown }> }>,
  path: string,
): void =>
  targetingGroups.forEach((group, i) =>
    group.targetings.forEach((rule, j) =>
      checkTargetSize(rule.operator, rule.value, `${path}[${i}].targetings[${j}].value`),
    ),
  );

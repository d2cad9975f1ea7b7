// The remote control API's campaign (PROTOCOL.md §13.5): snake_case on the wire, stored as a bucketing-format
// body (§6) plus a CampaignRecord. toRemoteCampaign writes the wire form; campaignFromRemote reads a create
// (POST) or patch (PATCH) body with the import's checks (validation/bucketing-campaigns.ts) and the API's
// stricter ones, naming the first bad field by its path in the body (`variation_groups[0].name`).
//
// Decisions beyond PROTOCOL.md, each so that a client learns of a mistake instead of having it ignored:
// - Unknown fields are refused at every level (the API is typed); a camelCase spelling of a known field is
//   named as such (`variationGroups` → `variation_groups`).
// - `created_at`, `updated_at` and `compatibility` are read-only and ignored (the times must be strings), so
//   that a campaign read with GET can be edited and sent back whole. `id` is read-only on PATCH: it must match or be left out.
// - `state` on PATCH may only repeat the current state: changing it is the toggle route's job, behind its
//   own action (`campaign.toggle`, §13.2), which `campaign.update` must not bypass.
// - `position` is PATCH only: a new campaign goes last (§13.5).
// - A group's `targeting` is required (a group without one never matches, §7, which is never what a client
//   means); a variation's `reference` defaults to false and its `allocation` to 0, as in the file.
// - `analysis` (§14.6) is read by validation/analysis-settings.ts: stored as given, merged field by field on
//   PATCH, answered with the defaults filled in.
// - Every group, variation and campaign in the result has all its fields (`slug` null, `reference`,
//   `allocation`, `targeting`, `bucketRanges`), so a stored body read back and re-sent is the same body.
import {
  isJsonObject,
  type BucketRange,
  type BucketingCampaign,
  type BucketingVariationGroup,
  type CampaignState,
  type RemoteCampaign,
  type RemoteVariationGroup,
} from 'feature-ts/protocol';
import { newId } from '../ids.js';
import type { CampaignRecord } from '../store/campaign-store.js';
import {
  TEXT_LIMITS,
  badText,
  checkCampaignType,
  checkVariationGroup,
  claimId,
  fail,
  rejectUnknownFields,
  type GroupRules,
} from '../validation/bucketing-campaigns.js';
import { analysisOf, checkAnalysis } from '../validation/analysis-settings.js';

/** Campaign states (§13.5): `paused` and `interrupted` campaigns are left out of decisions. */
export const CAMPAIGN_STATES = [
  'active',
  'paused',
  'interrupted',
] as const satisfies readonly CampaignState[];

/** The fields of a create or patch body; `position` is PATCH only, `created_at`/`updated_at` are ignored. */
export const CAMPAIGN_BODY_FIELDS = [
  'id',
  'name',
  'description',
  'type',
  'slug',
  'state',
  'variation_groups',
  'bucket_ranges',
  'analysis',
  'position',
  'created_at',
  'updated_at',
  'compatibility',
] as const;

/** The largest `position` (the store keeps it in an SQL integer; past the end means last anyway). */
export const MAX_POSITION = 2_147_483_647;

/** At most this many bucket ranges per campaign (§6): a share of 100 percents needs no more. */
export const MAX_BUCKET_RANGES = 100;

/** What a create or patch body becomes: the body to store and the record's fields it sets. */
export interface CampaignInput {
  /** The bucketing-format body, normalised (every field written). */
  campaign: BucketingCampaign;
  description: string;
  /** PATCH only, when given: where to move the campaign (0 is first; past the end is last). */
  position?: number;
  /** POST only, when given: the new campaign's state (the route picks the default). */
  state?: CampaignState;
}

const FULL_TRAFFIC: BucketRange[] = [{ r: [0, 100] }];

const iso = (ms: number): string => new Date(ms).toISOString();

const toRemoteGroup = (group: BucketingVariationGroup): RemoteVariationGroup => ({
  id: group.id,
  name: group.name,
  targeting: {
    targeting_groups: (group.targeting?.targetingGroups ?? []).map((tg) => ({
      targetings: tg.targetings.map((t) => ({ key: t.key, operator: t.operator, value: t.value })),
    })),
  },
  variations: group.variations.map((v) => ({
    id: v.id,
    name: v.name,
    reference: v.reference === true,
    allocation: v.allocation ?? 0,
    modifications: { type: v.modifications.type, value: v.modifications.value },
  })),
});

/** A stored campaign in the remote control API's form (§13.5): snake_case, ISO 8601 UTC times. */
export const toRemoteCampaign = (record: CampaignRecord): RemoteCampaign => ({
  id: record.id,
  name: record.body.name,
  description: record.description,
  type: record.body.type,
  slug: record.body.slug ?? null,
  state: record.state,
  variation_groups: record.body.variationGroups.map(toRemoteGroup),
  bucket_ranges: (record.body.bucketRanges ?? FULL_TRAFFIC).map((range): [number, number] => [
    range.r[0],
    range.r[1],
  ]),
  analysis: analysisOf(record.body),
  created_at: iso(record.createdMs),
  updated_at: iso(record.updatedMs),
});

const text = (value: unknown, path: string, max: number, min = 1): string => {
  const bad = badText(value, max, min);
  if (bad !== null) fail(path, bad);
  return value as string;
};

const checkBucketRanges = (value: unknown): BucketRange[] => {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_BUCKET_RANGES)
    fail('bucket_ranges', `must be a list of 1-${MAX_BUCKET_RANGES} ranges [from, to] (percents of traffic)`);
  return (value as unknown[]).map((range, i): BucketRange => {
    const [from, to] = Array.isArray(range) && range.length === 2 ? (range as unknown[]) : [];
    if (typeof from !== 'number' || typeof to !== 'number' || !(from >= 0 && from < to && to <= 100))
      fail(`bucket_ranges[${i}]`, 'must be [from, to] with 0 ≤ from < to ≤ 100 (to excluded)');
    return { r: [from, to] };
  });
};

const checkState = (value: unknown): CampaignState => {
  if (!(CAMPAIGN_STATES as readonly unknown[]).includes(value))
    fail('state', `must be one of ${CAMPAIGN_STATES.join(', ')}`);
  return value as CampaignState;
};

const checkPosition = (value: unknown): number => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_POSITION)
    fail('position', `must be an integer from 0 (first) to ${MAX_POSITION}; past the end means last`);
  return value;
};

const checkGroups = (value: unknown, ids: Set<string>, rules: GroupRules): BucketingVariationGroup[] => {
  if (!Array.isArray(value) || value.length === 0)
    fail('variation_groups', 'must be a non-empty array of variation groups');
  return (value as unknown[]).map((group, i) =>
    checkVariationGroup(group, `variation_groups[${i}]`, ids, rules),
  );
};

/**
 * Reads a create body (no `existing`) or a patch of `existing` in the remote control API's form; returns the
 * bucketing-format campaign to store with its description, and the state (create) or position (patch) when
 * given. On a patch, fields given replace the stored ones, a list given (`variation_groups`, `bucket_ranges`)
 * replaces the whole list, and fields left out keep their stored value (unchecked: they were accepted
 * before). Ids left out are generated (campaign on create; groups and variations on both); ids given are
 * kept. Throws FieldError (an InputError, for a 400 `invalid_body`) naming the first bad field. Uniqueness
 * in the environment (ids, slug) is the store's to check (409).
 */
export const campaignFromRemote = (body: unknown, existing?: CampaignRecord): CampaignInput => {
  if (!isJsonObject(body)) fail('(body)', 'must be a JSON object (a campaign)');
  rejectUnknownFields(body, CAMPAIGN_BODY_FIELDS, '');
  const has = (field: (typeof CAMPAIGN_BODY_FIELDS)[number]): boolean => Object.hasOwn(body, field);
  const stored = existing?.body;
  const required = <T>(field: string, kept: T | undefined): T =>
    kept === undefined ? fail(field, 'is required') : kept;

  for (const field of ['created_at', 'updated_at'] as const) {
    if (has(field) && typeof body[field] !== 'string')
      fail(field, 'is read-only and ignored, but must be a string when sent');
  }
  const ids = new Set<string>();
  const scope = 'in the campaign';
  let id: string;
  if (existing === undefined) id = claimId(has('id') ? body.id : newId(), 'id', ids, scope);
  else {
    if (has('id') && body.id !== existing.id)
      fail('id', `is read-only: this campaign's id is "${existing.id}" (leave it out or send that)`);
    id = claimId(existing.id, 'id', ids, scope);
  }
  const name = has('name') ? text(body.name, 'name', TEXT_LIMITS.name) : required('name', stored?.name);
  const description = has('description')
    ? text(body.description, 'description', TEXT_LIMITS.description, 0)
    : (existing?.description ?? '');
  const type = has('type') ? checkCampaignType(body.type, 'type') : required('type', stored?.type);
  const slug =
    has('slug') && body.slug !== null
      ? text(body.slug, 'slug', TEXT_LIMITS.slug)
      : has('slug')
        ? null
        : (stored?.slug ?? null);
  const state = has('state') ? checkState(body.state) : undefined;
  if (existing !== undefined && state !== undefined && state !== existing.state)
    fail('state', `is "${existing.state}": change it with PATCH …/campaigns/${existing.id}/toggle`);
  const rules: GroupRules = { targetingGroups: 'targeting_groups', scope, strict: true, newId };
  const variationGroups = has('variation_groups')
    ? checkGroups(body.variation_groups, ids, rules)
    : structuredClone(required('variation_groups', stored?.variationGroups));
  const bucketRanges = has('bucket_ranges')
    ? checkBucketRanges(body.bucket_ranges)
    : structuredClone(stored?.bucketRanges ?? FULL_TRAFFIC);
  const analysis = has('analysis')
    ? checkAnalysis(body.analysis, 'analysis', stored?.analysis)
    : structuredClone(stored?.analysis);
  if (existing === undefined && has('position'))
    fail('position', 'is for PATCH only: a new campaign goes last; move it afterwards');
  const position = has('position') ? checkPosition(body.position) : undefined;

  const result: CampaignInput = {
    campaign: {
      id,
      name,
      type,
      slug,
      bucketRanges,
      variationGroups,
      ...(analysis === undefined ? {} : { analysis }),
    },
    description,
  };
  if (position !== undefined) result.position = position;
  if (existing === undefined && state !== undefined) result.state = state;
  return result;
};

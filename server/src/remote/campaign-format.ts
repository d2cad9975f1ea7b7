// The remote control API's campaign (PROTOCOL.md §13.5): snake_case on the wire, stored as a bucketing-format
// body (§6) plus a CampaignRecord. toRemoteCampaign writes the wire form; campaignFromRemote reads a create
// (POST) or patch (PATCH) body: checked against its schema (campaign-body-schemas.ts, the route's), then by
// the rules that span fields (validation/campaign-rules.ts), naming the first bad field by its path in the
// body (`variation_groups[0].name`).
//
// Decisions beyond PROTOCOL.md, each so that a client learns of a mistake instead of having it ignored:
// - Unknown fields are refused at every level (the API is typed); a camelCase spelling of a known field is
//   named as such (`variationGroups` → `variation_groups`).
// - `created_at`, `updated_at` and `compatibility` are read-only and ignored (the times must be strings), so
//   that a campaign read with GET can be edited and sent back whole. `id` is read-only on PATCH: it must
//   match or be left out.
// - `state` on PATCH may only repeat the current state: changing it is the toggle route's job, behind its
//   own action (`campaign.toggle`, §13.2), which `campaign.update` must not bypass.
// - `position` is PATCH only: a new campaign goes last (§13.5).
// - A group's `targeting` is required (a group without one never matches, §7, which is never what a client
//   means); a variation's `reference` defaults to false and its `allocation` to 0, as in the file.
// - `analysis` (§14.6) is read by validation/analysis-settings.ts: stored as given, merged field by field on
//   PATCH, answered with the defaults filled in.
// - Every group, variation and campaign in the result has all its fields (`slug` null, `reference`,
//   `allocation`, `targeting`, `bucketRanges`), so a stored body read back and re-sent is the same body.
// - On a patch, fields left out keep their stored value unchecked: they were accepted before.
import type {
  BucketRange,
  BucketingCampaign,
  BucketingVariationGroup,
  CampaignState,
  JsonValue,
  RemoteCampaign,
  RemoteVariationGroup,
} from 'feature-ts/protocol';
import { newId } from '../ids.js';
import type { CampaignRecord } from '../store/campaign-store.js';
import { analysisOf, checkAnalysis } from '../validation/analysis-settings.js';
import { checkAllocations, checkFlagTypes, checkTargetSizes, claimId } from '../validation/campaign-rules.js';
import { fail } from '../validation/field-error.js';
import { schemaCheck } from '../validation/schema-check.js';
import { campaignCreateBodySchema, campaignPatchBodySchema } from './campaign-body-schemas.js';

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

/** A variation group as its schema lets it be sent: ids, `reference` and `allocation` optional. */
interface GroupBody {
  id?: string;
  name: string;
  targeting: {
    targeting_groups: Array<{ targetings: Array<{ key: string; operator: string; value: JsonValue }> }>;
  };
  variations: Array<{
    id?: string;
    name: string;
    reference?: boolean;
    allocation?: number;
    modifications: { type: string; value: Record<string, JsonValue> };
  }>;
}

/** A create or patch body as its schema lets it be sent (a patch sends a few fields). */
interface CampaignBody {
  id?: string;
  name?: string;
  description?: string;
  type?: string;
  slug?: string | null;
  state?: CampaignState;
  variation_groups?: GroupBody[];
  bucket_ranges?: Array<[number, number]>;
  analysis?: unknown;
  position?: number;
}

const checkCreate = schemaCheck(campaignCreateBodySchema);
const checkPatch = schemaCheck(campaignPatchBodySchema);

const SCOPE = 'in the campaign';

/** Each range's `from` below its `to`, both percents (the schema says each is a number). */
const bucketRangesOf = (ranges: Array<[number, number]>): BucketRange[] =>
  ranges.map(([from, to], i): BucketRange => {
    if (!(from >= 0 && from < to && to <= 100))
      fail(`bucket_ranges[${i}]`, 'must be [from, to] with 0 ≤ from < to ≤ 100 (to excluded)');
    return { r: [from, to] };
  });

/** One group in the bucketing format, every field written; its ids claimed in `ids`, generated when left out. */
const groupOf = (group: GroupBody, path: string, ids: Set<string>): BucketingVariationGroup => {
  const id = claimId(group.id ?? newId(), `${path}.id`, ids, SCOPE);
  const variations = group.variations.map((v, k) => ({
    id: claimId(v.id ?? newId(), `${path}.variations[${k}].id`, ids, SCOPE),
    name: v.name,
    reference: v.reference === true,
    allocation: v.allocation ?? 0,
    modifications: { type: v.modifications.type, value: v.modifications.value },
  }));
  checkAllocations(variations, `${path}.variations`, true);
  checkFlagTypes(variations, `${path}.variations`);
  const targetingGroups = group.targeting.targeting_groups.map((tg) => ({
    targetings: tg.targetings.map((t) => ({ key: t.key, operator: t.operator, value: t.value })),
  }));
  checkTargetSizes(targetingGroups, `${path}.targeting.targeting_groups`);
  return { id, name: group.name, targeting: { targetingGroups }, variations };
};

/**
 * Reads a create body (no `existing`) or a patch of `existing` in the remote control API's form; returns the
 * bucketing-format campaign to store with its description, and the state (create) or position (patch) when
 * given. On a patch, fields given replace the stored ones, a list given (`variation_groups`, `bucket_ranges`)
 * replaces the whole list, and fields left out keep their stored value. Ids left out are generated (campaign
 * on create; groups and variations on both); ids given are kept. Throws FieldError (an InputError, for a 400
 * `invalid_body`) naming the first bad field. Uniqueness in the environment (ids, slug) is the store's to
 * check (409).
 */
export const campaignFromRemote = (sent: unknown, existing?: CampaignRecord): CampaignInput => {
  (existing === undefined ? checkCreate : checkPatch)(sent);
  // Checked by its schema above; the create schema requires name, type and variation_groups.
  const body = sent as CampaignBody;
  const stored: Partial<BucketingCampaign> = existing?.body ?? {};
  if (existing !== undefined && body.id !== undefined && body.id !== existing.id)
    fail('id', `is read-only: this campaign's id is "${existing.id}" (leave it out or send that)`);
  if (existing !== undefined && body.state !== undefined && body.state !== existing.state)
    fail('state', `is "${existing.state}": change it with PATCH …/campaigns/${existing.id}/toggle`);
  const ids = new Set<string>();
  const id = claimId(existing?.id ?? body.id ?? newId(), 'id', ids, SCOPE);
  const variationGroups =
    body.variation_groups === undefined
      ? structuredClone(stored.variationGroups ?? [])
      : body.variation_groups.map((group, i) => groupOf(group, `variation_groups[${i}]`, ids));
  const bucketRanges =
    body.bucket_ranges === undefined
      ? structuredClone(stored.bucketRanges ?? FULL_TRAFFIC)
      : bucketRangesOf(body.bucket_ranges);
  const analysis = Object.hasOwn(body, 'analysis')
    ? checkAnalysis(body.analysis, 'analysis', stored.analysis)
    : structuredClone(stored.analysis);

  const result: CampaignInput = {
    campaign: {
      id,
      name: body.name ?? stored.name ?? '',
      type: body.type ?? stored.type ?? '',
      slug: body.slug === undefined ? (stored.slug ?? null) : body.slug,
      bucketRanges,
      variationGroups,
      ...(analysis === undefined ? {} : { analysis }),
    },
    description: body.description ?? existing?.description ?? '',
  };
  if (body.position !== undefined) result.position = body.position;
  if (existing === undefined && body.state !== undefined) result.state = body.state;
  return result;
};

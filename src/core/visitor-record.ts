import {
  CACHE_VERSION,
  isJsonObject,
  type AssignmentHistory,
  type CachedCampaign,
  type DecisionCampaign,
  type VisitorCacheRecord,
  type VisitorContext,
} from '../protocol/index.js';

/** The campaigns of a decision as the visitor cache stores them (PROTOCOL.md §10). */
export const toCachedCampaigns = (campaigns: readonly DecisionCampaign[]): CachedCampaign[] =>
  campaigns.map((c) => ({
    campaignId: c.id,
    campaignName: c.name,
    campaignType: c.type,
    slug: c.slug,
    variationGroupId: c.variationGroupId,
    variationGroupName: c.variationGroupName,
    variationId: c.variation.id,
    variationName: c.variation.name,
    isReference: c.variation.reference,
    type: c.variation.modifications.type,
    flags: c.variation.modifications.value,
  }));

/** Back from the cache form to the decision form, so cached flags are built like fetched ones. */
export const fromCachedCampaigns = (campaigns: readonly CachedCampaign[]): DecisionCampaign[] =>
  campaigns.map((c) => ({
    id: c.campaignId,
    name: c.campaignName,
    slug: c.slug,
    type: c.campaignType,
    variationGroupId: c.variationGroupId,
    variationGroupName: c.variationGroupName,
    variation: {
      id: c.variationId,
      name: c.variationName,
      reference: c.isReference,
      modifications: { type: c.type, value: c.flags },
    },
  }));

/** The assignments a decision holds: variation group id → variation id. */
export const assignmentsOf = (campaigns: readonly DecisionCampaign[]): AssignmentHistory =>
  Object.fromEntries(campaigns.map((c) => [c.variationGroupId, c.variation.id]));

/** Builds the record to write (PROTOCOL.md §10). */
export const makeVisitorRecord = (data: VisitorCacheRecord['data']): string =>
  JSON.stringify({ version: CACHE_VERSION, data } satisfies VisitorCacheRecord);

/** A stored campaign with its ids and flags; the other fields are checked one by one below. */
type StoredCampaign = Record<string, unknown> &
  Pick<CachedCampaign, 'campaignId' | 'variationGroupId' | 'variationId' | 'flags'>;

const isCachedCampaign = (c: unknown): c is StoredCampaign =>
  isJsonObject(c) &&
  typeof c.campaignId === 'string' &&
  typeof c.variationGroupId === 'string' &&
  typeof c.variationId === 'string' &&
  isJsonObject(c.flags);

const isHistory = (h: unknown): h is AssignmentHistory =>
  isJsonObject(h) && Object.values(h).every((v) => typeof v === 'string');

/**
 * The record in `json` when it is usable: it parses, has version 1 and is the record of `visitorId`
 * (PROTOCOL.md §10); else null. Missing optional parts are filled so a record from another SDK still reads.
 */
export const parseVisitorRecord = (json: unknown, visitorId: string): VisitorCacheRecord['data'] | null => {
  if (typeof json !== 'string') return null;
  let record: unknown;
  try {
    record = JSON.parse(json);
  } catch {
    return null;
  }
  if (!isJsonObject(record) || record.version !== CACHE_VERSION || !isJsonObject(record.data)) return null;
  const d = record.data;
  if (d.visitorId !== visitorId) return null;
  const campaigns = Array.isArray(d.campaigns) ? d.campaigns : [];
  if (!campaigns.every(isCachedCampaign)) return null;
  return {
    visitorId,
    anonymousId: typeof d.anonymousId === 'string' ? d.anonymousId : null,
    consent: d.consent !== false,
    context: (isJsonObject(d.context) ? d.context : {}) as VisitorContext,
    campaigns: campaigns.map((c) => ({
      campaignId: c.campaignId,
      variationGroupId: c.variationGroupId,
      variationId: c.variationId,
      flags: c.flags,
      campaignName: typeof c.campaignName === 'string' ? c.campaignName : '',
      campaignType: typeof c.campaignType === 'string' ? c.campaignType : '',
      slug: typeof c.slug === 'string' ? c.slug : null,
      variationGroupName: typeof c.variationGroupName === 'string' ? c.variationGroupName : '',
      variationName: typeof c.variationName === 'string' ? c.variationName : '',
      isReference: c.isReference === true,
      type: typeof c.type === 'string' ? c.type : 'FLAG',
    })),
    assignmentsHistory: isHistory(d.assignmentsHistory) ? d.assignmentsHistory : {},
    fetchedAt: typeof d.fetchedAt === 'number' ? d.fetchedAt : 0,
  };
};

/** A record for the anonymous id that carries only an assignment history (PROTOCOL.md §10, XPC). */
export const historyOnlyRecord = (
  visitorId: string,
  history: AssignmentHistory,
  now: number,
): VisitorCacheRecord['data'] => ({
  visitorId,
  anonymousId: null,
  consent: true,
  context: {},
  campaigns: [],
  assignmentsHistory: history,
  fetchedAt: now,
});

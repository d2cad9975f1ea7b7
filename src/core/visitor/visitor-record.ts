import {
  CACHE_VERSION,
  isJsonObject,
  type AssignmentHistory,
  type CachedCampaign,
  type DecisionCampaign,
  type VisitorCacheRecord,
  type VisitorContext,
} from '../../protocol/index.js';
import { readSent, storedSent, type HeldSent } from './repeat-memory.js';

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

/** The assignments a decision holds (variation group id → variation id), then those of `extra` over them. */
export const assignmentsOf = (
  campaigns: readonly DecisionCampaign[],
  extra: Readonly<AssignmentHistory> = {},
): AssignmentHistory => {
  // No prototype: a variation group id such as `__proto__` is then only a key.
  const history = Object.create(null) as AssignmentHistory;
  for (const c of campaigns) history[c.variationGroupId] = c.variation.id;
  for (const id in extra) history[id] = extra[id] as string;
  return history;
};

/**
 * A visitor record as a cache that keeps it in process holds it (PROTOCOL.md §10's data, campaigns in the
 * decision's form): no JSON is built to write it, nor parsed to read it. Never changed once handed over.
 */
export interface HeldVisitorRecord extends Readonly<Omit<VisitorCacheRecord['data'], 'campaigns' | 'sent'>> {
  readonly campaigns: readonly DecisionCampaign[];
  /**
   * What the id sent (PROTOCOL.md §5.1 Repeats), a sent context kept as the context itself: a returning
   * visitor whose context did not change compares it key by key, and nothing hashes it unless the record is
   * written as JSON text.
   */
  readonly sent?: Readonly<HeldSent>;
  /**
   * What the decision source decided `campaigns` on (bucketing mode: the file in use), so a returning visitor
   * with the same context and history is given them again without deciding anew. Not part of the JSON.
   */
  readonly decidedOn?: object;
}

/**
 * A visitor cache that takes and gives records as objects beside its JSON interface (`ProcessVisitorCache`,
 * Node's default). Duck-typed, so the browser bundle carries no class for it.
 */
export interface VisitorRecordHolder {
  holdRecord(visitorId: string, record: HeldVisitorRecord): void;
  /** The record as objects, the JSON text an application stored itself, or null. */
  heldRecord(visitorId: string): HeldVisitorRecord | string | null;
}

/** True when `cache` holds records as objects. */
export const holdsRecords = (cache: object): cache is VisitorRecordHolder =>
  typeof (cache as Partial<VisitorRecordHolder>).holdRecord === 'function' &&
  typeof (cache as Partial<VisitorRecordHolder>).heldRecord === 'function';

/** The JSON text of a held record (PROTOCOL.md §10), for application code that looks it up itself. */
export const heldRecordJson = (record: HeldVisitorRecord): string => {
  // Every field of §10's data, named: what else the SDK holds with it (the decision's basis) is not the record's.
  const { visitorId, anonymousId, consent, context, assignmentsHistory, fetchedAt } = record;
  return makeVisitorRecord({
    visitorId,
    anonymousId,
    consent,
    context,
    campaigns: toCachedCampaigns(record.campaigns),
    assignmentsHistory,
    fetchedAt,
    ...withSent(storedSent(record.sent)),
  });
};

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
    // Absent from older records and other SDKs' (nothing sent): left out rather than undefined, so such a
    // record reads back as it was written.
    ...withSent(readSent(d.sent)),
  };
};

/** `{sent}` when there is something sent, else nothing: spread into a record. */
export const withSent = <S extends Readonly<HeldSent>>(sent: S | undefined): { sent?: S } =>
  sent === undefined ? {} : { sent };

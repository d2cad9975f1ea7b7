import type { VisitorContext } from './decision.js';
import type { JsonValue } from './json.js';

/** The version of both cache record formats. */
export const CACHE_VERSION = 1;

/** One campaign as stored in the visitor cache (PROTOCOL.md §10). */
export interface CachedCampaign {
  campaignId: string;
  campaignName: string;
  campaignType: string;
  slug: string | null;
  variationGroupId: string;
  variationGroupName: string;
  variationId: string;
  variationName: string;
  isReference: boolean;
  type: string;
  flags: Record<string, JsonValue>;
}

/** An assignment history: variation group id → variation id (PROTOCOL.md §8.4). */
export type AssignmentHistory = Record<string, string>;

/** A value the SDK sent for a visitor id and when (epoch ms): `[value, at]` (PROTOCOL.md §10 `sent`). */
export type SentMark<T> = readonly [value: T, at: number];

/**
 * What a visitor id last sent that the SDK does not repeat within 30 minutes (PROTOCOL.md §5.1 Repeats): the
 * consent value of its last `fs_consent` event, and the digest of the context of its last SEGMENT hit.
 */
export interface VisitorSent {
  consent?: SentMark<boolean>;
  context?: SentMark<string>;
}

/** The visitor cache record: the JSON text of `cacheVisitor` / `lookupVisitor` (PROTOCOL.md §10). */
export interface VisitorCacheRecord {
  version: typeof CACHE_VERSION;
  data: {
    visitorId: string;
    anonymousId: string | null;
    consent: boolean;
    context: VisitorContext;
    campaigns: CachedCampaign[];
    assignmentsHistory: AssignmentHistory;
    fetchedAt: number;
    /** Optional: what this id sent, and when (§5.1 Repeats); absent reads as nothing sent. */
    sent?: VisitorSent;
  };
}

/** Hit cache record types (PROTOCOL.md §11). */
export type CachedHitType =
  'SCREENVIEW' | 'PAGEVIEW' | 'TRANSACTION' | 'ITEM' | 'EVENT' | 'SEGMENT' | 'ACTIVATE';

/** One hit or activation as stored in the hit cache (PROTOCOL.md §11). */
export interface HitCacheRecord {
  version: typeof CACHE_VERSION;
  data: {
    visitorId: string;
    anonymousId: string | null;
    type: CachedHitType;
    /** Epoch ms when the record was written. */
    time: number;
    /** SDK-side field names of SPEC.md, plus `hid` and `createdAt`. */
    content: { hid: string; createdAt: number } & Record<string, JsonValue>;
  };
}

/**
 * The visitor cache (SPEC.md `IVisitorCacheImplementation`). A method may return a promise; the SDK awaits
 * it. One that throws or rejects is logged once and treated as a miss.
 */
export interface IVisitorCacheImplementation {
  /** Upserts the visitor's data, after each successful fetch while consent is true. */
  cacheVisitor(visitorId: string, json: string): void | Promise<void>;
  /** Returns the JSON text stored for the visitor, or null when there is none. */
  lookupVisitor(visitorId: string): Promise<string | null>;
  /** Erases the visitor's data; called every time consent is set to false. */
  flushVisitor(visitorId: string): void | Promise<void>;
}

/** The hit cache (SPEC.md `IHitCacheImplementation`). */
export interface IHitCacheImplementation {
  /** Stores hits: unique hit id → record. */
  cacheHits(hits: Record<string, HitCacheRecord>): void | Promise<void>;
  /** Loads every stored record; one map per stored batch. */
  lookupHits(): Promise<Array<Record<string, HitCacheRecord>>>;
  /** Erases the given hits. */
  flushHits(hitIds: string[]): void | Promise<void>;
  /** Erases every hit. */
  flushAllHits(): void | Promise<void>;
}

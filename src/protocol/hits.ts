/** Wire hit types (PROTOCOL.md §5.1). */
export const HIT_TYPES = ['SCREENVIEW', 'PAGEVIEW', 'TRANSACTION', 'ITEM', 'EVENT', 'SEGMENT'] as const;

/** A wire hit type. */
export type HitType = (typeof HIT_TYPES)[number];

/** The wire value of an event category (SDK `Action_Tracking` → `"Action Tracking"`). */
export const EVENT_CATEGORIES = ['Action Tracking', 'User Engagement'] as const;

/** A wire event category. */
export type WireEventCategory = (typeof EVENT_CATEGORIES)[number];

/** Keys every hit carries (PROTOCOL.md §5.1). */
export interface WireHitBase {
  t: HitType;
  /** The anonymous id when authenticated, else the visitor id. */
  vid: string;
  /** The authenticated id, else null. */
  cuid: string | null;
  qt: number;
  hid?: string;
  cid?: string;
  ds?: string;
  uip?: string;
  sr?: string;
  ul?: string;
  /** Session number; the platform's SDK sends it as a string of digits, which the server accepts too. */
  sn?: number;
}

/** Screen hit. */
export interface WireScreenHit extends WireHitBase {
  t: 'SCREENVIEW';
  dl: string;
}

/** Page hit: `dl` is an absolute http(s) URL, or a path starting with `/` (as the platform's SDK sends). */
export interface WirePageHit extends WireHitBase {
  t: 'PAGEVIEW';
  dl: string;
}

/** Transaction hit. */
export interface WireTransactionHit extends WireHitBase {
  t: 'TRANSACTION';
  tid: string;
  ta: string;
  tr?: number;
  ts?: number;
  sm?: string;
  tt?: number;
  tc?: string;
  pm?: string;
  icn?: number;
  tcc?: string;
}

/** Item hit. */
export interface WireItemHit extends WireHitBase {
  t: 'ITEM';
  tid: string;
  in: string;
  ic: string;
  ip?: number;
  iv?: string;
  iq?: number;
}

/** Event hit. */
export interface WireEventHit extends WireHitBase {
  t: 'EVENT';
  ec: WireEventCategory;
  ea: string;
  el?: string;
  ev?: number;
}

/** Segment hit: the visitor context, values stringified. */
export interface WireSegmentHit extends WireHitBase {
  t: 'SEGMENT';
  s: Record<string, string>;
}

/** Any wire hit. */
export type WireHit =
  WireScreenHit | WirePageHit | WireTransactionHit | WireItemHit | WireEventHit | WireSegmentHit;

/** The batch form of `POST /events` (PROTOCOL.md §5). */
export interface HitBatch {
  cid: string;
  ds: 'APP';
  t: 'BATCH';
  qt?: number;
  h: WireHit[];
}

/** The most hits of one request the server processes (§5.2); the SDK never sends more in one request. */
export const MAX_HITS_PER_BATCH = 1000;

/** Limits on hits (PROTOCOL.md §5.1, §5.2, §5.3). */
export const HIT_LIMITS = {
  maxStringLength: 500,
  maxLocationLength: 2048,
  /** `qt` is an integer from 0 to one day, in ms. */
  maxQueueTimeMs: 86_400_000,
  /** Money fields (`tr`, `ts`, `tt`, `ip`) go from 0 to 10^12, so no sum of them can overflow a report. */
  maxAmount: 1e12,
  /** The most hits of one request the server processes; the rest are rejected by index. */
  maxHitsPerBatch: MAX_HITS_PER_BATCH,
  maxBatchBytes: 2 * 1024 * 1024,
  maxBeaconBytes: 60 * 1024,
  maxItemAgeMs: 4 * 60 * 60 * 1000,
} as const;

/** The action of the consent event; actions starting with `fs_` are reserved and never goals. */
export const CONSENT_ACTION = 'fs_consent';

/** The prefix of reserved event actions. */
export const RESERVED_ACTION_PREFIX = 'fs_';

/** Developer usage hit, `POST /events/analytics` (PROTOCOL.md §12). */
export interface UsageHit {
  t: 'USAGE';
  cid: string;
  vid: string;
  cv: Record<string, string>;
}

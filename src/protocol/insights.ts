// Answers of the operator's read-only insight routes (PROTOCOL.md §13.8), read by the browser console: an
// environment's live traffic and a campaign report's daily series.

/** An accepted exposure (a stored activation) in the live traffic answer. */
export interface TrafficExposure {
  kind: 'activation';
  /** The activation's sequence number in its environment: what the cursor's `activation` counts. */
  seq: number;
  received_at: string;
  /** Received time − qt (§14.4). */
  created_at: string;
  /** `vid`. */
  visitor_id: string;
  /** `aid`. */
  anonymous_id: string | null;
  campaign_id: string;
  /** `caid`. */
  variation_group_id: string;
  /** `vaid`. */
  variation_id: string;
  /** The idempotency id, when sent. */
  hid: string | null;
}

/** An accepted hit in the live traffic answer. */
export interface TrafficHit {
  kind: 'hit';
  /** The hit's sequence number in its environment: what the cursor's `hit` counts. */
  seq: number;
  received_at: string;
  /** Received time − qt (§14.4). */
  created_at: string;
  /** `t`: EVENT, TRANSACTION, PAGEVIEW, … */
  type: string;
  /** `vid`. */
  visitor_id: string;
  /** `cuid`. */
  customer_id: string | null;
  /** The EVENT action or TRANSACTION affiliation (§14.3). */
  goal: string | null;
  /** A TRANSACTION's `tr`. */
  revenue: number | null;
  /** The idempotency id, when sent. */
  hid: string | null;
  /** The hit as stored. */
  body: Record<string, unknown>;
}

/** One row of live traffic: an exposure or a hit. */
export type TrafficEntry = TrafficExposure | TrafficHit;

/** The highest seq of each kind: passed back (`after_activation`, `after_hit`) to get only newer rows. */
export interface TrafficCursor {
  activation: number;
  hit: number;
}

/** The answer of GET /admin/v1/environments/{envId}/traffic: the newest rows first, and the next cursor. */
export interface TrafficAnswer {
  items: TrafficEntry[];
  cursor: TrafficCursor;
}

/** One variation's daily series: one number per day of `DailySeries.days`. */
export interface VariationDailySeries {
  id: string;
  name: string;
  reference: boolean;
  /** Visits (§14.1) per day of the exposure's created time. */
  visits: number[];
  /** Event goal → conversions (§14.4) per day of the hit's created time. */
  conversions: Record<string, number[]>;
  /** Transaction goal → conversions per day: apart from events, as in §14.5, so a name may be both. */
  transactions: Record<string, number[]>;
}

/** A campaign's daily series: the answer of GET /admin/v1/environments/{envId}/reports/{campaignId}/days. */
export interface DailySeries {
  campaign_id: string;
  /** UTC days (YYYY-MM-DD), oldest first: from the first exposure's day to today, at most 90. */
  days: string[];
  variation_groups: Array<{ id: string; variations: VariationDailySeries[] }>;
}

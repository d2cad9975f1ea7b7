// What the collect routes store (activations §4, hits §5, usage §12), and the operator's live view of it.
// The two inserts are the ingest seam of docs/scaling.md.

/** An activation to store (§4), already validated. */
export interface ActivationRow {
  hid: string | null;
  visitorId: string;
  anonymousId: string | null;
  campaignId: string;
  variationGroupId: string;
  variationId: string;
  createdMs: number;
  receivedMs: number;
}

/** A hit to store (§5), already validated. */
export interface HitRow {
  hid: string | null;
  type: string;
  visitorId: string;
  customerId: string | null;
  goal: string | null;
  revenue: number | null;
  createdMs: number;
  receivedMs: number;
  body: Record<string, unknown>;
}

/** What the operator's live traffic view asks for: the newest rows past a cursor, of one visitor or all. */
export interface TrafficQuery {
  /** Only activations with a higher seq (0: any). */
  afterActivation: number;
  /** Only hits with a higher seq (0: any). */
  afterHit: number;
  /** Only rows of this id: an activation's vid or aid, a hit's vid or cuid; null: every row. */
  visitor: string | null;
  /** At most this many rows, both kinds together. */
  limit: number;
}

/** One row of the live traffic view: an accepted activation or hit as stored, with its seq. */
export type TrafficItem =
  ({ kind: 'activation'; seq: number } & ActivationRow) | ({ kind: 'hit'; seq: number } & HitRow);

/** A page of live traffic, newest first by received time, with the cursor of the next poll. */
export interface TrafficPage {
  items: TrafficItem[];
  /** Per table, the highest seq of the environment when the page was read, or the query's after when higher. */
  cursor: { activation: number; hit: number };
}

/** The store's collected activations, hits and usage counts. */
export interface CollectStore {
  // The ingest seam (docs/scaling.md): every accepted activation and hit enters the store through the two
  // methods below, and a route answers once they resolve (§5.2: durable before the answer). Today they write
  // PostgreSQL (group-commit.ts, collect-sql.ts) with the rows' pending marks for the report rollups. A
  // replicated log (NATS JetStream) goes here: resolve once the log holds the rows, and let a consumer store
  // them with the same statements. A redelivered row with an idempotency id is skipped as today; one without
  // needs the log's own deduplication (JetStream's Nats-Msg-Id).
  /** Stores activations, skipping known idempotency ids; returns how many were stored. Durable on return. */
  insertActivations(envId: string, rows: readonly ActivationRow[]): Promise<number>;
  /** Stores hits, skipping known idempotency ids; returns how many were stored. Durable on return. */
  insertHits(envId: string, rows: readonly HitRow[]): Promise<number>;
  /** Stored hits per hit type, for operators and tests. */
  countHits(envId: string): Promise<Record<string, number>>;
  /** Counts one developer-usage hit (§12). */
  countUsage(envId: string, sdkName: string, sdkVersion: string, day: string): Promise<void>;
  usageCounts(
    envId: string,
  ): Promise<Array<{ sdkName: string; sdkVersion: string; day: string; count: number }>>;
  /** The environment's newest activations and hits past a cursor, merged newest first (operator routes). */
  traffic(envId: string, query: TrafficQuery): Promise<TrafficPage>;
}

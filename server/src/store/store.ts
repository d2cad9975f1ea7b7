// The store: everything the server keeps, behind one interface with two implementations over the same
// SQL (PGlite embedded, PostgreSQL through pg). Routes and the CLI only see this interface.
import type { AccountSettings, Action, AssignmentHistory, BucketingCampaign } from 'feature-ts/protocol';
import type { ListenInterruption } from './sql/sql.js';
import type { RetentionOutcome } from './sql/retention-sql.js';
import type { CampaignRollups } from './rollups/rollups-sql.js';

/** An account (PROTOCOL.md §13.1). */
export interface Account {
  id: string;
  name: string;
  createdMs: number;
}

/** An environment as stored: the API key only as its SHA-256 digest. */
export interface EnvironmentRecord {
  id: string;
  accountId: string;
  name: string;
  apiKeyDigest: Uint8Array;
  panic: boolean;
  accountSettings: AccountSettings;
  /** Configuration time in whole epoch seconds: the Last-Modified of §2.5. */
  configTime: number;
}

/** Campaign states (§13.5). */
export type CampaignState = 'active' | 'paused' | 'interrupted';

/** A stored campaign: its bucketing-format body, order, state and tombstone. */
export interface CampaignRecord {
  id: string;
  position: number;
  state: CampaignState;
  description: string;
  body: BucketingCampaign;
  createdMs: number;
  updatedMs: number;
  /** Set when the campaign is deleted; the row stays for reporting. */
  deletedMs: number | null;
}

/**
 * An access of the remote control API (§13.1): who may call it, in which environments, for which actions.
 * The client secret is kept only as its SHA-256 digest.
 */
export interface AccessRecord {
  id: string;
  accountId: string;
  name: string;
  /** Environment ids; empty means every environment of the account, including ones created later. */
  environments: string[];
  actions: Action[];
  clientId: string;
  secretDigest: Uint8Array;
  createdMs: number;
  /** Set once, when the access is revoked; revocation is permanent. */
  revokedMs: number | null;
}

/** A token as stored (§13.3): only its SHA-256 digest, never the token itself. */
export interface TokenRecord {
  digest: Uint8Array;
  accessId: string;
  accountId: string;
  /** The granted scope, in the answer's form: actions, then `env:<id>` or `env:*`. */
  scope: string;
  issuedMs: number;
  /** Null for a token without expiry (still revocable through its access). */
  expiresMs: number | null;
}

/** What a campaign is stored with beside its bucketing-format body. */
export interface CampaignOptions {
  description: string;
  state: CampaignState;
}

/** Which campaign and variation group a variation belongs (or belonged) to. */
export interface VariationOwner {
  variationGroupId: string;
  variationId: string;
  campaignId: string;
}

/** The parts of an environment row that change with every publication (§2.5) or key rotation. */
export interface ConfigurationStamp {
  id: string;
  configTime: number;
  apiKeyDigest: Uint8Array;
}

/** Everything needed to serve one environment: rebuilt in memory on every change. */
export interface EnvironmentConfiguration {
  environment: EnvironmentRecord;
  /** Active, not deleted, in stored order. */
  campaigns: CampaignRecord[];
  /** Every variation the environment ever had, deleted campaigns' included. */
  variations: VariationOwner[];
}

/**
 * A visitor's stored assignments (§8.4): its history `{variationGroupId: variationId}` and when it was last
 * used, one row per visitor (so a decision that allocates dozens of groups reads and writes one row).
 */
export interface VisitorAssignments {
  visitorId: string;
  history: AssignmentHistory;
  lastUsedMs: number;
}

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

/** An activation as the report reads it, with its person resolved (§14.2). */
export interface ReportExposure {
  person: string;
  /** The activation's `vid` and idempotency id: §14.1 counts activations without one once per window. */
  visitorId: string;
  hid: string | null;
  variationGroupId: string;
  variationId: string;
  createdMs: number;
  seq: number;
}

/** A goal hit of an exposed person, as the report reads it. */
export interface ReportConversion {
  person: string;
  kind: 'EVENT' | 'TRANSACTION';
  goal: string;
  revenue: number;
  createdMs: number;
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

/** The store's operations. Every write that changes what decisions see publishes a change (§2.5). */
export interface Store {
  /** "pglite" or "postgres", for logs and tests. */
  readonly kind: 'pglite' | 'postgres';
  createAccount(name: string): Promise<Account>;
  getAccount(id: string): Promise<Account | null>;
  /** Every account, oldest first. */
  listAccounts(): Promise<Account[]>;
  findAccountByName(name: string): Promise<Account | null>;
  /** Creates an environment; the API key is returned here once and only its digest is kept. */
  createEnvironment(input: {
    accountId: string;
    name: string;
    accountSettings?: Partial<AccountSettings>;
  }): Promise<{ environment: EnvironmentRecord; apiKey: string }>;
  getEnvironment(id: string): Promise<EnvironmentRecord | null>;
  listEnvironments(accountId: string): Promise<EnvironmentRecord[]>;
  /** Replaces the API key at once (the old one stops working); returns the new key. */
  rotateApiKey(envId: string): Promise<string>;
  setPanic(envId: string, panic: boolean): Promise<void>;
  setAccountSettings(envId: string, settings: Partial<AccountSettings>): Promise<void>;
  /**
   * Replaces the environment's campaigns with `campaigns` in that order (an import, §13.9); campaigns not
   * in the list become tombstones. Throws IdConflictError when an id belongs to another object.
   */
  replaceCampaigns(envId: string, campaigns: BucketingCampaign[]): Promise<number>;
  setCampaignState(envId: string, campaignId: string, state: CampaignState): Promise<void>;
  listCampaigns(envId: string, options?: { includeDeleted?: boolean }): Promise<CampaignRecord[]>;
  /** A campaign that is not deleted; null when unknown or deleted. */
  getCampaign(envId: string, campaignId: string): Promise<CampaignRecord | null>;
  /**
   * Adds a campaign after the others (§13.5). Throws IdConflictError when its id, a group's or a variation's
   * id belongs to another object of the environment (deleted campaigns included), or its slug is taken.
   */
  createCampaign(
    envId: string,
    campaign: BucketingCampaign,
    options: CampaignOptions,
  ): Promise<CampaignRecord>;
  /**
   * Replaces a campaign's body and description, keeping its state; with `position`, moves it there (0 is
   * first; past the end is last). Same conflicts as createCampaign; InputError when the campaign is unknown.
   */
  updateCampaign(
    envId: string,
    campaignId: string,
    campaign: BucketingCampaign,
    options: { description: string; position?: number },
  ): Promise<CampaignRecord>;
  /** Deletes a campaign (a tombstone, kept for reports); false when unknown or already deleted. */
  deleteCampaign(envId: string, campaignId: string): Promise<boolean>;
  /** Creates an access; the caller made the client id and the secret's digest. */
  createAccess(input: Omit<AccessRecord, 'id' | 'createdMs' | 'revokedMs'>): Promise<AccessRecord>;
  /** The accounts's accesses, revoked ones included, oldest first. */
  listAccesses(accountId: string): Promise<AccessRecord[]>;
  getAccess(id: string): Promise<AccessRecord | null>;
  findAccessByClientId(clientId: string): Promise<AccessRecord | null>;
  /** Revokes an access (its tokens stop at their next use); the record, or null when unknown. */
  revokeAccess(id: string): Promise<AccessRecord | null>;
  insertToken(token: TokenRecord): Promise<void>;
  /** The token with this digest and its access, or null when unknown. */
  findToken(digest: Uint8Array): Promise<{ token: TokenRecord; access: AccessRecord } | null>;
  /** Deletes tokens that expired before `beforeMs`; returns how many. */
  purgeExpiredTokens(beforeMs: number): Promise<number>;
  /**
   * Stores a console session by the digest of its id, with the digest of the operator key that opened it
   * (auth/console-sessions.ts).
   */
  createConsoleSession(
    digest: Uint8Array,
    keyDigest: Uint8Array,
    createdMs: number,
    expiresMs: number,
  ): Promise<void>;
  /** The console session of a digest while it lasts (keyDigest null: a row of before migration 7), else null. */
  findConsoleSession(
    digest: Uint8Array,
    nowMs: number,
  ): Promise<{ expiresMs: number; keyDigest: Uint8Array | null } | null>;
  /** Ends a console session; false when there was none. */
  endConsoleSession(digest: Uint8Array): Promise<boolean>;
  /**
   * Ends every console session and deletes every unused sign-in link, at once: no link that a session makes
   * or uses meanwhile outlives it. Returns how many sessions ended.
   */
  endAllConsoleSessions(): Promise<number>;
  /** Stores a one-time console sign-in link by its digest, with the digest of the operator key it is bound to. */
  createSignInLink(digest: Uint8Array, keyDigest: Uint8Array, expiresMs: number): Promise<void>;
  /**
   * Stores a sign-in link that a console session makes, bound to the session's operator key, in the same
   * statement that finds the session live at `nowMs`; false (nothing stored) when it has ended.
   */
  createSessionSignInLink(
    digest: Uint8Array,
    sessionDigest: Uint8Array,
    expiresMs: number,
    nowMs: number,
  ): Promise<boolean>;
  /**
   * Uses a sign-in link and, in the same statement, opens the session `sessionDigest` bound to the link's
   * operator key: that key digest when the link was live at `createdMs`, else null (nothing opened). The link
   * is gone after the first call either way.
   */
  openConsoleSessionWithLink(
    linkDigest: Uint8Array,
    sessionDigest: Uint8Array,
    createdMs: number,
    expiresMs: number,
  ): Promise<{ keyDigest: Uint8Array } | null>;
  /** Deletes console sessions and links that ended by `beforeMs`; returns how many. */
  purgeConsoleSessions(beforeMs: number): Promise<number>;
  /** What the in-memory configuration of an environment is built from; null for an unknown one. */
  loadConfiguration(envId: string): Promise<EnvironmentConfiguration | null>;
  /**
   * Subscribes to configuration changes of any environment (from any process on the same database).
   * Changes made while the subscription is interrupted are not reported: `onInterruption` hears of the break.
   */
  onConfigurationChange(
    listener: (envId: string) => void,
    onInterruption?: (event: ListenInterruption) => void,
  ): Promise<() => Promise<void>>;
  /** What identifies the served version of each environment: a cheap check for missed notifications. */
  configurationStamps(envIds: readonly string[]): Promise<ConfigurationStamp[]>;
  /** The stored assignments of those of `visitorIds` that have any, one entry per visitor. */
  getAssignments(envId: string, visitorIds: readonly string[]): Promise<VisitorAssignments[]>;
  /**
   * Adds the groups of each history to the visitor's stored one and moves its last use forward; never
   * changes a stored variation (nor, for a visitor listed twice, the first entry's).
   */
  saveAssignments(envId: string, visitors: readonly VisitorAssignments[]): Promise<void>;
  /** Deletes assignments not used since `beforeMs`; returns how many. */
  purgeAssignments(beforeMs: number): Promise<number>;
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
  /** Activations of a campaign, persons resolved (§14.2). */
  reportExposures(envId: string, campaignId: string): Promise<ReportExposure[]>;
  /** Goal hits (EVENT and TRANSACTION, reserved actions excluded) of persons exposed to the campaign. */
  reportConversions(envId: string, campaignId: string): Promise<ReportConversion[]>;
  /**
   * A campaign's report rollups (issue 31) with every row stored before the call folded in: a few cells per
   * variation, goal and day, whatever the history's length.
   */
  campaignRollups(envId: string, campaignId: string): Promise<CampaignRollups>;
  /** The revision of a campaign's rollups, every row stored before the call folded in (the report's ETag). */
  campaignRollupRevision(envId: string, campaignId: string): Promise<number>;
  /** Folds every waiting row of every environment; `onProgress` hears the count folded so far. */
  drainRollups(onProgress?: (folded: number) => void): Promise<number>;
  /** Vacuums and analyzes the rollup tables (after a backfill or a rebuild). */
  tidyRollups(): Promise<void>;
  /** How many stored rows wait to be folded into the rollups. */
  pendingRollupCount(): Promise<number>;
  /** Forgets the rollups and marks every stored row to be folded again (report --rebuild); returns how many. */
  resetRollups(): Promise<number>;
  /**
   * Creates the month partitions of activations and hits for the UTC month of `nowMs` and the next two, if
   * missing (issue 31, time-partitions.ts); returns the names created.
   */
  keepPartitions(nowMs: number): Promise<string[]>;
  /**
   * Folds what is pending, then drops the whole months of activations and hits received before `horizonMs` (a
   * UTC month start) and records it as the horizon (FEATURE_RETENTION_DAYS, retention-sql.ts).
   */
  applyRetention(horizonMs: number): Promise<RetentionOutcome>;
  /** The retention horizon: activations and hits received before it may be gone (0: nothing dropped). */
  retentionHorizon(): Promise<number>;
  /** The environment's newest activations and hits past a cursor, merged newest first (operator routes). */
  traffic(envId: string, query: TrafficQuery): Promise<TrafficPage>;
  close(): Promise<void>;
}

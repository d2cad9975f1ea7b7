import type {
  AssignmentHistory,
  Decision,
  DecisionCampaign,
  ServiceUrls,
  VisitorContext,
} from '../../protocol/index.js';
import type { FlagsSnapshot } from '../flags/flag-entry.js';
import type { Logger } from '../logger.js';
import type { ServerHint } from '../net/request-failure.js';
import type { CacheMode, FSSdkStatus } from '../status.js';
import type { TrackedHit } from '../tracking/tracker.js';
import type { BucketingFileCache } from './bucketing-file-cache.js';
import type { PollTimers } from './poller.js';
import type { SentContext } from './sent-context.js';

/** Something that can be re-evaluated when the campaigns change (a visitor who fetched before). */
export interface Reevaluable {
  fetchFlags(): Promise<void>;
}

/** What a decision source decides for: the visitor as it was when `fetchFlags` was called. */
export interface DecisionInput {
  /** The current id (the authenticated id after `authenticate`). */
  readonly visitorId: string;
  /** The anonymous id of an authenticated visitor, else null. */
  readonly anonymousId: string | null;
  /** The context to send, `fs_*` keys included. */
  readonly context: Readonly<VisitorContext>;
  readonly hasConsented: boolean;
  /** The visitor's assignment history from the visitor cache, authenticated id first (PROTOCOL.md §8.4). */
  readonly assignments: Readonly<AssignmentHistory>;
  /**
   * The decision the visitor cache record holds, when it was made for this same id, anonymous id, context and
   * history: a source that decided it (`basis` is its own) and still decides on the same basis may give it
   * again instead of deciding anew.
   */
  readonly previous?: PreviousDecision;
}

/** A decision kept with a visitor cache record, and what it was decided on. */
export interface PreviousDecision {
  /** The source's token for what it decided on (bucketing mode: the file in use). */
  readonly basis: object;
  readonly campaigns: readonly DecisionCampaign[];
}

/**
 * The outcome of one decision: a decision (which may be in panic) with the variation groups allocated now,
 * or a failure (PROTOCOL.md §9.4) with its reason for the log. A source never throws.
 */
export type DecisionOutcome =
  | {
      readonly ok: true;
      readonly decision: Decision;
      readonly newAssignments?: AssignmentHistory;
      /** The decision's flags when the source built them itself (bucketing mode: shared across visitors). */
      readonly flags?: FlagsSnapshot;
      /**
       * What the decision was made on, when the source is deterministic over it (bucketing mode: the file in
       * use); kept with the visitor cache record and given back as `previous.basis`.
       */
      readonly basis?: object;
    }
  | { readonly ok: false; readonly reason: string };

/** What a source may tell the SDK instance on its own, between two decisions (bucketing mode). */
export interface DecisionSourceEvents {
  /** The source's panic state changed (a new file with or without `panic`): the SDK status follows. */
  status(status: FSSdkStatus): void;
  /** The campaigns changed (the source re-evaluates the visitors it watches itself, PROTOCOL.md §16.2). */
  changed?(): void;
}

/** What the instance gives a source when it starts. */
export interface DecisionSourceDeps {
  readonly envId: string;
  readonly apiKey: string;
  readonly urls: ServiceUrls;
  /** Decision request timeout in ms (decision-API mode). */
  readonly timeout: number;
  /** Seconds between two bucketing file updates (bucketing mode). */
  readonly pollingIntervals: number;
  readonly logger: Logger;
  readonly events: DecisionSourceEvents;
  /** Where the bucketing file is kept between starts; default IndexedDB in browsers, memory in Node. */
  readonly fileCache?: BucketingFileCache;
  /** How long one bucketing file download may take, in ms; default 10 s or the polling interval if shorter. */
  readonly fileTimeoutMs?: number;
  /** Random numbers in [0, 1) for the retry jitter; default `Math.random`. */
  readonly random?: () => number;
  /** The timers of the polling interval and retry backoff; default the real ones. */
  readonly timers?: PollTimers;
  /** How kept copies are used (PROTOCOL.md §17); bucketing mode applies it to its cached file. Default local-cache-first. */
  readonly cacheMode?: CacheMode;
  /** Whether the live-update stream runs (PROTOCOL.md §17): the decision API then watches visitors who fetched. */
  readonly liveUpdates?: boolean;
  /** Said in a failure message when no server could be reached at the default address (Node: FEATURE_API_URL). */
  readonly serverHint?: ServerHint | null;
}

/**
 * Where decisions come from: the decision API (`decision/api.ts`, one request per decision) or the bucketing
 * file evaluated locally (`decision/bucketing.ts`, loaded with `import()` only in bucketing mode). Both give
 * the decision API's answer shape, so everything after the source is the same in both modes.
 */
export interface DecisionSource {
  /** Decides for one visitor; resolves with a failure rather than rejecting. */
  decide(input: DecisionInput): Promise<DecisionOutcome>;
  /**
   * Present when the source pushes changes (bucketing mode; the decision API with live updates on): it then
   * re-evaluates `visitor`, who fetched, each time the campaigns change, for as long as the application holds it.
   */
  watch?(visitor: Reevaluable): void;
  /**
   * Present when no decision request reaches the server that would store the visitor's context (bucketing
   * mode, PROTOCOL.md §3): the SEGMENT hit a visitor then sends itself, once per changed context.
   */
  contextHit?(context: Readonly<VisitorContext>): TrackedHit;
  /**
   * Present with `contextHit`: the context as the repeat memory keeps it once sent, with the digest that tells
   * it from a stored record's (PROTOCOL.md §5.1 Repeats: a visitor id sends the same context once per 30
   * minutes). It lives with the source that sends the hit, so the first render of decision-API pages carries
   * no hash for it.
   */
  sentContext?(context: Readonly<VisitorContext>): SentContext;
  /**
   * Present when the source builds its decisions' flags itself (bucketing mode: over the file's flag slots):
   * the flags of campaigns a visitor cache record restores, built the same way (a returning visitor's flags
   * cost a tenth of what `buildFlags` costs them, issue 33); undefined when it has no file to build them on.
   */
  flagsOf?(campaigns: readonly DecisionCampaign[]): FlagsSnapshot | undefined;
  /**
   * Present when the source can act on a live-update change (PROTOCOL.md §17): bucketing mode downloads the
   * file now (conditionally), the decision API re-fetches every visitor it watches. Resolves once done.
   */
  refresh?(): Promise<void>;
  /** Stops timers and requests in flight. */
  close(): void;
}

/**
 * Makes a source. `start` awaits it: the bucketing source resolves once its first file is loaded or its first
 * download failed (PROTOCOL.md §16.1).
 */
export type CreateDecisionSource = (deps: DecisionSourceDeps) => DecisionSource | Promise<DecisionSource>;

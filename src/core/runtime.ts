import type { ResolvedFlag } from '../engine/flags.js';
import type { Decision, DecisionCampaign, IVisitorCacheImplementation } from '../protocol/index.js';
import type { DeviceContext } from './context-keys.js';
import type { DecisionSource } from './decision/source.js';
import type { Logger } from './logger.js';
import type { StartOptions } from './start-options.js';
import type { FSSdkStatus } from './status.js';
import type { Tracker } from './tracking/tracker.js';
import type { VisitorCacheLink } from './visitor-cache-link.js';
import type { applyContext } from './visitor-context.js';

/** Something that can be re-evaluated when the campaigns change (a visitor who fetched before). */
export interface Reevaluable {
  fetchFlags(): Promise<void>;
}

/**
 * What one started SDK gives its visitors: one per `start`, closed by `close` (or the next `start`). Visitors
 * keep the runtime they were built with, so a visitor of a closed SDK fails quietly instead of reaching the
 * next run's tracker.
 */
export interface Runtime {
  readonly options_: StartOptions;
  readonly logger_: Logger;
  readonly tracker_: Tracker;
  readonly source_: DecisionSource;
  readonly visitorCache_: IVisitorCacheImplementation;
  /** The visitor cache logic, from the chunk `start` loaded. */
  readonly cacheLink_: typeof VisitorCacheLink;
  /** The context rules, from the chunk `start` loaded. */
  readonly applyContext_: typeof applyContext;
  readonly device_: Readonly<DeviceContext>;
  /** The platform's campaign flags for decisions (`Platform.campaignFlags`), if it has its own. */
  readonly flagsOf_: ((campaign: DecisionCampaign) => readonly ResolvedFlag[]) | undefined;
  /** The SDK status now. */
  status_(): FSSdkStatus;
  /** True once closed. */
  closed_(): boolean;
  /** Experience continuity as last learned from a decision (PROTOCOL.md §8.5); false until known. */
  xpcEnabled_(): boolean;
  /** Applies what a decision says about the SDK: panic (PROTOCOL.md §16.1) and account settings. */
  learn_(decision: Decision): void;
  /** Developer usage tracking for a new visitor (PROTOCOL.md §12). */
  usage_(visitorId: string): void;
}

import type { ResolvedFlag } from '../../engine/flags.js';
import type { Decision, DecisionCampaign, IVisitorCacheImplementation } from '../../protocol/index.js';
import type { DeviceContext } from './context-keys.js';
import type { DecisionSource } from '../decision/source.js';
import type { Logger } from '../logger.js';
import type { StartOptions } from '../start-options.js';
import type { FSSdkStatus } from '../status.js';
import type { Tracker } from '../tracking/tracker.js';
import type { RepeatMemory } from './repeat-memory.js';

/**
 * What one started SDK gives its visitors: one per `start`, closed by `close` (or the next `start`). Visitors
 * keep the runtime they were built with, so a visitor of a closed SDK fails quietly instead of reaching the
 * next run's tracker.
 */
export interface Runtime {
  readonly options: StartOptions;
  readonly logger: Logger;
  readonly tracker: Tracker;
  readonly source: DecisionSource;
  readonly visitorCache: IVisitorCacheImplementation;
  readonly device: Readonly<DeviceContext>;
  /** The platform's campaign flags for decisions (`Platform.campaignFlags`), if it has its own. */
  readonly flagsOf: ((campaign: DecisionCampaign) => readonly ResolvedFlag[]) | undefined;
  /** The SDK status now. */
  status(): FSSdkStatus;
  /** True once closed. */
  closed(): boolean;
  /** Experience continuity as last learned from a decision (PROTOCOL.md §8.5); false until known. */
  xpcEnabled(): boolean;
  /** Applies what a decision says about the SDK: panic (PROTOCOL.md §16.1) and account settings. */
  learn(decision: Decision): void;
  /** What each visitor id sent and when, so it is not sent again within 30 minutes (PROTOCOL.md §5.1). */
  readonly repeats: RepeatMemory;
  /**
   * Makes `close` wait for `work` before closing the tracker: a visitor's creation `fs_consent` event is
   * decided once its cache lookup answers, and a visitor built just before `close` still sends it.
   */
  hold(work: Promise<void>): void;
  /** Developer usage tracking for a new visitor (PROTOCOL.md §12). */
  usage(visitorId: string): void;
}

/**
 * Resolves when `work` settles or after `ms`, whichever comes first: what waits on a visitor cache (a lookup
 * that never answers) waits the SDK's timeout at most.
 */
export const atMost = async (work: Promise<unknown>, ms: number): Promise<void> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    work.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
  ]);
  clearTimeout(timer);
};

import type { ResolvedFlag } from '../../engine/flags.js';
import type {
  DecisionCampaign,
  IHitCacheImplementation,
  IVisitorCacheImplementation,
} from '../../protocol/index.js';
import type { DeviceContext } from '../visitor/context-keys.js';
import type { Logger } from '../logger.js';
import type { ServerHint } from '../net/request-failure.js';
import type { UndeliveredItem } from '../tracking/tracker.js';
import type { BatchCachingStrategy } from '../status.js';

/** Whether the page is shown (browsers): the live-update stream closes while its tab stays hidden. */
export interface Visibility {
  /** True while the page is hidden (`document.visibilityState`). */
  hidden(): boolean;
  /** Calls `changed` on each change of visibility; returns an unregister function. */
  onChange(changed: (hidden: boolean) => void): () => void;
}

/**
 * What differs between browsers and Node (DESIGN.md Runtimes). Each entry binds `Feature` to one platform,
 * so the browser bundle never holds `node:` imports and Node never loads DOM code.
 */
export interface Platform {
  /** The server base URL used when the config names none (PROTOCOL.md, SDK configuration). */
  defaultServerUrl(): string;
  /** The batch strategy SPEC.md recommends for the platform (PROTOCOL.md §5.3). */
  readonly defaultBatchStrategy: BatchCachingStrategy;
  /**
   * The default visitor cache, made once per SDK instance, for environment `envId`: a cache shared by the
   * instances of several environments (nested web components, an env change) would hand one environment's
   * records to another.
   */
  createVisitorCache(logger: Logger, envId: string): IVisitorCacheImplementation;
  /** The default hit cache, made once per SDK instance, for environment `envId` (as the visitor cache). */
  createHitCache(logger: Logger, envId: string): IHitCacheImplementation;
  /**
   * Logs what became of the items `close()` could not deliver, with `defaultCache` true when the hit cache is
   * the platform's own (Node: memory, so they are lost, and the log says how to keep them). Node only: its
   * words cost browsers nothing, and there IndexedDB keeps the items for the next page.
   */
  readonly reportUndelivered?: (
    left: readonly UndeliveredItem[],
    logger: Logger,
    defaultCache: boolean,
  ) => void;
  /**
   * What a failure message says when no server could be reached at `serverUrl`, the platform's default (Node:
   * which variable to set); absent where there is nothing to set (browsers use the page's origin).
   */
  readonly serverHint?: (serverUrl: string) => ServerHint;
  /** The auto-set predefined context keys (PROTOCOL.md §16.5), gathered during `start`. */
  deviceContext(): Promise<DeviceContext>;
  /**
   * One decision-API campaign's flags, shared by visitors given equal campaigns (Node, where a process holds
   * many visitors); without it each visitor gets its own (browsers hold one or two).
   */
  readonly campaignFlags?: (campaign: DecisionCampaign) => readonly ResolvedFlag[];
  /**
   * Registers `close` to run when the process is about to exit with the SDK still started (Node: the event
   * loop ran dry, `beforeExit`), so undelivered hits get their last attempt and the lost ones are reported
   * even when the application never calls `close()`; returns an unregister function. Absent in browsers,
   * where page hide does this.
   */
  readonly onProcessExit?: (close: () => void) => () => void;
  /** Registers a callback for page hide (browsers only); returns an unregister function. */
  readonly onPageHide?: (send: () => void) => () => void;
  /** The page's visibility (browsers only): a live-update stream stays open in Node. */
  readonly visibility?: Visibility;
}

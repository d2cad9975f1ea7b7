import type {
  HitCacheRecord,
  IHitCacheImplementation,
  JsonValue,
  VisitorContext,
} from '../../protocol/index.js';
import type { OnVisitorExposed } from '../flags/exposure.js';
import type { FlagEntry } from '../flags/flag-entry.js';
import type { Logger } from '../logger.js';
import type { ServerHint } from '../net/request-failure.js';
import type { BatchCachingStrategy } from '../status.js';

/** Batching configuration (SPEC.md `TrackingManagerConfig`). */
export interface TrackingManagerConfig {
  /** Seconds between two batches; default 5. */
  batchIntervals?: number;
  /** Items in the pool that trigger a batch; default 10. */
  poolMaxSize?: number;
  /** Cache strategy; default continuous in browsers, periodic in Node (PROTOCOL.md §5.3). */
  batchStrategy?: BatchCachingStrategy;
}

/** Who a tracked item belongs to, as the visitor is when the item is created. */
export interface TrackedVisitor {
  /** The current id (the authenticated id after `authenticate`). */
  visitorId: string;
  /** The anonymous id when authenticated with one, else null. */
  anonymousId: string | null;
  /** Whether the visitor is authenticated (an authenticated visitor without anonymous id sends its id in `vid` and `cuid`). */
  authenticated: boolean;
}

/**
 * A hit handed to the tracker: its cache type and its content with SPEC.md's field names (PROTOCOL.md §11),
 * valid already: checked once by the hit class (`sendHit`), or built valid by the SDK (`fs_consent`, SEGMENT).
 * The tracker adds `hid` and `createdAt`.
 */
export interface TrackedHit {
  type: 'SCREENVIEW' | 'PAGEVIEW' | 'TRANSACTION' | 'ITEM' | 'EVENT' | 'SEGMENT';
  content: Record<string, JsonValue>;
}

/** An exposure to hand to the tracker (sent as an activation, PROTOCOL.md §4). */
export interface TrackedActivation {
  variationGroupId: string;
  variationId: string;
  flagKey: string;
}

/**
 * The one place hits and activations go (DESIGN.md data flow, step 5): validated, pooled, cached per
 * strategy, batched, retried, acknowledged, removed from the cache.
 */
export interface Tracker {
  /**
   * Queues a hit the SDK built itself (the `fs_consent` event, the SEGMENT hit), valid by construction and
   * not checked again; resolves once it is pooled (and cached, with the continuous strategy).
   */
  addHit(visitor: TrackedVisitor, hit: TrackedHit): Promise<void>;
  /**
   * `visitor.sendHit`: queues `hit` when it is a Screen, Page, Transaction, Item or Event that
   * `hit.validate()` accepts (the one check of a hit), else logs why it is not sent. Here rather than in the visitor so the hit classes'
   * code loads with the tracking chunk, not with the entry.
   */
  sendHit(visitor: TrackedVisitor, hit: unknown): Promise<void>;
  /**
   * Queues an activation; resolves once it is pooled. `onAcknowledged` runs when the server has acknowledged
   * it (2xx), never for an activation delivered from the cache in a later page view.
   */
  addActivation(
    visitor: TrackedVisitor,
    activation: TrackedActivation,
    onAcknowledged?: () => void,
  ): Promise<void>;
  /**
   * Reports the exposure of visitor object `owner` to a flag (PROTOCOL.md §4): one activation per visitor
   * object, variation group and variation; the exposure callback fires once per flag key when the server has
   * acknowledged it. Resolves once the activation is queued.
   */
  expose(owner: object, exposure: FlagExposure): Promise<void>;
  /**
   * Drops the visitor's pooled items and their cached copies (consent withdrawn, PROTOCOL.md §5.1), and the
   * exposures of visitor object `owner` not yet acknowledged, so a later read reports them again.
   */
  dropVisitor(visitorId: string, owner?: object): Promise<void>;
  /**
   * Sends everything pooled now and resolves when the attempt has settled. While the wait a failed send set
   * runs (`Retry-After`, else the backoff: PROTOCOL.md §5.3) it sends nothing: the retry timer sends then.
   */
  flush(): Promise<void>;
  /**
   * Stops every timer and listener, then flushes: a server-asked wait of up to 10 s is waited out first; after a
   * longer one nothing is sent. A pass that fails is followed by one more attempt after its wait (same bound).
   * What is left stays in the hit cache for the next start, and the log says how many items that is, or that
   * they are lost when the cache does not outlive the process.
   */
  close(): Promise<void>;
}

/** One exposure to report: who, with which context, to which flag, read with which default. */
export interface FlagExposure {
  readonly visitor: TrackedVisitor;
  /** The context as sent, for the callback's `VisitorExposed`. */
  readonly context: Readonly<VisitorContext>;
  readonly entry: FlagEntry;
  readonly defaultValue: unknown;
}

/** An item `close()` could not deliver, as its report sees it (a pooled item). */
export interface UndeliveredItem {
  readonly record: HitCacheRecord;
  /** Whether its copy is in the hit cache. */
  readonly stored: boolean;
}

/** What the tracker needs from the SDK instance. */
export interface TrackerDeps {
  envId: string;
  apiKey: string;
  /** Base of `POST {D}/activate`. */
  decisionApiUrl: string;
  /** `POST {E}` for hits. */
  eventsUrl: string;
  config: Required<TrackingManagerConfig>;
  hitCache: IHitCacheImplementation;
  /**
   * Says what became of the items `close()` could not deliver (Node: kept in the cache, or lost with Node's
   * memory cache and how to keep them). Absent in browsers, where IndexedDB keeps them for the next page.
   */
  reportUndelivered?: ((left: readonly UndeliveredItem[]) => void) | undefined;
  /** Said in a failure's reason when no server could be reached at the default address (Node: FEATURE_API_URL). */
  serverHint?: ServerHint | null | undefined;
  logger: Logger;
  /** The exposure callback (`withOnVisitorExposed`). */
  onVisitorExposed?: OnVisitorExposed | undefined;
  /** Registers a callback for page hide (browsers); returns an unregister function. Absent in Node. */
  onPageHide?: ((send: () => void) => () => void) | undefined;
}

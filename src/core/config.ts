import type { IHitCacheImplementation, IVisitorCacheImplementation } from '../protocol/index.js';
import type { OnVisitorExposed } from './flags/exposure.js';
import { Level, type LogManager } from './logger.js';
import { CacheMode, Mode, type FSSdkStatus } from './status.js';
import type { TrackingManagerConfig } from './tracking/tracker.js';

// The callback's type lives beside the classes it receives, so the tracking code can name it without
// importing the configuration (which names the tracking configuration: a circle).
export type { OnVisitorExposed } from './flags/exposure.js';

/** A status callback: receives each new SDK status once, in order. */
export type SdkStatusChanged = (newStatus: FSSdkStatus) => void;

/**
 * The SDK's configuration (SPEC.md `FeatureConfig`), made with `ConfigBuilder`. Every field is optional; the
 * defaults are those of SPEC.md, and `start` checks the values and throws with what to change.
 */
export interface FeatureConfig {
  /** Decision mode; default `DECISION_API`. */
  readonly mode?: Mode;
  /** Decision request timeout in ms (decision-API mode only); default 2000. */
  readonly timeout?: number;
  /** Log level; default `Level.ALL`. */
  readonly logLevel?: Level;
  /** Where log lines go; default the console. */
  readonly logManager?: LogManager;
  /** Seconds between two bucketing file updates (bucketing mode only); default 60. */
  readonly bucketingPollingIntervals?: number;
  /** Hit batching. */
  readonly trackingConfig?: TrackingManagerConfig;
  /** True stops developer usage tracking (PROTOCOL.md §12); default false. */
  readonly disableDeveloperUsageTracking?: boolean;
  /** Exposure callback. */
  readonly onVisitorExposed?: OnVisitorExposed;
  /** Status callback (`withStatusListener`). */
  readonly statusListener?: SdkStatusChanged;
  /** Status callback (`onSdkStatusChanged`). */
  readonly onSdkStatusChanged?: SdkStatusChanged;
  /** Custom hit cache; default IndexedDB in browsers, memory in Node. */
  readonly hitCache?: IHitCacheImplementation;
  /** Custom visitor cache; default IndexedDB in browsers, memory in Node. */
  readonly visitorCache?: IVisitorCacheImplementation;
  /** Base URL of the server; default the page's origin in browsers, `FEATURE_API_URL` or the server default in Node. */
  readonly serverUrl?: string;
  /** Decision API base (default `{serverUrl}/v2`). */
  readonly decisionApiUrl?: string;
  /** Bucketing file base (default `{serverUrl}/cdn`). */
  readonly bucketingUrl?: string;
  /** Events base (default `{serverUrl}/events`). */
  readonly eventsUrl?: string;
  /**
   * The clock (epoch ms) for what the SDK does not repeat within 30 minutes (PROTOCOL.md §5.1 Repeats);
   * default `Date.now`. For tests and simulations that move time.
   */
  readonly clock?: () => number;
  /**
   * True follows the environment's changes as they are made (PROTOCOL.md §17: a server-sent event stream, with
   * polling as the fallback in bucketing mode); default false.
   */
  readonly liveUpdates?: boolean;
  /** How a returning visitor's kept flags are used (PROTOCOL.md §17); default `CacheMode.LOCAL_CACHE_FIRST`. */
  readonly cacheMode?: CacheMode;
}

/** SPEC.md's defaults. */
export const DEFAULTS = {
  mode: Mode.DECISION_API,
  timeout: 2000,
  logLevel: Level.ALL,
  bucketingPollingIntervals: 60,
  batchIntervals: 5,
  poolMaxSize: 10,
  liveUpdates: false,
  cacheMode: CacheMode.LOCAL_CACHE_FIRST,
} as const;

/** The methods a visitor cache must have (PROTOCOL.md §10): checked at `start`, called through the SDK. */
export const VISITOR_CACHE_METHODS = ['cacheVisitor', 'lookupVisitor', 'flushVisitor'] as const;

/** The methods a hit cache must have (PROTOCOL.md §10). */
export const HIT_CACHE_METHODS = ['cacheHits', 'lookupHits', 'flushHits', 'flushAllHits'] as const;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Builds a `FeatureConfig` (SPEC.md `ConfigBuilder`); finish with `build()`. */
export class ConfigBuilder {
  private readonly config: Mutable<FeatureConfig> = {};

  private set<K extends keyof FeatureConfig>(k: K, value: FeatureConfig[K]): this {
    this.config[k] = value;
    return this;
  }

  /** Decision mode: `Mode.DECISION_API` (default) or `Mode.BUCKETING`. */
  withMode(mode: Mode): this {
    return this.set('mode', mode);
  }

  /** Called with each new SDK status, once per change. */
  withStatusListener(listener: SdkStatusChanged): this {
    return this.set('statusListener', listener);
  }

  /** Called with each new SDK status, once per change (after the `withStatusListener` one). */
  onSdkStatusChanged(listener: SdkStatusChanged): this {
    return this.set('onSdkStatusChanged', listener);
  }

  /** Milliseconds the decision request may take (decision-API mode); default 2000. */
  withTimeout(timeout: number): this {
    return this.set('timeout', timeout);
  }

  /** Log detail; default `Level.ALL`. */
  withLogLevel(level: Level): this {
    return this.set('logLevel', level);
  }

  /** Routes log lines elsewhere than the console. */
  withLogManager(manager: LogManager): this {
    return this.set('logManager', manager);
  }

  /** Seconds between two bucketing file updates (bucketing mode); default 60. */
  withBucketingPollingIntervals(seconds: number): this {
    return this.set('bucketingPollingIntervals', seconds);
  }

  /** Hit batching: `batchIntervals` (s, default 5), `poolMaxSize` (default 10), `batchStrategy`. */
  withTrackingConfig(config: TrackingManagerConfig): this {
    return this.set('trackingConfig', config);
  }

  /** True stops the collection of SDK usage information; default false. */
  withDisableDeveloperUsageTracking(disabled: boolean): this {
    return this.set('disableDeveloperUsageTracking', disabled);
  }

  /** Called once per flag key when the server acknowledged the visitor's exposure to it. */
  withOnVisitorExposed(callback: OnVisitorExposed): this {
    return this.set('onVisitorExposed', callback);
  }

  /** A custom hit cache. */
  withCacheHitManager(cache: IHitCacheImplementation): this {
    return this.set('hitCache', cache);
  }

  /** A custom visitor cache. */
  withCacheVisitorManager(cache: IVisitorCacheImplementation): this {
    return this.set('visitorCache', cache);
  }

  /** The server's base URL; the decision, bucketing and events URLs derive from it. */
  withServerUrl(url: string): this {
    return this.set('serverUrl', url);
  }

  /** The decision API base alone (default `{serverUrl}/v2`). */
  withDecisionApiUrl(url: string): this {
    return this.set('decisionApiUrl', url);
  }

  /** The bucketing file base alone (default `{serverUrl}/cdn`). */
  withBucketingUrl(url: string): this {
    return this.set('bucketingUrl', url);
  }

  /** The events base alone (default `{serverUrl}/events`). */
  withEventsUrl(url: string): this {
    return this.set('eventsUrl', url);
  }

  /** The clock (epoch ms) for the 30-minute repeats of PROTOCOL.md §5.1; default `Date.now`. For tests. */
  withClock(now: () => number): this {
    return this.set('clock', now);
  }

  /**
   * True follows the environment's changes as they are made (PROTOCOL.md §17): a server-sent event stream
   * re-fetches the visitors who fetched (decision-API mode) or downloads the new bucketing file (bucketing
   * mode, whose polling goes on as the fallback). Default false.
   */
  withLiveUpdates(live: boolean): this {
    return this.set('liveUpdates', live);
  }

  /**
   * How a returning visitor's kept flags are used (PROTOCOL.md §17): `CacheMode.LOCAL_CACHE_FIRST` (default:
   * they render at once), `CacheMode.NETWORK_FIRST` (only when the network fails or times out) or
   * `CacheMode.DISABLED`.
   */
  withCacheMode(mode: CacheMode): this {
    return this.set('cacheMode', mode);
  }

  /** The configuration (a frozen copy: later builder calls do not change it). */
  build(): FeatureConfig {
    return Object.freeze({ ...this.config });
  }
}

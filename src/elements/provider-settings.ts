// What <feature-provider> hands its client (provider-client.ts), read from its attributes: the settings of
// the SDK instance and of the visitor, the events the client sends back, the SDK configuration the SDK
// settings make, and the defaults and names those attributes are read with.
import {
  ConfigBuilder,
  Level,
  type CacheMode,
  type FeatureConfig,
  type FSSdkStatus,
  type Mode,
} from '../core/index.js';
import type { FeatureReadyDetail } from './events.js';

/** The `log-level` names. */
export const LEVELS: Record<string, Level> = {
  none: Level.NONE,
  error: Level.ERROR,
  warning: Level.WARNING,
  info: Level.INFO,
  debug: Level.DEBUG,
  all: Level.ALL,
};

/**
 * Where this module was loaded from, when the server's `/sdk/` folder served it: its origin is then the default
 * server, so a page on any origin (or a file opened from disk) reaches the server that gave it the tags.
 */
export const sdkOrigin = (): string | undefined => {
  try {
    const url = new URL(import.meta.url);
    return url.pathname.includes('/sdk/') && url.protocol.startsWith('http') ? url.origin : undefined;
  } catch {
    return undefined;
  }
};

/** What starts an SDK instance: a change restarts it. */
export interface SdkSettings {
  envId: string;
  apiKey: string;
  /** Server base URL; undefined: the SDK's default (the page's origin). */
  apiUrl: string | undefined;
  mode: Mode;
  /** Decision timeout in ms, also how long flags may show their loading content. */
  timeout: number;
  /** Bucketing file polling in seconds. */
  pollingInterval: number;
  logLevel: Level;
  /** Whether the SDK follows the environment's changes as they are made (PROTOCOL.md §17). */
  liveUpdates: boolean;
  /** How the visitor's kept flags are used (PROTOCOL.md §17, first-flags.ts). */
  cacheMode: CacheMode;
}

/** Who the visitor is: a change updates the visitor (SPEC.md calls), or builds another one. */
export interface VisitorSettings {
  visitorId: string;
  consent: boolean;
  authenticated: boolean;
  context: Readonly<Record<string, string | number | boolean>>;
}

/** What the client tells its element. */
export interface ClientEvents {
  ready(detail: FeatureReadyDetail): void;
  status(status: FSSdkStatus): void;
  failed(message: string): void;
  /** The flags of `keys` changed after the visitor's first fetch. */
  changed(keys: string[]): void;
}

/** The SDK configuration of `sdk`. */
export const sdkConfig = (sdk: SdkSettings): FeatureConfig => {
  const config = new ConfigBuilder()
    .withMode(sdk.mode)
    .withTimeout(sdk.timeout)
    .withLogLevel(sdk.logLevel)
    .withBucketingPollingIntervals(sdk.pollingInterval)
    .withLiveUpdates(sdk.liveUpdates)
    .withCacheMode(sdk.cacheMode);
  return (sdk.apiUrl === undefined ? config : config.withServerUrl(sdk.apiUrl)).build();
};

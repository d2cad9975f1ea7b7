import { serviceUrlsFrom, trimSlashes, type ServiceUrls } from '../protocol/index.js';
import { DEFAULTS, HIT_CACHE_METHODS, VISITOR_CACHE_METHODS, type FeatureConfig } from './config.js';
import { Level } from './logger.js';
import { BatchCachingStrategy, CacheMode, Mode } from './status.js';
import type { TrackingManagerConfig } from './tracking/tracker.js';

/** A configuration `start` accepted, with every default filled in. */
export interface StartOptions {
  envId: string;
  apiKey: string;
  config: FeatureConfig;
  mode: Mode;
  timeout: number;
  logLevel: Level;
  bucketingPollingIntervals: number;
  /** Whether the SDK follows changes over the live-update stream (PROTOCOL.md §17). */
  liveUpdates: boolean;
  cacheMode: CacheMode;
  tracking: Required<TrackingManagerConfig>;
  /** The base URL in use and whether it is the platform's default (logged once at INFO). */
  serverUrl: string;
  urls: ServiceUrls;
}

const fail = (message: string): never => {
  throw new Error(`Feature.start: ${message}`);
};

/** `value` when given and a positive integer, `fallback` when not given; else throws naming `what`. */
const positiveInteger = (value: number | undefined, fallback: number, what: string): number =>
  value === undefined
    ? fallback
    : Number.isInteger(value) && value > 0
      ? value
      : fail(`${what} must be a positive integer, got ${String(value)}.`);

/** `value` when given and one of the values of `allowed`, `fallback` when not given; else throws `message`. */
const oneOf = <T>(value: T | undefined, fallback: T, allowed: object, message: string): T =>
  value === undefined ? fallback : Object.values(allowed).includes(value) ? value : fail(message);

/** `value` without trailing slashes when given and an absolute http(s) URL, `fallback` when not given. */
const httpUrl = (value: unknown, fallback: string, what: string): string => {
  if (value === undefined) return fallback;
  try {
    if (typeof value === 'string' && /^https?:$/.test(new URL(value).protocol)) return trimSlashes(value);
  } catch {
    // not a URL at all: the same message as a wrong protocol
  }
  return fail(`${what} must be an absolute http(s) URL, got ${JSON.stringify(value)}.`);
};

/** Throws `${what} takes …` unless `value` is absent or an object with every method of `methods`. */
const withMethods = (value: unknown, methods: readonly string[], what: string): void => {
  if (
    value !== undefined &&
    !(
      typeof value === 'object' &&
      value !== null &&
      methods.every((m) => typeof (value as Record<string, unknown>)[m] === 'function')
    )
  )
    fail(`${what} takes an object with the methods ${methods.join(', ')}.`);
};

/**
 * Checks what `start` was given and fills in the defaults. Throws an Error whose message says what to change:
 * a wrong configuration must fail loudly at start, never later in a flag read (DESIGN.md Errors).
 */
export const resolveStartOptions = (
  envId: unknown,
  apiKey: unknown,
  config: FeatureConfig | undefined,
  defaultServerUrl: string,
  defaultStrategy: BatchCachingStrategy,
): StartOptions => {
  for (const [value, name, what] of [
    [envId, 'envId', 'environment id'],
    [apiKey, 'apiKey', 'API key'],
  ] as const)
    if (typeof value !== 'string' || value.trim() === '') fail(`${name} is empty: pass the ${what}.`);
  const c: FeatureConfig = config ?? {};
  if (typeof c !== 'object') fail('config must come from ConfigBuilder.build().');
  const t = c.trackingConfig ?? {};
  if (typeof t !== 'object') fail('withTrackingConfig takes a TrackingManagerConfig.');
  for (const name of ['onVisitorExposed', 'statusListener', 'onSdkStatusChanged', 'clock'] as const)
    if (c[name] !== undefined && typeof c[name] !== 'function') fail(`${name} must be a function.`);
  withMethods(c.logManager, ['log'], 'withLogManager');
  withMethods(c.visitorCache, VISITOR_CACHE_METHODS, 'withCacheVisitorManager');
  withMethods(c.hitCache, HIT_CACHE_METHODS, 'withCacheHitManager');
  // The platform's default is checked too: in Node it comes from FEATURE_API_URL.
  const serverUrl = httpUrl(c.serverUrl ?? defaultServerUrl, '', 'withServerUrl');
  const derived = serviceUrlsFrom(serverUrl);
  return {
    envId: envId as string,
    apiKey: apiKey as string,
    config: c,
    mode: oneOf(
      c.mode,
      DEFAULTS.mode,
      Mode,
      `mode ${JSON.stringify(c.mode)} is unknown: use Mode.DECISION_API or Mode.BUCKETING.`,
    ),
    timeout: positiveInteger(c.timeout, DEFAULTS.timeout, 'withTimeout (milliseconds)'),
    logLevel: oneOf(
      c.logLevel,
      DEFAULTS.logLevel,
      Level,
      `withLogLevel ${String(c.logLevel)} is unknown: use a Level.`,
    ),
    bucketingPollingIntervals: positiveInteger(
      c.bucketingPollingIntervals,
      DEFAULTS.bucketingPollingIntervals,
      'withBucketingPollingIntervals (seconds)',
    ),
    liveUpdates:
      c.liveUpdates === undefined
        ? DEFAULTS.liveUpdates
        : typeof c.liveUpdates === 'boolean'
          ? c.liveUpdates
          : fail(`withLiveUpdates takes true or false, got ${JSON.stringify(c.liveUpdates)}.`),
    cacheMode: oneOf(
      c.cacheMode,
      DEFAULTS.cacheMode,
      CacheMode,
      `cacheMode ${JSON.stringify(c.cacheMode)} is unknown: use CacheMode.LOCAL_CACHE_FIRST ("local-cache-first"), CacheMode.NETWORK_FIRST ("network-first") or CacheMode.DISABLED ("disabled").`,
    ),
    tracking: {
      batchIntervals: positiveInteger(
        t.batchIntervals,
        DEFAULTS.batchIntervals,
        'trackingConfig.batchIntervals (seconds)',
      ),
      poolMaxSize: positiveInteger(t.poolMaxSize, DEFAULTS.poolMaxSize, 'trackingConfig.poolMaxSize'),
      batchStrategy: oneOf(
        t.batchStrategy,
        defaultStrategy,
        BatchCachingStrategy,
        `batchStrategy ${JSON.stringify(t.batchStrategy)} is unknown: use a BatchCachingStrategy.`,
      ),
    },
    serverUrl: serverUrl,
    urls: {
      decisionApi: httpUrl(c.decisionApiUrl, derived.decisionApi, 'withDecisionApiUrl'),
      bucketing: httpUrl(c.bucketingUrl, derived.bucketing, 'withBucketingUrl'),
      events: httpUrl(c.eventsUrl, derived.events, 'withEventsUrl'),
    },
  };
};

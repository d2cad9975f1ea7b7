import { serviceUrlsFrom, trimSlashes, type ServiceUrls } from '../protocol/index.js';
import { DEFAULTS, type FeatureConfig } from './config.js';
import { Level } from './logger.js';
import { BatchCachingStrategy, Mode } from './status.js';
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
  tracking: Required<TrackingManagerConfig>;
  /** The base URL in use and whether it is the platform's default (logged once at INFO). */
  serverUrl: string;
  urls: ServiceUrls;
}

const fail = (message: string): never => {
  throw new Error(`Feature.start: ${message}`);
};

const positiveInteger = (value: unknown, what: string): number =>
  typeof value === 'number' && Number.isInteger(value) && value > 0
    ? value
    : fail(`${what} must be a positive integer, got ${String(value)}.`);

const httpUrl = (value: unknown, what: string): string => {
  if (typeof value === 'string') {
    try {
      const url = new URL(value);
      if (url.protocol === 'http:' || url.protocol === 'https:') return trimSlashes(value);
    } catch {
      // reported below with the same message as a wrong protocol
    }
  }
  return fail(`${what} must be an absolute http(s) URL, got ${JSON.stringify(value)}.`);
};

const isFunction = (value: unknown): boolean => typeof value === 'function';

const hasMethods = (value: unknown, names: string[]): boolean =>
  typeof value === 'object' &&
  value !== null &&
  names.every((n) => isFunction((value as Record<string, unknown>)[n]));

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
  if (typeof envId !== 'string' || envId.trim() === '')
    fail('envId is empty: pass the environment id from Settings > API Key & Settings.');
  if (typeof apiKey !== 'string' || apiKey.trim() === '')
    fail('apiKey is empty: pass the API key of the environment from Settings > API Key & Settings.');
  const c: FeatureConfig = config ?? {};
  if (typeof c !== 'object') fail('config must be built with new ConfigBuilder()…build().');
  const modes: unknown[] = Object.values(Mode);
  if (c.mode !== undefined && !modes.includes(c.mode))
    fail(`mode ${JSON.stringify(c.mode)} is unknown: use Mode.DECISION_API or Mode.BUCKETING.`);
  const timeout =
    c.timeout === undefined ? DEFAULTS.timeout : positiveInteger(c.timeout, 'withTimeout (milliseconds)');
  const levels: unknown[] = Object.values(Level);
  if (c.logLevel !== undefined && !levels.includes(c.logLevel))
    fail(`withLogLevel ${String(c.logLevel)} is unknown: use a Level value (Level.ALL … Level.NONE).`);
  const polling =
    c.bucketingPollingIntervals === undefined
      ? DEFAULTS.bucketingPollingIntervals
      : positiveInteger(c.bucketingPollingIntervals, 'withBucketingPollingIntervals (seconds)');
  const t = c.trackingConfig ?? {};
  if (typeof t !== 'object') fail('withTrackingConfig takes { batchIntervals, poolMaxSize, batchStrategy }.');
  const strategies: unknown[] = Object.values(BatchCachingStrategy);
  if (t.batchStrategy !== undefined && !strategies.includes(t.batchStrategy))
    fail(
      `batchStrategy ${JSON.stringify(t.batchStrategy)} is unknown: use BatchCachingStrategy.BATCH_CONTINUOUS_CACHING or BATCH_PERIODIC_CACHING.`,
    );
  const tracking: Required<TrackingManagerConfig> = {
    batchIntervals:
      t.batchIntervals === undefined
        ? DEFAULTS.batchIntervals
        : positiveInteger(t.batchIntervals, 'trackingConfig.batchIntervals (seconds)'),
    poolMaxSize:
      t.poolMaxSize === undefined
        ? DEFAULTS.poolMaxSize
        : positiveInteger(t.poolMaxSize, 'trackingConfig.poolMaxSize'),
    batchStrategy: t.batchStrategy ?? defaultStrategy,
  };
  for (const name of ['onVisitorExposed', 'statusListener', 'onSdkStatusChanged'] as const)
    if (c[name] !== undefined && !isFunction(c[name])) fail(`${name} must be a function.`);
  if (c.logManager !== undefined && !hasMethods(c.logManager, ['log']))
    fail('withLogManager takes an object with a log(level, name, message) method.');
  if (
    c.visitorCache !== undefined &&
    !hasMethods(c.visitorCache, ['cacheVisitor', 'lookupVisitor', 'flushVisitor'])
  )
    fail(
      'withCacheVisitorManager takes an object with cacheVisitor, lookupVisitor and flushVisitor methods.',
    );
  if (
    c.hitCache !== undefined &&
    !hasMethods(c.hitCache, ['cacheHits', 'lookupHits', 'flushHits', 'flushAllHits'])
  )
    fail(
      'withCacheHitManager takes an object with cacheHits, lookupHits, flushHits and flushAllHits methods.',
    );
  const serverUrl = httpUrl(c.serverUrl ?? defaultServerUrl, 'withServerUrl');
  const derived = serviceUrlsFrom(serverUrl);
  const urls: ServiceUrls = {
    decisionApi:
      c.decisionApiUrl === undefined ? derived.decisionApi : httpUrl(c.decisionApiUrl, 'withDecisionApiUrl'),
    bucketing: c.bucketingUrl === undefined ? derived.bucketing : httpUrl(c.bucketingUrl, 'withBucketingUrl'),
    events: c.eventsUrl === undefined ? derived.events : httpUrl(c.eventsUrl, 'withEventsUrl'),
  };
  return {
    envId: envId as string,
    apiKey: apiKey as string,
    config: c,
    mode: c.mode ?? DEFAULTS.mode,
    timeout,
    logLevel: c.logLevel ?? DEFAULTS.logLevel,
    bucketingPollingIntervals: polling,
    tracking,
    serverUrl,
    urls,
  };
};

// What every shared suite needs around the SDK: an instance started against a fresh double with recorded
// logs, statuses and visitor-cache calls, memory caches (so Chromium runs never read IndexedDB state left by
// earlier tests), and the requests the double received, flattened.
import type {
  ConfigBuilder,
  FeatureInstance,
  IHitCacheImplementation,
  IVisitorCacheImplementation,
  LogManager,
} from '../../../src/core/public.js';
import type { CoreHarness, DoubleHandle, DoubleOptions, SharedAssert } from './harness.js';

/** One log line as the SDK wrote it. */
export interface LogLine {
  level: string;
  message: string;
}

/** A visitor cache that records every call, over the SDK's own memory cache. */
export class RecordingVisitorCache implements IVisitorCacheImplementation {
  readonly calls: string[] = [];
  constructor(private readonly inner: IVisitorCacheImplementation) {}
  cacheVisitor(visitorId: string, json: string): Promise<void> {
    this.calls.push(`cacheVisitor ${visitorId}`);
    return Promise.resolve(this.inner.cacheVisitor(visitorId, json));
  }
  lookupVisitor(visitorId: string): Promise<string | null> {
    this.calls.push(`lookupVisitor ${visitorId}`);
    return this.inner.lookupVisitor(visitorId);
  }
  flushVisitor(visitorId: string): Promise<void> {
    this.calls.push(`flushVisitor ${visitorId}`);
    return Promise.resolve(this.inner.flushVisitor(visitorId));
  }
  /** Writes a record as if an earlier page view had cached it (not recorded as a call). */
  seed(visitorId: string, json: string): Promise<void> {
    return Promise.resolve(this.inner.cacheVisitor(visitorId, json));
  }
  /** The stored record, read without recording a call. */
  record(visitorId: string): Promise<string | null> {
    return this.inner.lookupVisitor(visitorId);
  }
}

/** An SDK instance on its own double. */
export interface Session {
  double: DoubleHandle;
  instance: FeatureInstance;
  logs: LogLine[];
  cache: RecordingVisitorCache;
  hitCache: IHitCacheImplementation;
  /** Every status the `withStatusListener` callback received. */
  statuses: string[];
  close: () => Promise<void>;
}

let sessions = 0;

/** An env id no other test of this run uses, so nothing keyed by environment leaks between tests. */
export const freshEnvId = (): string => `env-${Date.now().toString(36)}-${++sessions}`;

/** A log manager that keeps every line. */
export const recordingLogs = (): { lines: LogLine[]; manager: LogManager } => {
  const lines: LogLine[] = [];
  return { lines, manager: { log: (_level, name, message) => lines.push({ level: name, message }) } };
};

/** A session's double script, plus what the test adds to the SDK's configuration. */
export interface SessionOptions extends DoubleOptions {
  configure?: (b: ConfigBuilder) => ConfigBuilder;
}

/** Starts a double and an instance on it: usage tracking off, every log line kept, memory caches. */
export const startSession = async (h: CoreHarness, options: SessionOptions = {}): Promise<Session> => {
  const { configure = (b: ConfigBuilder) => b, ...script } = options;
  const double = await h.startDouble({ envId: freshEnvId(), ...script });
  const logs = recordingLogs();
  const cache = new RecordingVisitorCache(new h.sdk.MemoryVisitorCache());
  const hitCache = new h.sdk.MemoryHitCache();
  const statuses: string[] = [];
  const instance = new h.sdk.FeatureInstance();
  await instance.start(
    double.envId,
    double.apiKey,
    configure(
      new h.sdk.ConfigBuilder()
        .withServerUrl(double.url)
        .withLogManager(logs.manager)
        .withLogLevel(h.sdk.Level.ALL)
        .withDisableDeveloperUsageTracking(true)
        .withCacheVisitorManager(cache)
        .withCacheHitManager(hitCache)
        .withStatusListener((s) => statuses.push(s)),
    ).build(),
  );
  return {
    double,
    instance,
    logs: logs.lines,
    cache,
    hitCache,
    statuses,
    close: async () => {
      await instance.close();
      await double.stop();
    },
  };
};

/** Runs `body` on a fresh session and always closes it, so a failed assertion leaves no server or timer. */
export const withSession = async (
  h: CoreHarness,
  options: SessionOptions,
  body: (s: Session) => Promise<void> | void,
): Promise<void> => {
  const session = await startSession(h, options);
  try {
    await body(session);
  } finally {
    await session.close();
  }
};

/** Decision request bodies the double received. */
export const decisionBodies = async (double: DoubleHandle): Promise<Array<Record<string, unknown>>> =>
  (await double.requests('decision')).map((r) => r.body as Record<string, unknown>);

/** Every hit the double received, flattened from the batches. */
export const hitsReceived = async (double: DoubleHandle): Promise<Array<Record<string, unknown>>> =>
  (await double.requests('events')).flatMap(
    (r) => (r.body as { h?: Array<Record<string, unknown>> }).h ?? [],
  );

/** Every activation item the double received. */
export const activationsReceived = async (double: DoubleHandle): Promise<Array<Record<string, unknown>>> =>
  (await double.requests('activate')).flatMap(
    (r) => (r.body as { batch?: Array<Record<string, unknown>> }).batch ?? [],
  );

/** Asserts that `fn` throws an error whose message matches. */
export const assertThrows = (assert: SharedAssert, fn: () => unknown, pattern: RegExp): void => {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof Error, `expected an error matching ${String(pattern)}`);
  assert.match((error as Error).message, pattern);
};

/** Asserts that `promise` rejects with an error whose message matches. */
export const assertRejects = async (
  assert: SharedAssert,
  promise: Promise<unknown>,
  pattern: RegExp,
): Promise<void> => {
  let error: unknown;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof Error, `expected a rejection matching ${String(pattern)}`);
  assert.match((error as Error).message, pattern);
};

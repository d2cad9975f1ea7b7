// Shared helpers of the core tests: decisions in PROTOCOL.md §3's shape, a recording log manager and visitor
// cache, an SDK started against a protocol double, and a bounded wait.
import { ConfigBuilder, FeatureInstance, Level, type LogManager } from '../../src/core/node.js';
import { nodePlatform } from '../../src/core/platform/node.js';
import { startProtocolDouble, type DoubleScript, type ProtocolDouble } from '../support/protocol-double.js';

// The decision builders live beside the shared suites (pure data, loadable in Chromium too).
export { campaign, decision } from './shared/decisions.js';

/** A log manager that keeps every line. */
export const recordingLogs = (): {
  lines: Array<{ level: string; message: string }>;
  manager: LogManager;
} => {
  const lines: Array<{ level: string; message: string }> = [];
  return { lines, manager: { log: (_level, name, message) => lines.push({ level: name, message }) } };
};

/** A visitor cache in memory that records every call. */
export class RecordingVisitorCache {
  readonly records = new Map<string, string>();
  readonly calls: string[] = [];
  cacheVisitor(visitorId: string, json: string): void {
    this.calls.push(`cacheVisitor ${visitorId}`);
    this.records.set(visitorId, json);
  }
  lookupVisitor(visitorId: string): Promise<string | null> {
    this.calls.push(`lookupVisitor ${visitorId}`);
    return Promise.resolve(this.records.get(visitorId) ?? null);
  }
  flushVisitor(visitorId: string): void {
    this.calls.push(`flushVisitor ${visitorId}`);
    this.records.delete(visitorId);
  }
}

/** Waits until `check` holds, polling; fails after `ms` so a broken test cannot hang. */
export const until = async (check: () => boolean, ms = 3000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

/** An SDK instance started against a fresh double; `close()` stops both. */
export interface Sdk {
  double: ProtocolDouble;
  instance: FeatureInstance;
  logs: ReturnType<typeof recordingLogs>;
  cache: RecordingVisitorCache;
  statuses: string[];
  close(): Promise<void>;
}

/** Starts a double and an instance on it (usage tracking off, logs recorded, a recording visitor cache). */
export const startSdk = async (
  script: Partial<DoubleScript> = {},
  configure: (b: ConfigBuilder) => ConfigBuilder = (b) => b,
): Promise<Sdk> => {
  const double = await startProtocolDouble(script);
  const logs = recordingLogs();
  const cache = new RecordingVisitorCache();
  const statuses: string[] = [];
  const instance = new FeatureInstance(nodePlatform);
  await instance.start(
    'env1',
    'key1',
    configure(
      new ConfigBuilder()
        .withServerUrl(double.url)
        .withLogManager(logs.manager)
        .withLogLevel(Level.ALL)
        .withDisableDeveloperUsageTracking(true)
        .withCacheVisitorManager(cache)
        .withStatusListener((s) => statuses.push(s)),
    ).build(),
  );
  return {
    double,
    instance,
    logs,
    cache,
    statuses,
    close: async () => {
      await instance.close();
      await double.close();
    },
  };
};

/** Decision request bodies the double received. */
export const decisionBodies = (double: ProtocolDouble): Array<Record<string, unknown>> =>
  double.requestsTo('decision').map((r) => r.body as Record<string, unknown>);

/** Every hit the double received, flattened from the batches. */
export const hitsReceived = (double: ProtocolDouble): Array<Record<string, unknown>> =>
  double.requestsTo('events').flatMap((r) => (r.body as { h?: Array<Record<string, unknown>> }).h ?? []);

/** Every activation item the double received. */
export const activationsReceived = (double: ProtocolDouble): Array<Record<string, unknown>> =>
  double
    .requestsTo('activate')
    .flatMap((r) => (r.body as { batch?: Array<Record<string, unknown>> }).batch ?? []);

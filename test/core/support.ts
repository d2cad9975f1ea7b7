// Shared helpers of the Node-only core tests: decisions in PROTOCOL.md §3's shape, a recording log manager, an
// SDK started against a protocol double (the one wait is test/support/until.ts).
import { ConfigBuilder, FeatureInstance, Level, MemoryVisitorCache } from '../../src/core/node.js';
import { nodePlatform } from '../../src/core/platform/node.js';
import { startProtocolDouble, type DoubleScript, type ProtocolDouble } from '../support/protocol-double.js';
import { recordingLogs } from './shared/session.js';

// The decision builders and the log recorder live beside the shared suites (no runtime imports,
// loadable in Chromium too).
export { campaign, decision } from './shared/decisions.js';
export { recordingLogs } from './shared/session.js';

/** An SDK instance started against a fresh double; `close()` stops both. */
export interface Sdk {
  double: ProtocolDouble;
  instance: FeatureInstance;
  logs: ReturnType<typeof recordingLogs>;
  close(): Promise<void>;
}

/** Starts a double and an instance on it (usage tracking off, logs recorded, a custom memory visitor cache). */
export const startSdk = async (
  script: Partial<DoubleScript> = {},
  configure: (b: ConfigBuilder) => ConfigBuilder = (b) => b,
): Promise<Sdk> => {
  const double = await startProtocolDouble(script);
  const logs = recordingLogs();
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
        .withCacheVisitorManager(new MemoryVisitorCache()),
    ).build(),
  );
  return {
    double,
    instance,
    logs,
    close: async () => {
      await instance.close();
      await double.close();
    },
  };
};

/** Every hit the double received, flattened from the batches. */
export const hitsReceived = (double: ProtocolDouble): Array<Record<string, unknown>> =>
  double.requestsTo('events').flatMap((r) => (r.body as { h?: Array<Record<string, unknown>> }).h ?? []);

/** Every activation item the double received. */
export const activationsReceived = (double: ProtocolDouble): Array<Record<string, unknown>> =>
  double
    .requestsTo('activate')
    .flatMap((r) => (r.body as { batch?: Array<Record<string, unknown>> }).batch ?? []);

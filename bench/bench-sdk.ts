// The SDK as every SDK bench starts it: against the protocol double's environment (bench/double-child.ts),
// no logs, no developer usage tracking.
import { ConfigBuilder, FeatureInstance, Level, Mode } from '../src/core/node.js';

/** Starts an SDK instance on the double at `url`, in `mode`, logging at `level` (default none). */
export const startBenchSdk = async (
  url: string,
  mode: Mode = Mode.DECISION_API,
  level: Level = Level.NONE,
): Promise<FeatureInstance> => {
  const sdk = new FeatureInstance();
  await sdk.start(
    'env1',
    'key1',
    new ConfigBuilder()
      .withMode(mode)
      .withServerUrl(url)
      .withLogLevel(level)
      .withDisableDeveloperUsageTracking(true)
      .build(),
  );
  return sdk;
};

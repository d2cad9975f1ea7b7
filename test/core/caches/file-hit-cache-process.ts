// One SDK process of test/core/caches/file-hit-cache-restart.test.ts, run as `node --import tsx
// file-hit-cache-process.ts '<json RestartTask>'`: starts on `serverUrl` with the file hit cache at `path`,
// sends `hits` events for one visitor (none when 0), closes and exits, printing the SDK's log on stderr.
import { fileHitCache } from '../../../src/core/caches/file-hit-cache.js';
import { ConfigBuilder, Event, EventCategory, FeatureInstance, Level } from '../../../src/core/node.js';

/** What the process does. */
export interface RestartTask {
  path: string;
  serverUrl: string;
  envId: string;
  apiKey: string;
  hits: number;
}

const task = JSON.parse(process.argv[2] ?? '{}') as RestartTask;
const sdk = new FeatureInstance();
await sdk.start(
  task.envId,
  task.apiKey,
  new ConfigBuilder()
    .withServerUrl(task.serverUrl)
    .withLogLevel(Level.WARNING)
    .withDisableDeveloperUsageTracking(true)
    .withCacheHitManager(fileHitCache(task.path))
    .build(),
);
if (task.hits > 0) {
  const visitor = sdk.newVisitor({ visitorId: 'visitor-1', hasConsented: true }).build();
  for (let i = 0; i < task.hits; i += 1)
    await visitor.sendHit(
      new Event({ category: EventCategory.Action_Tracking, action: 'restart-test', label: String(i) }),
    );
}
await sdk.close();

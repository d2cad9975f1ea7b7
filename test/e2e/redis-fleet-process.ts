// One process of the fleet of test/e2e/redis-fleet.test.ts, run as `node --import tsx redis-fleet-process.ts
// '<json FleetTask>'`: an SDK started on the project's server with both Redis caches, doing one task and
// printing one JSON line per step on stdout. It ends by itself (close, release, exit) unless told to wait, in
// which case the test kills it.
import { createInterface } from 'node:readline';
import { createClient } from 'redis';
import type { IHitCacheImplementation } from '../../src/protocol/index.js';
import { redisHitCache, redisVisitorCache } from '../../src/core/caches/redis.js';
import { ConfigBuilder, Event, EventCategory, FeatureInstance, Mode } from '../../src/core/node.js';
import { nodePlatform } from '../../src/core/platform/node.js';

/** What one process does, in this order. */
export interface FleetTask {
  serverUrl: string;
  /** Where activations and hits go, when not to the server (a port nobody listens on: nothing gets out). */
  deadUrl?: string;
  envId: string;
  apiKey: string;
  redisUrl: string;
  prefix: string;
  leaseSeconds: number;
  /** Visitors whose flags are fetched (bucketing mode) and printed; with `expose`, flag `q` is exposed. */
  fetch?: { visitorIds: string[]; expose?: boolean };
  /** Hits sent for one visitor: EVENTs with action `action`, labels 0 … count-1. */
  hits?: { visitorId: string; count: number; action: string };
  /** true: print `waiting` once the hits are cached and live on (the test kills the process). */
  wait?: boolean;
  /** true: after start, wait for a line on stdin before the rest (the test lines processes up). */
  gate?: boolean;
  /** The tracking manager's `batchIntervals` (seconds); default 1. */
  batchIntervals?: number;
}

const print = (line: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify(line)}\n`);
};

const task = JSON.parse(process.argv[2] ?? '{}') as FleetTask;
const redis = await createClient({ url: task.redisUrl, socket: { reconnectStrategy: false } }).connect();
const hitCache = redisHitCache(redis, {
  envId: task.envId,
  prefix: task.prefix,
  leaseSeconds: task.leaseSeconds,
});
// The tracker's lookups are printed (`lookup`, with how many records it was handed), so the test knows when
// a process has taken its share of the cache.
const reporting: IHitCacheImplementation = {
  cacheHits: (hits) => hitCache.cacheHits(hits),
  async lookupHits() {
    const found = await hitCache.lookupHits();
    print({ event: 'lookup', records: found.reduce((n, map) => n + Object.keys(map).length, 0) });
    return found;
  },
  flushHits: (hids) => hitCache.flushHits(hids),
  flushAllHits: () => hitCache.flushAllHits(),
};
let config = new ConfigBuilder()
  .withMode(Mode.BUCKETING)
  .withServerUrl(task.serverUrl)
  // Periodic caching (Node's default strategy) every second; a pool of 50 goes out as soon as it fills.
  .withTrackingConfig({ batchIntervals: task.batchIntervals ?? 1, poolMaxSize: 50 })
  .withDisableDeveloperUsageTracking(true)
  .withCacheVisitorManager(redisVisitorCache(redis, { envId: task.envId, prefix: task.prefix }))
  .withCacheHitManager(reporting);
if (task.deadUrl !== undefined) config = config.withDecisionApiUrl(task.deadUrl).withEventsUrl(task.deadUrl);

const instance = new FeatureInstance(nodePlatform);
await instance.start(task.envId, task.apiKey, config.build());
print({ event: 'started', pid: process.pid, owner: hitCache.owner, status: instance.getStatus() });
if (task.gate === true) {
  const lines = createInterface({ input: process.stdin });
  await new Promise((resolve) => lines.once('line', resolve));
  lines.close();
}

for (const visitorId of task.fetch?.visitorIds ?? []) {
  const visitor = instance.newVisitor({ visitorId, hasConsented: true }).build();
  await visitor.fetchFlags();
  const q = visitor.getFlag('q').value(-1, { visitorExposed: task.fetch?.expose === true });
  const h = visitor.getFlag('h').value(-1, { visitorExposed: false });
  print({ event: 'flags', visitorId, q, h });
}

if (task.hits !== undefined) {
  const { visitorId, count, action } = task.hits;
  const visitor = instance.newVisitor({ visitorId, hasConsented: true }).build();
  for (let i = 0; i < count; i++)
    await visitor.sendHit(
      new Event({ category: EventCategory.Action_Tracking, action, label: String(i), value: i }),
    );
  print({ event: 'queued', count });
}

if (task.wait === true) {
  print({ event: 'waiting' });
  // Lives until killed (bounded, so a test that forgets it cannot leave it running).
  setTimeout(() => process.exit(3), 120_000);
} else {
  await instance.close();
  await hitCache.release();
  redis.destroy();
  print({ event: 'closed' });
  process.exit(0);
}

// What the SDK says in Node when no server answers (issue 35), through a started instance against a closed
// port on 127.0.0.1: the first error names FEATURE_API_URL and the address tried, worded by where the address
// came from (the SDK's default, FEATURE_API_URL, or the config, which gets no hint); and close() says how many
// hits are lost with Node's default memory hit cache and how to keep them, or that a configured cache keeps them.
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, test } from 'node:test';
import {
  ConfigBuilder,
  Event,
  EventCategory,
  FeatureInstance,
  MemoryHitCache,
} from '../../../src/core/node.js';
import { Level } from '../../../src/core/logger.js';
import { nodePlatform } from '../../../src/core/platform/node.js';
import type { Platform } from '../../../src/core/platform/platform.js';

const saved = process.env.FEATURE_API_URL;
afterEach(() => {
  if (saved === undefined) Reflect.deleteProperty(process.env, 'FEATURE_API_URL');
  else process.env.FEATURE_API_URL = saved;
});

/** A URL where nothing listens (a port bound, then closed). */
const closedUrl = async (): Promise<string> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
};

/** Starts an SDK on `platform`, fetches one visitor's flags, sends one hit, closes; returns the log lines. */
const runOnce = async (platform: Platform, builder = new ConfigBuilder()): Promise<string[]> => {
  const logs: string[] = [];
  const sdk = new FeatureInstance(platform);
  await sdk.start(
    'env1',
    'key1',
    builder
      .withLogManager({ log: (_level, name, message) => logs.push(`${name} ${message}`) })
      .withLogLevel(Level.WARNING)
      .withDisableDeveloperUsageTracking(true)
      .build(),
  );
  const visitor = sdk.newVisitor({ visitorId: 'visitor-1', hasConsented: true }).build();
  await visitor.fetchFlags();
  await visitor.sendHit(new Event({ category: EventCategory.Action_Tracking, action: 'add_to_cart' }));
  await sdk.close();
  return logs;
};

void test('FEATURE_API_URL unset: the error says the default was tried and to set FEATURE_API_URL; close() counts the hits lost', async () => {
  Reflect.deleteProperty(process.env, 'FEATURE_API_URL');
  const url = await closedUrl();
  // The Node platform with its default address moved to a closed port (127.0.0.1:8080 may be in use here).
  const logs = await runOnce({ ...nodePlatform, defaultServerUrl: () => url });
  const fetchError = logs.find((l) => l.startsWith('ERROR fetchFlags failed')) ?? '';
  assert.ok(fetchError.includes(`ECONNREFUSED`), logs.join('\n'));
  assert.ok(
    fetchError.endsWith(
      `No server could be reached at ${url}, the SDK's default in Node: set FEATURE_API_URL to your server's URL (or pass it to ConfigBuilder.withServerUrl).`,
    ),
    fetchError,
  );
  const lost = logs.find((l) => l.includes('lost when this process ends')) ?? '';
  // The visitor's consent event and the add_to_cart event.
  assert.ok(lost.startsWith('ERROR Tracking: 2 hits not delivered by close() are lost'), logs.join('\n'));
  assert.match(lost, /fileHitCache\(.*'feature-ts\/file-hit-cache'.*redisHitCache from 'feature-ts\/redis'/);
});

void test('FEATURE_API_URL set: the error says the address came from it', async () => {
  const url = await closedUrl();
  process.env.FEATURE_API_URL = url;
  const logs = await runOnce(nodePlatform);
  const fetchError = logs.find((l) => l.startsWith('ERROR fetchFlags failed')) ?? '';
  assert.ok(
    fetchError.endsWith(
      `No server could be reached at ${url}, taken from FEATURE_API_URL: check that variable and that the server runs there.`,
    ),
    logs.join('\n'),
  );
});

void test('a server URL and a hit cache from the config: no hint, and close() says the cache keeps the hits', async () => {
  process.env.FEATURE_API_URL = 'http://127.0.0.1:1';
  const url = await closedUrl();
  const cache = new MemoryHitCache();
  const logs = await runOnce(nodePlatform, new ConfigBuilder().withServerUrl(url).withCacheHitManager(cache));
  assert.ok(
    logs.some((l) => l.includes('ECONNREFUSED')),
    logs.join('\n'),
  );
  assert.ok(!logs.some((l) => l.includes('FEATURE_API_URL')), logs.join('\n'));
  assert.ok(
    logs.includes(
      'WARNING Tracking: 2 hits not delivered by close() stay in the hit cache and are sent at the next start',
    ),
    logs.join('\n'),
  );
  assert.equal((await cache.lookupHits()).flatMap((map) => Object.keys(map)).length, 2);
});

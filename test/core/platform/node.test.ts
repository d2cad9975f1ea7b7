// The Node platform (PROTOCOL.md §16.5): sdk_firstTimeInit is true on the first start in the process only.
// Its own file, so it runs in a fresh process (node's test runner gives each file one).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BatchCachingStrategy, MemoryHitCache } from '../../../src/core/node.js';
import { ProcessVisitorCache } from '../../../src/core/caches/process-visitor-cache.js';
import { nodePlatform } from '../../../src/core/platform/node.js';
import { Level, Logger } from '../../../src/core/logger.js';
import { internedCampaignFlags } from '../../../src/engine/interned-flags.js';

void test('sdk_firstTimeInit: true on the first start in the process, false after', async () => {
  assert.equal((await nodePlatform.deviceContext()).sdk_firstTimeInit, true);
  assert.equal((await nodePlatform.deviceContext()).sdk_firstTimeInit, false);
});

void test('Node defaults: memory caches and BATCH_PERIODIC_CACHING (PROTOCOL.md §5.3)', () => {
  const logger = new Logger(Level.NONE);
  assert.ok(nodePlatform.createVisitorCache(logger, 'env1') instanceof ProcessVisitorCache);
  assert.ok(nodePlatform.createHitCache(logger, 'env1') instanceof MemoryHitCache);
  assert.equal(nodePlatform.defaultBatchStrategy, BatchCachingStrategy.BATCH_PERIODIC_CACHING);
  assert.equal(nodePlatform.onPageHide, undefined);
  // Decision-API visitors share equal campaigns' flags (test/engine/interned-flags.test.ts).
  assert.equal(nodePlatform.campaignFlags, internedCampaignFlags);
});

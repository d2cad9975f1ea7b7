// The Node platform (src/core/platform/node.ts): the predefined context keys of PROTOCOL.md §16.5, among them
// sdk_firstTimeInit, true on the first start in the process only (so the first-start test comes first: node's
// test runner gives each file a fresh process and runs its tests in order), and the platform's defaults. The
// context rules and FeatureContext run in Node and Chromium from test/core/shared/context.suite.ts.
import assert from 'node:assert/strict';
import * as os from 'node:os';
import { test } from 'node:test';
import { BatchCachingStrategy, MemoryHitCache } from '../../../src/core/node.js';
import { ProcessVisitorCache } from '../../../src/core/caches/process-visitor-cache.js';
import { nodePlatform } from '../../../src/core/platform/node.js';
import { Level, Logger } from '../../../src/core/logger.js';
import { internedCampaignFlags } from '../../../src/engine/interned-flags.js';
import { nodeHarness } from '../shared/node-harness.js';

void test('sdk_firstTimeInit: true on the first start in the process, false after', async () => {
  assert.equal((await nodePlatform.deviceContext()).sdk_firstTimeInit, true);
  assert.equal((await nodePlatform.deviceContext()).sdk_firstTimeInit, false);
});

void test('the auto keys of PROTOCOL.md §16.5 on a later start', async () => {
  const device = await nodePlatform.deviceContext();
  const names: Record<string, string> = { Linux: 'Linux', Darwin: 'macOS', Windows_NT: 'Windows' };
  assert.equal(device.sdk_firstTimeInit, false, 'not the first start in this process');
  assert.equal(device.sdk_deviceLanguage, Intl.DateTimeFormat().resolvedOptions().locale);
  assert.equal(device.sdk_deviceType, 'server');
  assert.equal(device.sdk_osName, names[os.type()] ?? os.type());
  assert.equal(device.sdk_osVersionCode, os.release());
  assert.equal(device.sdk_fsVersion, nodeHarness.sdkVersion);
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

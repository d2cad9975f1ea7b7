// The memory caches, Node's defaults (SPEC.md cache interfaces, PROTOCOL.md §10, §11).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryHitCache, MemoryVisitorCache } from '../../../src/core/caches/memory.js';
import type { HitCacheRecord } from '../../../src/protocol/index.js';
import { nodeHarness } from '../shared/node-harness.js';
import { defineHitCacheSuite } from './hit-cache.suite.js';

const hit = (hid: string): HitCacheRecord => ({
  version: 1,
  data: {
    visitorId: 'v1',
    anonymousId: null,
    type: 'SCREENVIEW',
    time: 2,
    content: { hid, createdAt: 1, location: 'home' },
  },
});

void describe('MemoryVisitorCache', () => {
  void it('upserts, looks up and flushes', async () => {
    const cache = new MemoryVisitorCache();
    assert.equal(await cache.lookupVisitor('v1'), null);
    await cache.cacheVisitor('v1', '{"a":1}');
    await cache.cacheVisitor('v1', '{"a":2}');
    assert.equal(await cache.lookupVisitor('v1'), '{"a":2}');
    await cache.flushVisitor('v1');
    assert.equal(await cache.lookupVisitor('v1'), null);
  });
});

defineHitCacheSuite(nodeHarness, 'MemoryHitCache', () => ({ cache: new MemoryHitCache() }));

void describe('MemoryHitCache', () => {
  void it('stores by hid, returns one map, flushes some or all', async () => {
    const cache = new MemoryHitCache();
    assert.deepEqual(await cache.lookupHits(), []);
    await cache.cacheHits({ a: hit('a'), b: hit('b') });
    await cache.cacheHits({ c: hit('c') });
    assert.deepEqual(await cache.lookupHits(), [{ a: hit('a'), b: hit('b'), c: hit('c') }]);
    await cache.flushHits(['b', 'missing']);
    assert.deepEqual(Object.keys((await cache.lookupHits())[0] ?? {}), ['a', 'c']);
    await cache.flushAllHits();
    assert.deepEqual(await cache.lookupHits(), []);
  });

  void it('copies records in and out', async () => {
    const cache = new MemoryHitCache();
    const record = hit('a');
    await cache.cacheHits({ a: record });
    record.data.time = 99;
    const [first] = await cache.lookupHits();
    assert.equal(first?.a?.data.time, 2);
    first.a = hit('changed');
    assert.equal((await cache.lookupHits())[0]?.a?.data.content.hid, 'a');
  });
});

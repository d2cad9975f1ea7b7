// Several trackers sharing one hit cache, as tabs of one origin share IndexedDB (or processes a shared
// cache): a cached hit another tracker sent and flushed is dropped, not sent again; with a lock manager
// (navigator.locks, faked here as Node 20 has none) concurrent passes take turns, so each hit goes once.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { MemoryHitCache } from '../../../src/core/caches/memory.js';
import type { HitCacheRecord } from '../../../src/protocol/index.js';
import { startProtocolDouble, type ProtocolDouble } from '../../support/protocol-double.js';
import { anonymous, cached, harness, hitsOf, screen } from './tracker-harness.js';

let double: ProtocolDouble;
beforeEach(async () => {
  double = await startProtocolDouble();
});
afterEach(() => double.close());

const now = 1_795_374_650_971;
const record = (hid: string): HitCacheRecord => ({
  version: 1,
  data: {
    visitorId: 'anon-7',
    anonymousId: null,
    type: 'SCREENVIEW',
    time: now,
    content: { hid, createdAt: now - 1_000, location: hid },
  },
});

const filled = async (n: number): Promise<MemoryHitCache> => {
  const cache = new MemoryHitCache();
  const records: Record<string, HitCacheRecord> = {};
  for (let i = 0; i < n; i += 1) records[`c${i}`] = record(`c${i}`);
  await cache.cacheHits(records);
  return cache;
};

/** hid → how many times the double received it. */
const receipts = (): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const r of double.requestsTo('events'))
    for (const h of hitsOf(r.body)) counts.set(String(h.hid), (counts.get(String(h.hid)) ?? 0) + 1);
  return counts;
};

/** An in-process stand-in for the Web Locks API: one holder per name at a time, in request order. */
const installLocks = (): (() => void) => {
  const tails = new Map<string, Promise<unknown>>();
  const locks = {
    request: (name: string, work: () => Promise<unknown>) => {
      const run = (tails.get(name) ?? Promise.resolve()).then(work, work);
      tails.set(
        name,
        run.catch(() => undefined),
      );
      return run;
    },
  };
  Object.defineProperty(globalThis, 'navigator', { value: { locks }, configurable: true });
  return () => Reflect.deleteProperty(globalThis, 'navigator');
};

void describe('trackers sharing one hit cache', () => {
  void it('drops a cached hit another tracker sent and flushed meanwhile', async () => {
    const cache = await filled(5);
    const first = harness(double, {}, { now: () => now }, cache);
    const second = harness(double, {}, { now: () => now }, cache);
    await first.tracker.flush();
    await second.tracker.flush();
    assert.deepEqual([...receipts().values()], [1, 1, 1, 1, 1]);
    assert.equal(receipts().size, 5);
    assert.deepEqual(await cached(cache), {});
    await Promise.all([first.tracker.close(), second.tracker.close()]);
  });

  void it('with a lock manager, concurrent passes send each cached hit once, own hits too', async () => {
    const uninstall = installLocks();
    try {
      const cache = await filled(20);
      const tabs = [0, 1, 2].map(() => harness(double, {}, { now: () => now }, cache));
      for (const [i, tab] of tabs.entries()) await tab.tracker.addHit(anonymous, screen(`own-${i}`));
      await Promise.all(tabs.map((tab) => tab.tracker.flush()));
      const counts = receipts();
      assert.equal(counts.size, 23);
      assert.ok(
        [...counts.values()].every((n) => n === 1),
        JSON.stringify([...counts]),
      );
      assert.deepEqual(await cached(cache), {});
      await Promise.all(tabs.map((tab) => tab.tracker.close()));
    } finally {
      uninstall();
    }
  });

  void it('keeps sending when the lock manager refuses the lock', async () => {
    Object.defineProperty(globalThis, 'navigator', {
      value: { locks: { request: () => Promise.reject(new DOMException('sandboxed', 'SecurityError')) } },
      configurable: true,
    });
    try {
      const { tracker } = harness(double, {}, { now: () => now });
      await tracker.addHit(anonymous, screen());
      await tracker.flush();
      assert.equal(receipts().size, 1);
      await tracker.close();
    } finally {
      Reflect.deleteProperty(globalThis, 'navigator');
    }
  });

  void it('never reads a cache that keeps nothing as one another tracker emptied', async () => {
    const cache = new MemoryHitCache();
    cache.cacheHits = () => Promise.resolve();
    const { tracker } = harness(double, {}, { now: () => now }, cache);
    await tracker.addHit(anonymous, screen('a'));
    await tracker.addHit(anonymous, screen('b'));
    await tracker.flush();
    assert.equal(receipts().size, 2);
    await tracker.close();
  });
});

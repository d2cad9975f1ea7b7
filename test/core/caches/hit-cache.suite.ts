// The contract every hit cache keeps (SPEC.md `IHitCacheImplementation`, PROTOCOL.md §11, docs/caches.md
// "Custom caches"), written once and run against each of them: memory (memory.test.ts), file
// (file-hit-cache.test.ts), Redis (redis.test.ts) under node:test, IndexedDB (idb.browser.test.ts) in Chromium.
// The expected records are the ones given: a cache stores them as they are, in the format of §11.
import type { HitCacheRecord, IHitCacheImplementation } from '../../../src/protocol/index.js';
import type { SharedAssert } from '../shared/harness.js';

/** What the suite needs of a runtime: its test functions and assertions. */
export interface HitCacheSuiteHarness {
  describe: (name: string, fn: () => void) => void;
  it: (name: string, fn: () => Promise<void> | void) => void;
  assert: SharedAssert;
}

/** A fresh, empty cache for one test; `done` releases it (closes a connection, deletes its keys or files). */
export interface OpenedHitCache {
  cache: IHitCacheImplementation;
  done?: () => Promise<void> | void;
}

/** A record of each `type` of PROTOCOL.md §11, with the content fields docs/caches.md lists for it. */
export const sampleHits = (): Record<string, HitCacheRecord> => {
  const record = (
    hid: string,
    type: HitCacheRecord['data']['type'],
    fields: Record<string, unknown>,
    anonymousId: string | null = null,
  ): HitCacheRecord => ({
    version: 1,
    data: {
      visitorId: 'user-42',
      anonymousId,
      type,
      time: 1795600000950,
      content: { hid, createdAt: 1795600000900, ...fields },
    },
  });
  const hits = [
    record('5b1f3c1e-2f4d-4a7b-9c1e-8d2f3a4b5c6d', 'EVENT', {
      category: 'Action_Tracking',
      action: 'add_to_cart',
      label: 'btn',
      value: 3,
    }),
    record('h-screen', 'SCREENVIEW', { location: 'home', userLanguage: 'fr' }),
    record('h-page', 'PAGEVIEW', { location: 'https://shop.example/é?q=1', sessionNumber: 2 }),
    record('h-transaction', 'TRANSACTION', {
      transactionId: 't1',
      affiliation: 'shop',
      revenue: 12.5,
      shipping: 0,
      currency: 'EUR',
      itemCount: 2,
    }),
    record('h-item', 'ITEM', { transactionId: 't1', name: 'Mug ☕', code: 'm1', price: 6.25, quantity: 2 }),
    record('h-segment', 'SEGMENT', { context: { plan: 'premium', age: 31, beta: true } }, 'anon-7'),
    record('h-activate', 'ACTIVATE', { variationGroupId: 'vg1', variationId: 'v2', flagKey: 'btnColor' }),
    record('h-authenticated', 'EVENT', {
      category: 'User_Engagement',
      action: 'signup',
      authenticated: true,
    }),
  ];
  return Object.fromEntries(hits.map((hit) => [hit.data.content.hid, hit]));
};

/** One record, for the tests that only count. */
const hit = (hid: string, createdAt = 1): HitCacheRecord => ({
  version: 1,
  data: {
    visitorId: 'v1',
    anonymousId: null,
    type: 'SCREENVIEW',
    time: 2,
    content: { hid, createdAt, location: 'home' },
  },
});

/** Every record of a lookup's answer, in one map (a cache may answer with several). */
const merged = (found: Array<Record<string, HitCacheRecord>>): Record<string, HitCacheRecord> =>
  Object.assign({}, ...found) as Record<string, HitCacheRecord>;

const sorted = (found: Array<Record<string, HitCacheRecord>>): string[] => Object.keys(merged(found)).sort();

/** Defines the hit cache contract for the cache `open` makes, under `name`. */
export const defineHitCacheSuite = (
  h: HitCacheSuiteHarness,
  name: string,
  open: () => Promise<OpenedHitCache> | OpenedHitCache,
): void => {
  const { describe, it, assert } = h;
  const withCache = async (test: (cache: IHitCacheImplementation) => Promise<void>): Promise<void> => {
    const opened = await open();
    try {
      await test(opened.cache);
    } finally {
      await opened.done?.();
    }
  };

  describe(`${name}: the hit cache contract (PROTOCOL.md §11)`, () => {
    it('an empty cache looks up no map at all', () =>
      withCache(async (cache) => {
        assert.deepEqual(await cache.lookupHits(), []);
      }));

    it('gives back every type of record exactly as it was given, keyed by hid', () =>
      withCache(async (cache) => {
        await cache.cacheHits(sampleHits());
        assert.deepEqual(merged(await cache.lookupHits()), sampleHits());
      }));

    it('adds across calls and replaces a record cached again under the same hid', () =>
      withCache(async (cache) => {
        await cache.cacheHits({ a: hit('a'), b: hit('b') });
        await cache.cacheHits({ c: hit('c') });
        await cache.cacheHits({});
        const newer = hit('a');
        newer.data.time = 99;
        await cache.cacheHits({ a: newer });
        const found = merged(await cache.lookupHits());
        assert.deepEqual(Object.keys(found).sort(), ['a', 'b', 'c']);
        assert.equal(found.a?.data.time, 99);
      }));

    it('flushHits erases the given hids and ignores unknown ones; flushAllHits erases all', () =>
      withCache(async (cache) => {
        await cache.cacheHits({ a: hit('a'), b: hit('b'), c: hit('c') });
        await cache.flushHits(['b', 'missing']);
        await cache.flushHits([]);
        assert.deepEqual(sorted(await cache.lookupHits()), ['a', 'c']);
        await cache.flushAllHits();
        assert.deepEqual(await cache.lookupHits(), []);
        await cache.flushAllHits();
        await cache.flushHits(['a']);
        assert.deepEqual(await cache.lookupHits(), []);
      }));

    it('never shares an object with its caller, in either direction', () =>
      withCache(async (cache) => {
        const record = hit('a');
        await cache.cacheHits({ a: record });
        record.data.time = 0;
        const [first] = await cache.lookupHits();
        assert.equal(first?.a?.data.time, 2);
        if (first?.a) first.a.data.content.location = 'changed';
        assert.equal(merged(await cache.lookupHits()).a?.data.content.location, 'home');
      }));

    it('keeps a thousand records written in one call and in many', () =>
      withCache(async (cache) => {
        const many = (from: number, count: number): Record<string, HitCacheRecord> =>
          Object.fromEntries(
            Array.from({ length: count }, (_, i) => [`h${from + i}`, hit(`h${from + i}`, from + i)]),
          );
        await cache.cacheHits(many(0, 900));
        for (let i = 900; i < 1000; i += 10) await cache.cacheHits(many(i, 10));
        assert.equal(sorted(await cache.lookupHits()).length, 1000);
      }));

    it('calls that overlap all take effect', () =>
      withCache(async (cache) => {
        await Promise.all([
          cache.cacheHits({ a: hit('a') }),
          cache.cacheHits({ b: hit('b') }),
          cache.cacheHits({ c: hit('c') }),
        ]);
        await Promise.all([cache.flushHits(['a']), cache.cacheHits({ d: hit('d') })]);
        assert.deepEqual(sorted(await cache.lookupHits()), ['b', 'c', 'd']);
      }));
  });
};

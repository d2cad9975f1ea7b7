// The tracking manager in Chromium against real IndexedDB and a protocol double on 127.0.0.1 (PROTOCOL.md
// §5.3, §11): both strategies flushing on size and on interval, a reload with cached hits, offline then
// online, consent withdrawal, a full disk, two pages sharing the cache, and page hide over the beacon budget.
// Every test counts what the double received by hid and checks each hit arrived exactly once.
import { assert } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { IdbHitCache } from '../../../src/core/caches/idb.js';
import { Level, Logger } from '../../../src/core/logger.js';
import { browserPlatform } from '../../../src/core/platform/browser.js';
import { BatchCachingStrategy } from '../../../src/core/status.js';
import * as managerModule from '../../../src/core/tracking/manager.js';
import type { TrackerTuning } from '../../../src/core/tracking/manager.js';
import type { Tracker, TrackedVisitor, TrackingManagerConfig } from '../../../src/core/tracking/tracker.js';
import type { HitCacheRecord } from '../../../src/protocol/index.js';
import { until } from '../../support/until.js';

interface Recorded {
  path: string;
  body: unknown;
  bytes: number;
}
type Modules = { manager: typeof managerModule; idb: { IdbHitCache: typeof IdbHitCache } };

const anon: TrackedVisitor = { visitorId: 'anon-7', anonymousId: null, authenticated: false };
const other: TrackedVisitor = { visitorId: 'anon-8', anonymousId: null, authenticated: false };
const STRATEGIES = [
  BatchCachingStrategy.BATCH_CONTINUOUS_CACHING,
  BatchCachingStrategy.BATCH_PERIODIC_CACHING,
] as const;

let counter = 0;
const freshDb = (): string => `feature-delivery-${Date.now()}-${++counter}`;

let double: { id: string; url: string };
const requests = (kind: string): Promise<Recorded[]> =>
  executeServerCommand<Recorded[], { id: string; kind: string }>('double-requests', { id: double.id, kind });

/** hid → how many hit batches the double received it in. */
const receipts = async (): Promise<Map<string, number>> => {
  const counts = new Map<string, number>();
  for (const r of await requests('events'))
    for (const h of (r.body as { h: Array<{ hid: string }> }).h)
      counts.set(h.hid, (counts.get(h.hid) ?? 0) + 1);
  return counts;
};
const assertEachOnce = async (hids: readonly string[]): Promise<void> => {
  const counts = await receipts();
  assert.sameMembers([...counts.keys()], [...hids], 'every hit arrived, and nothing else');
  for (const [hid, n] of counts) assert.strictEqual(n, 1, `hit ${hid} arrived ${n} times`);
};
const cachedHids = async (cache: IdbHitCache): Promise<string[]> =>
  (await cache.lookupHits()).flatMap((batch) => Object.keys(batch));

/** A tracker of `modules` (this page's, or another page's: see `secondPage`) on IndexedDB database `db`. */
const makeTracker = (
  db: string,
  config: TrackingManagerConfig,
  options: { modules?: Modules; logs?: string[]; tuning?: TrackerTuning; pageHide?: boolean } = {},
): { tracker: Tracker; cache: IdbHitCache } => {
  const modules = options.modules ?? { manager: managerModule, idb: { IdbHitCache } };
  const logs = options.logs ?? [];
  const logger = new Logger(Level.ALL, { log: (_level, _name, message) => logs.push(message) });
  const cache = new modules.idb.IdbHitCache({ dbName: db, logger });
  const tracker = modules.manager.createTracker(
    {
      envId: 'env1',
      apiKey: 'key1',
      decisionApiUrl: `${double.url}/v2`,
      eventsUrl: `${double.url}/events`,
      config: {
        batchIntervals: 3600,
        poolMaxSize: 1_000,
        batchStrategy: BatchCachingStrategy.BATCH_CONTINUOUS_CACHING,
        ...config,
      },
      hitCache: cache,
      logger,
      ...(options.pageHide
        ? { onPageHide: (send) => browserPlatform.onPageHide?.(send) ?? (() => undefined) }
        : {}),
    },
    { retryBaseMs: 20, ...options.tuning },
  );
  return { tracker, cache };
};

/** Adds `n` screen hits and returns their hids, read back from what the double or the cache will show. */
const addHits = async (tracker: Tracker, n: number, visitor = anon, prefix = 'p'): Promise<void> => {
  for (let i = 0; i < n; i++)
    await tracker.addHit(visitor, { type: 'SCREENVIEW', content: { location: `${prefix}${i}` } });
};

/** A second page of this origin: a same-origin frame with its own copy of the SDK's modules. */
const secondPage = async (): Promise<{ modules: Modules; close: () => void }> => {
  const frame = document.createElement('iframe');
  document.body.append(frame);
  const load = (frame.contentWindow as unknown as { Function: FunctionConstructor }).Function(
    'url',
    'return import(url)',
  ) as (url: string) => Promise<unknown>;
  const at = (path: string): string => new URL(path, import.meta.url).href;
  const [manager, idb] = await Promise.all([
    load(at('../../../src/core/tracking/manager.ts')),
    load(at('../../../src/core/caches/idb.ts')),
  ]);
  return { modules: { manager, idb } as Modules, close: () => frame.remove() };
};

/** Records written straight to the cache, as an earlier page view left them. */
const leftInCache = async (db: string, n: number): Promise<string[]> => {
  const cache = new IdbHitCache({ dbName: db });
  const records: Record<string, HitCacheRecord> = {};
  const now = Date.now();
  for (let i = 0; i < n; i++) {
    const hid = crypto.randomUUID();
    records[hid] = {
      version: 1,
      data: {
        visitorId: 'anon-7',
        anonymousId: null,
        type: 'SCREENVIEW',
        time: now,
        content: { hid, createdAt: now - 1_000 + i, location: `left${i}` },
      },
    };
  }
  await cache.cacheHits(records);
  await cache.close();
  return Object.keys(records);
};

beforeEach(async () => {
  double = await executeServerCommand<{ id: string; url: string }, object>('double-start', {});
});
afterEach(async () => {
  await executeServerCommand('double-stop', { id: double.id });
});

for (const strategy of STRATEGIES)
  describe(strategy, () => {
    it('flushes when the pool reaches poolMaxSize, each hit once, and empties the cache', async () => {
      const { tracker, cache } = makeTracker(freshDb(), { poolMaxSize: 5, batchStrategy: strategy });
      await addHits(tracker, 5);
      await until(async () => (await receipts()).size === 5, { what: 'five hits' });
      await until(async () => (await cachedHids(cache)).length === 0, { what: 'an empty cache' });
      await tracker.close();
      await assertEachOnce([...(await receipts()).keys()]);
      assert.strictEqual((await requests('events')).length, 1, 'one request for the full pool');
      await cache.close();
    });

    it('flushes every batchIntervals, each hit once, and empties the cache', async () => {
      const { tracker, cache } = makeTracker(freshDb(), { batchIntervals: 0.1, batchStrategy: strategy });
      await addHits(tracker, 3);
      await until(async () => (await receipts()).size === 3, { what: 'three hits' });
      await until(async () => (await cachedHids(cache)).length === 0, { what: 'an empty cache' });
      await tracker.close();
      const counts = await receipts();
      for (const n of counts.values()) assert.strictEqual(n, 1);
      await cache.close();
    });

    it('offline then online: failed sends keep the hits, which go once the network is back', async () => {
      const realFetch = window.fetch.bind(window);
      let attempts = 0;
      window.fetch = () => {
        attempts++;
        return Promise.reject(new TypeError('Failed to fetch'));
      };
      const { tracker, cache } = makeTracker(freshDb(), { batchStrategy: strategy });
      try {
        await addHits(tracker, 4);
        await tracker.flush();
        await until(() => attempts >= 3, { what: 'a few automatic retries' });
        await addHits(tracker, 2, anon, 'offline');
      } finally {
        window.fetch = realFetch;
      }
      await until(async () => (await receipts()).size === 6, {
        what: 'six hits after the network came back',
      });
      await tracker.close();
      const counts = await receipts();
      for (const n of counts.values()) assert.strictEqual(n, 1);
      assert.deepEqual(await cachedHids(cache), []);
      await cache.close();
    });
  });

describe('cached hits across pages', () => {
  it('reload: hits a dropped page cached are sent once by the next page on the same database', async () => {
    const db = freshDb();
    const first = await secondPage();
    const { tracker: dropped, cache: firstCache } = makeTracker(db, {}, { modules: first.modules });
    await addHits(dropped, 6);
    const hids = await cachedHids(firstCache);
    assert.lengthOf(hids, 6);
    first.close(); // the page goes away without sending: its timers die with it
    const { tracker, cache } = makeTracker(db, {});
    await tracker.flush();
    await assertEachOnce(hids);
    assert.deepEqual(await cachedHids(cache), []);
    await tracker.close();
    await cache.close();
  });

  it('two pages of one origin sharing the cache send each cached hit once (Web Locks)', async () => {
    const db = freshDb();
    const left = await leftInCache(db, 30);
    const page = await secondPage();
    const a = makeTracker(db, {}, { modules: page.modules });
    const b = makeTracker(db, {});
    await addHits(a.tracker, 3, anon, 'a');
    await addHits(b.tracker, 3, anon, 'b');
    const own = (await cachedHids(b.cache)).filter((hid) => !left.includes(hid));
    assert.lengthOf(own, 6);
    await Promise.all([a.tracker.flush(), b.tracker.flush(), a.tracker.flush(), b.tracker.flush()]);
    await assertEachOnce([...left, ...own]);
    assert.deepEqual(await cachedHids(b.cache), []);
    await Promise.all([a.tracker.close(), b.tracker.close()]);
    await b.cache.close();
    page.close();
  });
});

describe('consent withdrawal', () => {
  it("dropVisitor empties the visitor's pool and cache, another tab's copies too; the others go once", async () => {
    const db = freshDb();
    const { tracker, cache } = makeTracker(db, {});
    await addHits(tracker, 3, anon, 'anon');
    await addHits(tracker, 2, other, 'other');
    const beforeDrop = await cachedHids(cache);
    await leftInCache(db, 2); // records of anon-7 another tab left
    await tracker.dropVisitor('anon-7');
    const kept = await cachedHids(cache);
    assert.lengthOf(kept, 2, "only the other visitor's hits stay cached");
    assert.includeMembers(beforeDrop, kept);
    await tracker.flush();
    await assertEachOnce(kept);
    const sent = (await requests('events')).flatMap((r) => (r.body as { h: Array<{ vid: string }> }).h);
    assert.isTrue(sent.every((h) => h.vid === 'anon-8'));
    await tracker.close();
    await cache.close();
  });
});

describe('storage failures', () => {
  it('a quota error mid-session moves to memory with one warning; no hit is lost or thrown', async () => {
    // A real full disk takes gigabytes here (the origin's quota is a share of the disk), so IndexedDB's put
    // raises the QuotaExceededError a full origin raises; reads and the rest of IndexedDB stay real.
    const logs: string[] = [];
    const db = freshDb();
    const left = await leftInCache(db, 2);
    const { tracker, cache } = makeTracker(db, {}, { logs });
    await addHits(tracker, 2, anon, 'before');
    const descriptor = Object.getOwnPropertyDescriptor(IDBObjectStore.prototype, 'put') as PropertyDescriptor;
    IDBObjectStore.prototype.put = function () {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    try {
      await addHits(tracker, 3, anon, 'full');
      const inMemory = (await cache.lookupHits()).flatMap((b) => Object.values(b));
      assert.sameMembers(
        inMemory.map((r) => r.data.content.location),
        ['full0', 'full1', 'full2'],
        'the failed writes went to memory',
      );
      await tracker.flush();
    } finally {
      Object.defineProperty(IDBObjectStore.prototype, 'put', descriptor);
    }
    const locations = (await requests('events')).flatMap((r) =>
      (r.body as { h: Array<{ dl: string }> }).h.map((h) => h.dl),
    );
    assert.sameMembers(locations, ['left0', 'left1', 'before0', 'before1', 'full0', 'full1', 'full2']);
    await assertEachOnce([...(await receipts()).keys()]);
    assert.includeMembers([...(await receipts()).keys()], left);
    assert.lengthOf(
      logs.filter((l) => l.includes('caching in memory instead')),
      1,
    );
    await tracker.close();
    await cache.close();
  });
});

describe('page hide over the beacon budget', () => {
  it('beacons at most 64 KiB in all, each hit once; what did not fit stays cached', async () => {
    await import('../../../src/core/platform/browser-page.js');
    const bodies: string[] = [];
    const realBeacon = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url, body) => {
      bodies.push(body as string);
      return realBeacon(url, body);
    };
    const { tracker, cache } = makeTracker(freshDb(), {}, { pageHide: true });
    try {
      // 100 hits of about 1.3 KB: 130 KB, twice what one page may have in flight.
      for (let i = 0; i < 100; i++)
        await tracker.addHit(anon, {
          type: 'PAGEVIEW',
          content: { location: `https://shop.test/${i}/`.padEnd(1_200, 'x') },
        });
      window.dispatchEvent(new PageTransitionEvent('pagehide'));
    } finally {
      navigator.sendBeacon = realBeacon;
    }
    const bytes = bodies.reduce((sum, body) => sum + new TextEncoder().encode(body).length, 0);
    assert.isAbove(bodies.length, 0);
    assert.isAtMost(bytes, 64 * 1024);
    await until(async () => (await requests('events')).length === bodies.length, { what: 'every beacon' });
    const beaconed = bodies.flatMap((body) =>
      (JSON.parse(body) as { h: Array<{ hid: string }> }).h.map((h) => h.hid),
    );
    assert.isBelow(beaconed.length, 100);
    await assertEachOnce(beaconed);
    const stillCached = await cachedHids(cache);
    assert.lengthOf(stillCached, 100, 'beaconed or not, every hit stays cached until acknowledged');
    await tracker.close();
    await cache.close();
  });
});

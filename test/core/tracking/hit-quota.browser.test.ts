// The tracking manager in Chromium when the origin's storage is really full (PROTOCOL.md §11): DevTools
// gives the origin a quota of a few megabytes (`quota-override`, test/support/wtr-commands.ts), a filler
// database takes all of it, and the hit cache's own IndexedDB writes then fail with the browser's
// QuotaExceededError. hit-delivery.browser.test.ts covers the same fallback with a stubbed put, mid-session.
import { assert } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { IdbHitCache } from '../../../src/core/caches/idb.js';
import { Level, Logger } from '../../../src/core/logger.js';
import { BatchCachingStrategy } from '../../../src/core/status.js';
import { createTracker } from '../../../src/core/tracking/manager.js';
import type { Tracker, TrackedVisitor } from '../../../src/core/tracking/tracker.js';

interface Recorded {
  path: string;
  body: unknown;
}

const anon: TrackedVisitor = { visitorId: 'anon-7', anonymousId: null, authenticated: false };
const QUOTA = 3 * 1024 * 1024;
const CHUNK = 256 * 1024;
const SMALLEST = 64;

let double: { id: string; url: string };
const requests = (kind: string): Promise<Recorded[]> =>
  executeServerCommand<Recorded[], { id: string; kind: string }>('double-requests', { id: double.id, kind });
const sentHits = async (): Promise<Array<{ hid: string; dl: string }>> =>
  (await requests('events')).flatMap((r) => (r.body as { h: Array<{ hid: string; dl: string }> }).h);

const request = <T>(req: IDBRequest<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
const deleteDb = (name: string): Promise<unknown> => request(indexedDB.deleteDatabase(name));

/** Random bytes (incompressible: Chromium may compress what it stores). */
const noise = (size: number): Uint8Array => {
  const bytes = new Uint8Array(size);
  for (let at = 0; at < size; at += 65_536) crypto.getRandomValues(bytes.subarray(at, at + 65_536));
  return bytes;
};

/**
 * Fills the origin through database `name`: records of `CHUNK` bytes, one transaction each, then halves
 * the size at each refusal, until a write of `SMALLEST` bytes is refused too (smaller than one cached hit),
 * or `limit` bytes went in. Returns the last refusal, or null if nothing was refused.
 */
const fillOrigin = async (name: string, limit = 4 * QUOTA): Promise<DOMException | null> => {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(name, 1);
    open.onupgradeneeded = () => open.result.createObjectStore('fill');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error ?? new Error('open failed'));
  });
  const write = (key: number, size: number): Promise<DOMException | null> =>
    new Promise((resolve) => {
      let tx: IDBTransaction;
      try {
        tx = db.transaction('fill', 'readwrite');
        tx.objectStore('fill').put(noise(size), key);
      } catch (error) {
        resolve(error as DOMException);
        return;
      }
      tx.oncomplete = () => resolve(null);
      tx.onabort = () => resolve(tx.error ?? new DOMException('aborted', 'AbortError'));
    });
  try {
    let size = CHUNK;
    let written = 0;
    for (let key = 0; key < 1_000 && written < limit; key++) {
      const refused = await write(key, size);
      if (!refused) written += size;
      else if (size > SMALLEST) size /= 2;
      else return refused;
    }
    return null;
  } finally {
    db.close();
  }
};

/** How many records database `name` holds in store `store` (read straight from IndexedDB). */
const countIn = async (name: string, store: string): Promise<number> => {
  const db = await request(indexedDB.open(name));
  try {
    if (!db.objectStoreNames.contains(store)) return 0;
    return await request(db.transaction(store).objectStore(store).count());
  } finally {
    db.close();
  }
};

const makeTracker = (db: string, logs: string[]): { tracker: Tracker; cache: IdbHitCache } => {
  const logger = new Logger(Level.ALL, { log: (_level, _name, message) => logs.push(message) });
  const cache = new IdbHitCache({ dbName: db, logger });
  const tracker = createTracker(
    {
      envId: 'env1',
      apiKey: 'key1',
      decisionApiUrl: `${double.url}/v2`,
      eventsUrl: `${double.url}/events`,
      config: {
        batchIntervals: 3600,
        poolMaxSize: 1_000,
        batchStrategy: BatchCachingStrategy.BATCH_CONTINUOUS_CACHING,
      },
      hitCache: cache,
      logger,
    },
    { retryBaseMs: 20 },
  );
  return { tracker, cache };
};

beforeEach(async () => {
  double = await executeServerCommand<{ id: string; url: string }, object>('double-start', {});
});
afterEach(async () => {
  await executeServerCommand('double-stop', { id: double.id });
});

describe('a full origin (real quota)', () => {
  it('hit-cache writes fail with QuotaExceededError: one warning, memory instead, each hit sent once, none left behind', async () => {
    const stamp = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const db = `feature-quota-${stamp}`;
    const filler = `feature-quota-filler-${stamp}`;
    const logs: string[] = [];
    await executeServerCommand('quota-override', { quotaSize: QUOTA });
    let tracker: Tracker | undefined;
    let cache: IdbHitCache | undefined;
    try {
      ({ tracker, cache } = makeTracker(db, logs));
      // The page had the SDK before the origin filled up: its database exists and opens.
      assert.deepEqual(await cache.lookupHits(), []);
      assert.isTrue(cache.isShared(), 'IndexedDB works before the origin is full');
      // Two hits cached in IndexedDB before the origin fills: they must leave it once sent, fallback or not.
      for (let i = 0; i < 2; i++)
        await tracker.addHit(anon, { type: 'SCREENVIEW', content: { location: `before${i}` } });
      assert.strictEqual(await countIn(db, 'hits'), 2, 'written to IndexedDB while it had room');

      const full = await fillOrigin(filler);
      // navigator.storage.estimate() keeps reporting the unoverridden quota; the usage shows where it stopped.
      const { usage } = await navigator.storage.estimate();
      console.log(`filler stopped by ${full?.name ?? 'nothing'} at usage ${usage} (override ${QUOTA})`);
      // (Chromium's usage counts some bookkeeping the quota check does not, so it may end a little above.)
      assert.isBelow(usage ?? 0, 2 * QUOTA, 'stopped by the override, not by the disk');
      assert.strictEqual(full?.name, 'QuotaExceededError', 'IndexedDB itself refused the filler');

      for (let i = 0; i < 5; i++)
        await tracker.addHit(anon, { type: 'SCREENVIEW', content: { location: `full${i}` } });
      assert.isFalse(cache.isShared(), 'the hit cache moved to memory');
      const inMemory = (await cache.lookupHits()).flatMap((b) => Object.values(b));
      assert.sameMembers(
        inMemory.map((r) => r.data.content.location),
        ['full0', 'full1', 'full2', 'full3', 'full4'],
        'the failed writes went to memory',
      );
      await tracker.flush();

      const sent = await sentHits();
      assert.sameMembers(
        sent.map((h) => h.dl),
        ['before0', 'before1', 'full0', 'full1', 'full2', 'full3', 'full4'],
      );
      const counts = new Map<string, number>();
      for (const { hid } of sent) counts.set(hid, (counts.get(hid) ?? 0) + 1);
      assert.strictEqual(counts.size, 7, 'seven distinct hids');
      for (const [hid, n] of counts) assert.strictEqual(n, 1, `hit ${hid} arrived ${n} times`);

      const warnings = logs.filter((l) => l.includes('caching in memory instead'));
      assert.lengthOf(warnings, 1, 'one storage fallback warning');
      assert.include(warnings[0], 'QuotaExceededError', "the hit cache's own write hit the quota");
      assert.deepEqual(await cache.lookupHits(), [], 'nothing pending in memory');
    } finally {
      await tracker?.close();
      await cache?.close();
      await deleteDb(filler);
      await executeServerCommand('quota-restore', {});
    }

    const probe = `feature-quota-probe-${stamp}`;
    try {
      assert.isNull(await fillOrigin(probe), `${4 * QUOTA} bytes fit again: the quota is the origin's own`);
    } finally {
      await deleteDb(probe);
    }
    const names = (await indexedDB.databases()).map((d) => d.name);
    assert.notInclude(names, filler);
    // The two hits IndexedDB held before the fallback were erased there when acknowledged: no next page resends them.
    assert.strictEqual(await countIn(db, 'hits'), 0, 'nothing left in the hit cache database');
    await deleteDb(db);
    assert.strictEqual((await sentHits()).length, 7, 'nothing sent after the flush');
  });
});

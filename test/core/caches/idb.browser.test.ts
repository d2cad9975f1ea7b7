// The IndexedDB caches in Chromium, against real IndexedDB: round trips in the formats of PROTOCOL.md §10 and
// §11, persistence across a closed and reopened connection, the memory fallback, and the first-start mark.
import { assert } from '@open-wc/testing';
import { openDB } from 'idb';
import { IdbHitCache, IdbVisitorCache, markFirstStart } from '../../../src/core/caches/idb.js';
import type { HitCacheRecord } from '../../../src/protocol/index.js';
import { defineHitCacheSuite } from './hit-cache.suite.js';

let counter = 0;
/** A fresh database name per test, so tests never see each other's data. */
const freshName = (): string => `feature-test-${Date.now()}-${++counter}`;

const visitorJson = JSON.stringify({
  version: 1,
  data: {
    visitorId: 'user-42',
    anonymousId: 'anon-7',
    consent: true,
    context: { plan: 'premium', age: 31 },
    campaigns: [],
    assignmentsHistory: { vg1: 'v2' },
    fetchedAt: 1795374650972,
  },
});

const hit = (hid: string): HitCacheRecord => ({
  version: 1,
  data: {
    visitorId: 'user-42',
    anonymousId: 'anon-7',
    type: 'EVENT',
    time: 1795374650972,
    content: {
      hid,
      createdAt: 1795374650971,
      category: 'Action_Tracking',
      action: 'add_to_cart',
      label: 'btn',
      value: 3,
    },
  },
});

/** Collects warnings instead of printing them. */
const recorder = () => {
  const warnings: string[] = [];
  return { warnings, logger: { warning: (message: string) => void warnings.push(message) } };
};

describe('IdbVisitorCache', () => {
  it('upserts, looks up and flushes visitors', async () => {
    const cache = new IdbVisitorCache({ dbName: freshName() });
    assert.strictEqual(await cache.lookupVisitor('user-42'), null);
    await cache.cacheVisitor('user-42', '{"old":true}');
    await cache.cacheVisitor('user-42', visitorJson);
    assert.strictEqual(await cache.lookupVisitor('user-42'), visitorJson);
    await cache.flushVisitor('user-42');
    assert.strictEqual(await cache.lookupVisitor('user-42'), null);
    await cache.close();
  });

  it('keeps visitors across a closed connection and a new cache object', async () => {
    const dbName = freshName();
    const first = new IdbVisitorCache({ dbName });
    await first.cacheVisitor('user-42', visitorJson);
    await first.close();
    const second = new IdbVisitorCache({ dbName });
    assert.strictEqual(await second.lookupVisitor('user-42'), visitorJson);
    await second.close();
  });
});

defineHitCacheSuite({ describe, it, assert }, 'IdbHitCache', () => {
  const cache = new IdbHitCache({ dbName: freshName() });
  return { cache, done: () => cache.close() };
});

describe('IdbHitCache', () => {
  it('stores, looks up and flushes hits by hid', async () => {
    const cache = new IdbHitCache({ dbName: freshName() });
    assert.deepEqual(await cache.lookupHits(), []);
    await cache.cacheHits({ h1: hit('h1'), h2: hit('h2') });
    await cache.cacheHits({ h3: hit('h3') });
    assert.deepEqual(await cache.lookupHits(), [{ h1: hit('h1'), h2: hit('h2'), h3: hit('h3') }]);
    await cache.flushHits(['h2', 'unknown']);
    assert.deepEqual(await cache.lookupHits(), [{ h1: hit('h1'), h3: hit('h3') }]);
    await cache.flushAllHits();
    assert.deepEqual(await cache.lookupHits(), []);
    await cache.close();
  });

  it('keeps hits across a closed connection', async () => {
    const dbName = freshName();
    const first = new IdbHitCache({ dbName });
    await first.cacheHits({ h1: hit('h1') });
    await first.close();
    const second = new IdbHitCache({ dbName });
    assert.deepEqual(await second.lookupHits(), [{ h1: hit('h1') }]);
    await second.close();
  });

  it('shares one database with the visitor cache of the same name', async () => {
    const dbName = freshName();
    const hits = new IdbHitCache({ dbName });
    const visitors = new IdbVisitorCache({ dbName });
    await hits.cacheHits({ h1: hit('h1') });
    await visitors.cacheVisitor('user-42', visitorJson);
    await hits.flushAllHits();
    assert.strictEqual(await visitors.lookupVisitor('user-42'), visitorJson);
    await Promise.all([hits.close(), visitors.close()]);
  });
});

describe('fallback to memory', () => {
  it('logs once and keeps working in memory when the database cannot be opened', async () => {
    const dbName = freshName();
    // A database of a newer version than ours: opening version 1 fails with a VersionError.
    const newer = await openDB(dbName, 5);
    newer.close();
    const { warnings, logger } = recorder();
    const hits = new IdbHitCache({ dbName, logger });
    await hits.cacheHits({ h1: hit('h1') });
    assert.deepEqual(await hits.lookupHits(), [{ h1: hit('h1') }]);
    await hits.flushHits(['h1']);
    assert.deepEqual(await hits.lookupHits(), []);
    const visitors = new IdbVisitorCache({ dbName, logger });
    await visitors.cacheVisitor('v1', '{}');
    assert.strictEqual(await visitors.lookupVisitor('v1'), '{}');
    assert.isAbove(warnings.length, 0);
    assert.strictEqual(
      warnings.every((w) => w.includes(dbName)),
      true,
    );
    assert.isAtMost(warnings.length, 2, 'once per cache object at most');
  });

  it('copies records, so a change to a stored object never changes the cache', async () => {
    const dbName = freshName();
    (await openDB(dbName, 5)).close();
    const hits = new IdbHitCache({ dbName, logger: recorder().logger });
    const record = hit('h1');
    await hits.cacheHits({ h1: record });
    record.data.time = 0;
    assert.strictEqual((await hits.lookupHits())[0]?.h1?.data.time, 1795374650972);
  });
});

describe('markFirstStart', () => {
  it('is true the first time with this storage, false after, even across connections', async () => {
    const dbName = freshName();
    assert.strictEqual(await markFirstStart({ dbName }), true);
    assert.strictEqual(await markFirstStart({ dbName }), false);
    assert.strictEqual(await markFirstStart({ dbName }), false);
    assert.strictEqual(await markFirstStart({ dbName: freshName() }), true);
  });

  it('is true once per page when IndexedDB fails', async () => {
    const dbName = freshName();
    (await openDB(dbName, 5)).close();
    const { logger } = recorder();
    assert.strictEqual(await markFirstStart({ dbName, logger }), true);
    assert.strictEqual(await markFirstStart({ dbName, logger }), false);
  });
});

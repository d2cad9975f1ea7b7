// The Redis caches (`feature-ts/redis`) against the local Redis: the SPEC.md cache interfaces with the
// records of PROTOCOL.md §10 and §11, keys per environment, time to live, and the claims that hand each
// cached hit to one process of a fleet (docs/caches.md, "Redis"). Each "process" here is a cache object of
// its own; the e2e test (test/e2e/redis-fleet.test.ts) does the same with real processes.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import {
  RedisHitCache,
  redisHitCache,
  redisVisitorCache,
  type RedisCommandClient,
} from '../../../src/core/caches/redis.js';
import { HIT_LIMITS, type HitCacheRecord } from '../../../src/protocol/index.js';
import { until } from '../../support/until.js';
import {
  connectRedis,
  deleteKeys,
  leaseEnded,
  randomPrefix,
  redisNow,
  type TestRedis,
} from './redis-support.js';
import { nodeHarness } from '../shared/node-harness.js';
import { defineHitCacheSuite } from './hit-cache.suite.js';

const hit = (hid: string, visitorId = 'v1'): HitCacheRecord => ({
  version: 1,
  data: {
    visitorId,
    anonymousId: null,
    type: 'SCREENVIEW',
    time: 2,
    content: { hid, createdAt: 1, location: 'home' },
  },
});

/** The hids of a lookup's answer (one map or none). */
const hidsOf = (found: Array<Record<string, HitCacheRecord>>): string[] =>
  found.flatMap((map) => Object.keys(map)).sort();

let redis: TestRedis;
let prefix = '';
const opened: Array<{ client?: TestRedis; cache?: RedisHitCache }> = [];

before(async () => {
  redis = await connectRedis();
});
after(() => {
  redis.destroy();
});
afterEach(async () => {
  for (const { client, cache } of opened.splice(0)) {
    await cache?.release().catch(() => undefined);
    if (client?.isOpen === true) client.destroy();
  }
  await deleteKeys(redis, prefix);
});

/** A fresh prefix for the test; its keys are deleted after it. */
const fresh = (): string => (prefix = randomPrefix());

/** A hit cache released after the test (its lease timer stopped). */
const hitCache = (client: RedisCommandClient, options: { envId?: string; leaseSeconds?: number } = {}) => {
  const cache = redisHitCache(client, { envId: 'env1', prefix, ...options });
  opened.push({ cache });
  return cache;
};

void describe('redisVisitorCache', () => {
  void it('upserts, looks up and flushes under {prefix}:{envId}:visitor:{id}', async () => {
    fresh();
    const cache = redisVisitorCache(redis, { envId: 'env1', prefix });
    assert.equal(await cache.lookupVisitor('v1'), null);
    await cache.cacheVisitor('v1', '{"a":1}');
    await cache.cacheVisitor('v1', '{"a":2}');
    assert.equal(await cache.lookupVisitor('v1'), '{"a":2}');
    assert.equal(await redis.get(`${prefix}:env1:visitor:v1`), '{"a":2}');
    await cache.flushVisitor('v1');
    assert.equal(await cache.lookupVisitor('v1'), null);
    assert.deepEqual(await redis.keys(`${prefix}:*`), []);
  });

  void it('keeps environments apart', async () => {
    fresh();
    const one = redisVisitorCache(redis, { envId: 'env1', prefix });
    const two = redisVisitorCache(redis, { envId: 'env2', prefix });
    await one.cacheVisitor('v1', '"one"');
    assert.equal(await two.lookupVisitor('v1'), null);
    await two.cacheVisitor('v1', '"two"');
    await two.flushVisitor('v1');
    assert.equal(await one.lookupVisitor('v1'), '"one"');
  });

  void it('gives each record the configured time to live, renewed at each write; 0 keeps it', async () => {
    fresh();
    const cache = redisVisitorCache(redis, { envId: 'env1', prefix, ttlSeconds: 600 });
    await cache.cacheVisitor('v1', '{}');
    await redis.expire(cache.keyOf('v1'), 5);
    await cache.cacheVisitor('v1', '{}');
    const ttl = await redis.ttl(cache.keyOf('v1'));
    assert.ok(ttl > 5 && ttl <= 600, `ttl ${ttl}`);
    const defaults = redisVisitorCache(redis, { envId: 'env1', prefix });
    await defaults.cacheVisitor('v2', '{}');
    const days = (await redis.ttl(defaults.keyOf('v2'))) / 86_400;
    assert.ok(days > 89 && days <= 90, `default ttl ${days} days`);
    const forever = redisVisitorCache(redis, { envId: 'env1', prefix, ttlSeconds: 0 });
    await forever.cacheVisitor('v3', '{}');
    assert.equal(await redis.ttl(forever.keyOf('v3')), -1, 'no expiry');
  });

  void it('throws at construction on a configuration that cannot work', () => {
    assert.throws(() => redisVisitorCache(redis, { envId: '' }), /envId/);
    assert.throws(() => redisVisitorCache(redis, { envId: 'e', prefix: '' }), /prefix/);
    assert.throws(() => redisVisitorCache(redis, { envId: 'e', ttlSeconds: -1 }), /ttlSeconds/);
    assert.throws(() => redisHitCache(redis, { envId: 'e', leaseSeconds: 0 }), /leaseSeconds/);
  });
});

defineHitCacheSuite(nodeHarness, 'redisHitCache', () => {
  fresh();
  return { cache: hitCache(redis) };
});

void describe('redisHitCache', () => {
  void it('stores by hid, returns one map, flushes some or all (like the memory cache)', async () => {
    fresh();
    const cache = hitCache(redis);
    assert.deepEqual(await cache.lookupHits(), []);
    await cache.cacheHits({ a: hit('a'), b: hit('b') });
    await cache.cacheHits({ c: hit('c') });
    await cache.cacheHits({});
    assert.deepEqual(await cache.lookupHits(), [{ a: hit('a'), b: hit('b'), c: hit('c') }]);
    await cache.flushHits(['b', 'missing']);
    await cache.flushHits([]);
    assert.deepEqual(hidsOf(await cache.lookupHits()), ['a', 'c']);
    assert.deepEqual(
      Object.keys(await redis.hGetAll(cache.keys[1])).sort(),
      ['a', 'c'],
      'claims flushed too',
    );
    await cache.flushAllHits();
    assert.deepEqual(await cache.lookupHits(), []);
  });

  void it("flushAllHits erases this environment's hits only", async () => {
    fresh();
    const one = hitCache(redis);
    const two = hitCache(redis, { envId: 'env2' });
    const visitors = redisVisitorCache(redis, { envId: 'env1', prefix });
    await visitors.cacheVisitor('v1', '{}');
    await one.cacheHits({ a: hit('a') });
    await two.cacheHits({ b: hit('b') });
    await one.flushAllHits();
    assert.deepEqual(await one.lookupHits(), []);
    assert.deepEqual(hidsOf(await two.lookupHits()), ['b']);
    assert.equal(await visitors.lookupVisitor('v1'), '{}');
  });

  void it('lets the hashes expire once every record in them is past the 4-hour limit', async () => {
    fresh();
    const cache = hitCache(redis, { leaseSeconds: 30 });
    await cache.cacheHits({ a: hit('a') });
    for (const key of cache.keys.slice(0, 2)) {
      const ttl = await redis.pTTL(key);
      assert.ok(ttl > HIT_LIMITS.maxItemAgeMs && ttl <= HIT_LIMITS.maxItemAgeMs + 30_000, `${key}: ${ttl}`);
    }
    const owners = await redis.pTTL(cache.keys[2]);
    assert.ok(owners > 0 && owners <= 30_000, `owners: ${owners}`);
  });

  void it('hands an unreadable record over as null, for the tracker to drop and flush', async () => {
    fresh();
    const cache = hitCache(redis);
    await redis.hSet(cache.keys[0], 'bad', '{not json');
    assert.deepEqual(await cache.lookupHits(), [{ bad: null }]);
  });

  void it("never hands a live process's records to another", async () => {
    fresh();
    const a = hitCache(redis);
    const b = hitCache(redis);
    await a.cacheHits({ a1: hit('a1'), a2: hit('a2') });
    await b.cacheHits({ b1: hit('b1') });
    assert.deepEqual(hidsOf(await a.lookupHits()), ['a1', 'a2'], 'its own only');
    assert.deepEqual(hidsOf(await b.lookupHits()), ['b1']);
    assert.deepEqual(hidsOf(await hitCache(redis).lookupHits()), [], 'a newcomer gets nothing');
  });

  void it('keeps the claims of a live process past its first lease (renewed on a timer)', async () => {
    fresh();
    const a = hitCache(redis, { leaseSeconds: 0.6 });
    await a.cacheHits({ a1: hit('a1') });
    const firstEnd = Number(await redis.hGet(a.keys[2], a.owner));
    await until(async () => (await redisNow(redis)) > firstEnd + 100, { what: 'past the first lease' });
    assert.deepEqual(hidsOf(await hitCache(redis).lookupHits()), []);
  });

  void it("hands a dead process's records, once its lease ended, to exactly one of the processes starting", async () => {
    fresh();
    const dying = await connectRedis();
    opened.push({ client: dying });
    const dead = redisHitCache(dying, { envId: 'env1', prefix, leaseSeconds: 0.5 });
    const hids = Array.from({ length: 40 }, (_, i) => `h${i}`);
    await dead.cacheHits(Object.fromEntries(hids.map((hid) => [hid, hit(hid)])));
    // The process dies: its connection goes, its lease timer can no longer reach Redis.
    dying.destroy();
    assert.deepEqual(hidsOf(await hitCache(redis).lookupHits()), [], 'not before its lease ends');
    await until(() => leaseEnded(redis, dead.keys[2], dead.owner), {
      what: 'the lease of the dead process ended',
    });

    const [one, two, three] = [await connectRedis(), await connectRedis(), await connectRedis()];
    opened.push({ client: one }, { client: two }, { client: three });
    const found = await Promise.all([one, two, three].map((c) => hitCache(c).lookupHits()));
    const all = found.flatMap(hidsOf);
    assert.deepEqual([...all].sort(), [...hids].sort(), 'every record handed out once');
    assert.ok(found.filter((f) => f.length > 0).length >= 1);
  });

  void it('release() hands the records over at once; a later lookup sees them but claims nothing', async () => {
    fresh();
    const a = hitCache(redis);
    const b = hitCache(redis);
    assert.deepEqual(await b.lookupHits(), [], "b's first lookup (its tracker's start): nothing yet");
    await a.cacheHits({ a1: hit('a1'), a2: hit('a2', 'v2') });
    assert.deepEqual(await b.lookupHits(), [], "a live process's records: not shown to b");
    await a.release();
    // b's later lookups (its tracker checking the cache before a send, or on consent withdrawal) see them ...
    assert.deepEqual(hidsOf(await b.lookupHits()), ['a1', 'a2']);
    await b.flushHits(['a2']);
    assert.deepEqual(await redis.hGetAll(b.keys[1]), { a1: a.owner }, '... claim nothing ...');
    // ... so the next process to start takes them, while b lives on.
    const c = hitCache(redis);
    assert.deepEqual(hidsOf(await c.lookupHits()), ['a1']);
    assert.deepEqual(await redis.hGetAll(c.keys[1]), { a1: c.owner });
    assert.deepEqual(await b.lookupHits(), [], 'and then b no longer sees them');
  });
});

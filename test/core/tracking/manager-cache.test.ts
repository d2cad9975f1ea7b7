// The tracking manager and the hit cache (PROTOCOL.md §5.3, §11): both strategies and the exact record
// format, re-sending cached records at creation, the 4-hour limit, dropVisitor, validation and close.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { MemoryHitCache } from '../../../src/core/caches/memory.js';
import { BatchCachingStrategy, EventCategory } from '../../../src/core/status.js';
import { Event } from '../../../src/core/tracking/hits.js';
import type { HitCacheRecord } from '../../../src/protocol/index.js';
import { startProtocolDouble, type ProtocolDouble } from '../../support/protocol-double.js';
import { until } from '../../support/until.js';
import { activationsOf, anonymous, cached, harness, hitsOf, loggedIn, screen } from './tracker-harness.js';

const FOUR_HOURS = 4 * 60 * 60 * 1000;

let double: ProtocolDouble;
beforeEach(async () => {
  double = await startProtocolDouble();
});
afterEach(() => double.close());

const addToCart = {
  type: 'EVENT' as const,
  content: { category: 'Action_Tracking', action: 'add_to_cart', label: 'btn', value: 3 },
};

void describe('BATCH_CONTINUOUS_CACHING', () => {
  void it('caches each item when it is created, in the record format of §11', async () => {
    const now = 1_795_374_650_971;
    const { tracker, cache } = harness(double, {}, { now: () => now });
    await tracker.addHit(loggedIn, addToCart);
    const records = await cached(cache);
    const [hid] = Object.keys(records);
    assert.ok(hid);
    assert.deepEqual(records[hid], {
      version: 1,
      data: {
        visitorId: 'user-42',
        anonymousId: 'anon-7',
        type: 'EVENT',
        time: now,
        content: {
          hid,
          createdAt: now,
          category: 'Action_Tracking',
          action: 'add_to_cart',
          label: 'btn',
          value: 3,
        },
      },
    });
    await tracker.addActivation(anonymous, {
      variationGroupId: 'vg1',
      variationId: 'v2',
      flagKey: 'btnColor',
    });
    const activation = Object.values(await cached(cache)).find((r) => r.data.type === 'ACTIVATE');
    assert.deepEqual(activation?.data.content, {
      hid: activation?.data.content.hid,
      createdAt: now,
      variationGroupId: 'vg1',
      variationId: 'v2',
      flagKey: 'btnColor',
    });
    await tracker.close();
  });

  void it('removes the cached copies once the server acknowledged them, and only then', async () => {
    let now = 1_000_000;
    const { tracker, cache } = harness(double, {}, { now: () => now });
    await tracker.addHit(anonymous, screen());
    double.script.queued.events = [{ status: 500 }];
    await tracker.flush();
    assert.equal(Object.keys(await cached(cache)).length, 1, 'kept while unacknowledged');
    now += 60_000; // past the backoff
    await tracker.flush();
    assert.deepEqual(await cached(cache), {});
    await tracker.close();
  });

  void it('marks a visitor built authenticated without anonymous id, so the record alone gives vid = cuid', async () => {
    const { tracker, cache } = harness(double);
    await tracker.addHit({ visitorId: 'user-42', anonymousId: null, authenticated: true }, screen());
    const [record] = Object.values(await cached(cache));
    assert.equal(record?.data.content.authenticated, true);
    await tracker.flush();
    const [hit] = hitsOf(double.requestsTo('events')[0]?.body);
    assert.equal(hit?.vid, 'user-42');
    assert.equal(hit.cuid, 'user-42');
    await tracker.close();
  });
});

void describe('BATCH_PERIODIC_CACHING', () => {
  void it('copies the pool to the cache every batchIntervals, removed once acknowledged', async () => {
    mock.timers.enable({ apis: ['setInterval'] });
    try {
      let now = 1_000_000;
      const { tracker, cache, logs } = harness(
        double,
        { batchIntervals: 5, batchStrategy: BatchCachingStrategy.BATCH_PERIODIC_CACHING },
        { now: () => now },
      );
      await tracker.addHit(anonymous, screen());
      assert.deepEqual(await cached(cache), {}, 'not cached at creation');
      double.script.queued.events = [{ status: 503, headers: { 'retry-after': '3600' } }];
      mock.timers.tick(5_000);
      await until(() => double.requestsTo('events').length === 1, { what: 'the interval batch' });
      await until(() => logs.some((l) => l.includes('kept, next attempt')), { what: 'the 503 handled' });
      const records = Object.values(await cached(cache));
      assert.equal(records.length, 1, 'copied at the interval, kept after the 503');
      assert.equal(records[0]?.data.type, 'SCREENVIEW');
      now += 3_600_000; // past Retry-After
      await tracker.flush();
      assert.deepEqual(await cached(cache), {});
      await tracker.close();
    } finally {
      mock.timers.reset();
    }
  });

  void it('leaves unsent items in the cache at close', async () => {
    const { tracker, cache } = harness(double, {
      batchStrategy: BatchCachingStrategy.BATCH_PERIODIC_CACHING,
    });
    await tracker.addHit(anonymous, screen());
    // close() tries twice (manager-close.test.ts): both attempts fail here.
    double.script.queued.events = [{ status: 503 }, { status: 503 }];
    await tracker.close();
    assert.equal(double.requestsTo('events').length, 2);
    assert.equal(Object.keys(await cached(cache)).length, 1);
  });
});

void describe('cached records at creation', () => {
  const record = (hid: string, createdAt: number, version = 1): HitCacheRecord =>
    ({
      version,
      data: {
        visitorId: 'anon-7',
        anonymousId: null,
        type: 'SCREENVIEW',
        time: createdAt,
        content: { hid, createdAt, location: hid },
      },
    }) as HitCacheRecord;

  void it('re-sends fresh records with their hid, flushes old, foreign-version and unreadable ones', async () => {
    const now = 1_795_374_650_971;
    const cache = new MemoryHitCache();
    await cache.cacheHits({
      fresh: record('fresh', now - 60_000),
      edge: record('edge', now - FOUR_HOURS),
      old: record('old', now - FOUR_HOURS - 1),
      v2: record('v2', now - 1_000, 2),
      junk: 'not a record' as unknown as HitCacheRecord,
      activation: {
        version: 1,
        data: {
          visitorId: 'user-42',
          anonymousId: 'anon-7',
          type: 'ACTIVATE',
          time: now - 5_000,
          content: {
            hid: 'activation',
            createdAt: now - 5_000,
            variationGroupId: 'vg1',
            variationId: 'v2',
            flagKey: 'k',
          },
        },
      },
    });
    const { tracker } = harness(double, {}, { now: () => now }, cache);
    await tracker.flush();
    assert.deepEqual(Object.keys(await cached(cache)), [], 'sent ones acknowledged, stale ones flushed');
    const hits = hitsOf(double.requestsTo('events')[0]?.body);
    // Oldest first: the order in which the pool's bounds evict.
    assert.deepEqual(
      hits.map((h) => [h.hid, h.qt]),
      [
        ['edge', FOUR_HOURS],
        ['fresh', 60_000],
      ],
    );
    assert.deepEqual(activationsOf(double.requestsTo('activate')[0]?.body), [
      { vid: 'user-42', aid: 'anon-7', caid: 'vg1', vaid: 'v2', qt: 5_000, hid: 'activation' },
    ]);
    await tracker.close();
  });

  void it('starts when the cache cannot be read', async () => {
    const cache = new MemoryHitCache();
    cache.lookupHits = () => Promise.reject(new Error('disk gone'));
    const { tracker, logs } = harness(double, {}, {}, cache);
    await tracker.addHit(anonymous, screen());
    await tracker.flush();
    assert.equal(double.requestsTo('events').length, 1);
    assert.ok(logs.some((l) => l.includes('disk gone')));
    await tracker.close();
  });
});

void describe('the 4-hour limit', () => {
  void it('drops pooled items older than 4 hours and their cached copies', async () => {
    let now = 1_000_000;
    const { tracker, cache, logs } = harness(double, {}, { now: () => now });
    await tracker.addHit(anonymous, screen());
    double.script.queued.events = [{ status: 503 }];
    await tracker.flush();
    now += FOUR_HOURS + 1;
    await tracker.flush();
    assert.equal(double.requestsTo('events').length, 1, 'not sent again');
    assert.deepEqual(await cached(cache), {});
    assert.ok(logs.some((l) => l.includes('older than 4 hours')));
    await tracker.close();
  });
});

void describe('dropVisitor', () => {
  void it("removes the visitor's pooled items and every cached copy, keeps the others", async () => {
    const { tracker, cache } = harness(double);
    await tracker.addHit(anonymous, screen('anon'));
    await tracker.addHit(loggedIn, screen('logged in'));
    await tracker.addActivation(anonymous, { variationGroupId: 'vg1', variationId: 'v1', flagKey: 'k' });
    await tracker.addHit({ visitorId: 'other', anonymousId: null, authenticated: false }, screen('other'));
    // A copy outside the pool, as another tab or an earlier beacon leaves it.
    await cache.cacheHits({
      elsewhere: {
        version: 1,
        data: {
          visitorId: 'anon-7',
          anonymousId: null,
          type: 'SCREENVIEW',
          time: 1,
          content: { hid: 'elsewhere', createdAt: 1 },
        },
      },
    });
    await tracker.dropVisitor('anon-7');
    assert.deepEqual(
      Object.values(await cached(cache)).map((r) => r.data.visitorId),
      ['other'],
    );
    await tracker.flush();
    assert.equal(double.requestsTo('activate').length, 0);
    assert.deepEqual(
      hitsOf(double.requestsTo('events')[0]?.body).map((h) => h.dl),
      ['other'],
    );
    await tracker.close();
  });
});

void describe('dropVisitor during a send', () => {
  void it("keeps a dropped visitor's items out of the pass's later requests", async () => {
    const { tracker } = harness(double, { poolMaxSize: 10_000 });
    const other = { visitorId: 'other', anonymousId: null, authenticated: false };
    // 1 500 hits of two visitors, interleaved: two requests of at most 1 000 (PROTOCOL.md §5.2).
    for (let i = 0; i < 750; i += 1) {
      await tracker.addHit(anonymous, screen(`anon ${i}`));
      await tracker.addHit(other, screen(`other ${i}`));
    }
    double.script.queued.events = [{ status: 204, delayMs: 300 }];
    const sent = tracker.flush();
    // The double holds the first request 300 ms: the drop happens while it is in flight.
    await until(() => double.requestsTo('events').length === 1, { what: 'the first request to arrive' });
    await tracker.dropVisitor('anon-7');
    await sent;
    const [first, second] = double.requestsTo('events').map((r) => hitsOf(r.body));
    assert.equal(first?.length, 1_000, 'the first request left before the drop, whole');
    assert.ok((second?.length ?? 0) > 0);
    assert.deepEqual(
      [...new Set(second?.map((h) => h.vid))],
      ['other'],
      'the second request carries none of the dropped visitor',
    );
    await tracker.close();
  });
});

void describe('input and lifecycle', () => {
  void it('sendHit refuses an invalid hit with the validation message, pooling nothing', async () => {
    const { tracker, logs } = harness(double);
    await tracker.sendHit(
      anonymous,
      new Event({ category: EventCategory.Action_Tracking, action: 'a', value: -1 }),
    );
    await tracker.flush();
    assert.equal(double.requestsTo('events').length, 0);
    assert.ok(
      logs.some(
        (l) =>
          l.startsWith('ERROR') && l.includes('hit not sent: Event value must be an integer ≥ 0, got -1'),
      ),
    );
    await tracker.close();
  });

  void it('sends a SEGMENT hit with its values stringified', async () => {
    const { tracker } = harness(double);
    await tracker.addHit(anonymous, { type: 'SEGMENT', content: { context: { plan: 'premium', age: 31 } } });
    await tracker.flush();
    assert.deepEqual(hitsOf(double.requestsTo('events')[0]?.body)[0]?.s, { plan: 'premium', age: '31' });
    await tracker.close();
  });

  void it('flushes at close, then takes nothing more', async () => {
    const { tracker, logs } = harness(double);
    await tracker.addHit(anonymous, screen('before'));
    await tracker.close();
    assert.equal(double.requestsTo('events').length, 1);
    await tracker.addHit(anonymous, screen('after'));
    await tracker.flush();
    assert.equal(double.requestsTo('events').length, 1);
    assert.ok(logs.some((l) => l.includes('closed')));
  });

  void it('survives a hit cache that fails to write, still sending', async () => {
    const cache = new MemoryHitCache();
    cache.cacheHits = () => Promise.reject(new Error('quota'));
    const { tracker, logs } = harness(double, {}, {}, cache);
    await tracker.addHit(anonymous, screen());
    await tracker.flush();
    assert.equal(double.requestsTo('events').length, 1);
    assert.ok(logs.some((l) => l.includes('quota')));
    await tracker.close();
  });
});

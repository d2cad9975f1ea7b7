// The pool's and the hit cache's bounds and the 4-hour expiry (PROTOCOL.md §5.3, §11) on every path: pool,
// cache load, retry and page hide. Clocks are fake (TrackerTuning.now); the server is a protocol double.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { MemoryHitCache } from '../../../src/core/caches/memory.js';
import { Level, Logger } from '../../../src/core/logger.js';
import { BatchCachingStrategy } from '../../../src/core/status.js';
import { createTracker } from '../../../src/core/tracking/manager.js';
import type { HitCacheRecord } from '../../../src/protocol/index.js';
import { startProtocolDouble, type ProtocolDouble } from '../../support/protocol-double.js';
import { until } from '../../support/until.js';
import { anonymous, cached, harness, hitsOf, screen } from './tracker-harness.js';

const FOUR_HOURS = 4 * 60 * 60 * 1000;

let double: ProtocolDouble;
beforeEach(async () => {
  double = await startProtocolDouble();
});
afterEach(() => double.close());

/** Every hid the double received in hit batches, in order. */
const sentHids = (): string[] =>
  double.requestsTo('events').flatMap((r) => hitsOf(r.body).map((h) => String(h.hid)));

const locations = (records: Record<string, HitCacheRecord>): string[] =>
  Object.values(records)
    .sort((a, b) => a.data.content.createdAt - b.data.content.createdAt)
    .map((r) => r.data.content.location as string);

const record = (hid: string, createdAt: number): HitCacheRecord => ({
  version: 1,
  data: {
    visitorId: 'anon-7',
    anonymousId: null,
    type: 'SCREENVIEW',
    time: createdAt,
    content: { hid, createdAt, location: hid },
  },
});

void describe('bounds', () => {
  void it('keeps the newest maxItems items in pool and cache, with one warning that counts the dropped', async () => {
    let now = 1_000_000;
    const { tracker, cache, logs } = harness(
      double,
      { poolMaxSize: 100 },
      { now: () => now, bounds: { maxItems: 5 } },
    );
    for (let i = 0; i < 8; i += 1) {
      now += 1;
      await tracker.addHit(anonymous, screen(`h${i}`));
    }
    assert.deepEqual(locations(await cached(cache)), ['h3', 'h4', 'h5', 'h6', 'h7']);
    await tracker.flush();
    const sent = double.requestsTo('events').flatMap((r) => hitsOf(r.body).map((h) => h.dl));
    assert.deepEqual(sent, ['h3', 'h4', 'h5', 'h6', 'h7']);
    const warnings = logs.filter((l) => l.includes('oldest items dropped'));
    assert.equal(warnings.length, 1, 'one warning for the episode, not one per item');
    assert.match(warnings[0] ?? '', /\b3 oldest items dropped/);
    assert.deepEqual(await cached(cache), {});
    await tracker.close();
  });

  void it('keeps the newest items within maxBytes (the JSON text of the records)', async () => {
    let now = 1_000_000;
    // Each record is 1 000 characters of location plus about 200 of fields: three fit in 4 000, four do not.
    const { tracker, cache, logs } = harness(
      double,
      { poolMaxSize: 100, batchStrategy: BatchCachingStrategy.BATCH_PERIODIC_CACHING },
      { now: () => now, bounds: { maxBytes: 4_000 } },
    );
    for (let i = 0; i < 6; i += 1) {
      now += 1;
      await tracker.addHit(anonymous, screen(`${i}`.padEnd(1_000, '.')));
    }
    await tracker.flush();
    const sent = double.requestsTo('events').flatMap((r) => hitsOf(r.body).map((h) => String(h.dl)[0]));
    assert.deepEqual(sent, ['3', '4', '5']);
    assert.ok(logs.some((l) => /\b3 oldest items dropped/.test(l)));
    assert.deepEqual(await cached(cache), {});
    await tracker.close();
  });

  void it('bounds what an earlier page left in the cache: the oldest records are flushed, not sent', async () => {
    const now = 1_795_374_650_971;
    const cache = new MemoryHitCache();
    const records: Record<string, HitCacheRecord> = {};
    for (let i = 0; i < 7; i += 1) records[`c${i}`] = record(`c${i}`, now - 60_000 + i);
    await cache.cacheHits(records);
    const { tracker, logs } = harness(double, {}, { now: () => now, bounds: { maxItems: 4 } }, cache);
    await tracker.flush();
    assert.deepEqual(sentHids(), ['c3', 'c4', 'c5', 'c6']);
    assert.deepEqual(await cached(cache), {});
    assert.equal(logs.filter((l) => /\b3 oldest items dropped/.test(l)).length, 1);
    await tracker.close();
  });

  void it('never evicts an item in flight: its answer settles it', async () => {
    let now = 1_000_000;
    const { tracker } = harness(double, { poolMaxSize: 100 }, { now: () => now, bounds: { maxItems: 2 } });
    await tracker.addHit(anonymous, screen('first'));
    double.script.queued.events = [
      { status: 200, body: { accepted: 1, duplicates: 0, rejected: [] }, delayMs: 200 },
    ];
    const sending = tracker.flush();
    await until(() => double.requestsTo('events').length > 0, { what: 'the first request in flight' });
    for (const name of ['a', 'b', 'c']) {
      now += 1;
      await tracker.addHit(anonymous, screen(name));
    }
    await sending;
    await tracker.flush();
    const sent = double.requestsTo('events').flatMap((r) => hitsOf(r.body).map((h) => h.dl));
    // "first" was in flight, so it counts but stays; of a, b, c only the newest fits beside it.
    assert.deepEqual(sent, ['first', 'c']);
    await tracker.close();
  });
});

void describe('the 4-hour limit on every path', () => {
  void it('retry: an item that waited past 4 hours for a server is dropped at the automatic retry', async () => {
    let now = 1_000_000;
    const { tracker, cache, logs } = harness(double, {}, { now: () => now, retryBaseMs: 30 });
    await tracker.addHit(anonymous, screen());
    double.script.queued.events = [{ status: 503 }];
    await tracker.flush();
    now += FOUR_HOURS + 1;
    // The retry timer fires on its own (backoff about 30 ms) and drops the item instead of sending it.
    await until(() => logs.some((l) => l.includes('older than 4 hours')), { what: 'the drop at the retry' });
    assert.deepEqual(await cached(cache), {});
    // close() runs a last pass and waits for what is in flight: had the item survived, it would be sent by now.
    await tracker.close();
    assert.equal(double.requestsTo('events').length, 1, 'only the first, failed request');
  });

  void it('cache load: a record 4 hours and 1 ms old is flushed, one exactly 4 hours old is sent', async () => {
    const now = 1_795_374_650_971;
    const cache = new MemoryHitCache();
    await cache.cacheHits({
      edge: record('edge', now - FOUR_HOURS),
      old: record('old', now - FOUR_HOURS - 1),
    });
    const { tracker } = harness(double, {}, { now: () => now }, cache);
    await tracker.flush();
    assert.deepEqual(sentHids(), ['edge']);
    assert.deepEqual(await cached(cache), {});
    await tracker.close();
  });

  void it('page hide: beacons only the items younger than 4 hours', async () => {
    let now = 1_000_000;
    let hide: (() => void) | undefined;
    const cache = new MemoryHitCache();
    const tracker = createTracker(
      {
        envId: 'env1',
        apiKey: 'key1',
        decisionApiUrl: `${double.url}/v2/`,
        eventsUrl: `${double.url}/events`,
        config: {
          batchIntervals: 3600,
          poolMaxSize: 100,
          batchStrategy: BatchCachingStrategy.BATCH_CONTINUOUS_CACHING,
        },
        hitCache: cache,
        logger: new Logger(Level.NONE),
        onPageHide: (send) => {
          hide = send;
          return () => undefined;
        },
      },
      { now: () => now },
    );
    await tracker.addHit(anonymous, screen('old'));
    now += FOUR_HOURS;
    await tracker.addHit(anonymous, screen('young'));
    now += 1;
    hide?.();
    await until(() => double.requestsTo('events').length > 0, { what: 'the beacon' });
    const sent = double.requestsTo('events').flatMap((r) => hitsOf(r.body).map((h) => h.dl));
    assert.deepEqual(sent, ['young']);
    await tracker.close();
  });
});

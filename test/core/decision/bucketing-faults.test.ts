// The bucketing source's faults (PROTOCOL.md §9.4, §16.1): malformed or truncated files, 5xx, timeouts and
// network loss keep the previous file and retry with backoff, logged once per kind; with no file at all the
// status stays SDK_INITIALIZING and every decision fails.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MemoryBucketingFileCache } from '../../../src/core/decision/bucketing-file-cache.js';
import { retryDelay } from '../../../src/core/decision/poller.js';
import { until } from '../../support/until.js';
import { startProtocolDouble } from '../../support/protocol-double.js';
import { VECTORS, vectorFile } from './bucketing-files.js';
import { assigned, bucketingTestContext, faultLines, input, scheduled } from './bucketing-harness.js';

const ctx = bucketingTestContext();

void describe('bucketing source: faults', () => {
  void test('retry delay: 1 s doubling to the cap (the interval or 5 min), ±20 % jitter', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7].map((n) => retryDelay(n, 60_000, 0.5)),
      [1000, 2000, 4000, 8000, 16_000, 32_000, 60_000],
    );
    assert.equal(retryDelay(20, 300_000, 0.5), 300_000);
    assert.equal(retryDelay(1, 60_000, 0), 800);
    assert.ok(Math.abs(retryDelay(1, 60_000, 0.999_999) - 1200) < 0.01);
  });

  void test('a 429 or 503 with Retry-After: the next download waits what the server asked (PROTOCOL.md §5.3)', async () => {
    const busy = {
      status: 429,
      headers: { 'retry-after': '7' },
      body: { message: 'slow down', code: 'rate_limited' },
    };
    ctx.double.script.queued.bucketing = [busy];
    const h = await ctx.start({ pollingIntervals: 60 });
    assert.deepEqual(scheduled(h), [7000]);
  });

  void test('no file and the first download fails: stays SDK_INITIALIZING, decisions fail, retries back off until a file arrives', async () => {
    const fail = { status: 503, body: { message: 'down', code: 'unavailable' } };
    ctx.double.script.queued.bucketing = [fail, fail, fail, fail, fail];
    const h = await ctx.start({ pollingIntervals: 5 });
    assert.deepEqual(h.statuses, [], 'no status change: the instance set SDK_INITIALIZING and it stays');
    const outcome = await h.source.decide(input('v1'));
    assert.equal(outcome.ok, false);
    for (const delay of [1000, 2000, 4000, 5000]) {
      const n = scheduled(h).length;
      ctx.timers.tick(delay);
      await until(() => scheduled(h).length === n + 1, { what: `poll number ${n + 1} scheduled` });
    }
    assert.deepEqual(scheduled(h), [1000, 2000, 4000, 5000, 5000], 'backoff capped at the 5 s interval');
    assert.equal(faultLines(h).length, 1, 'logged once per kind');
    assert.match(
      faultLines(h)[0] ?? '',
      /was refused \(answered 503.*no file yet: every flag is its default/,
    );
    ctx.timers.tick(5000);
    await until(() => h.statuses.length === 1, { what: 'the first status' });
    assert.deepEqual(h.statuses, ['SDK_INITIALIZED']);
    assert.equal(h.changed.count, 1, 'visitors who fetched while there was no file are re-evaluated');
    assert.ok((await h.source.decide(input('v1'))).ok);
  });

  void test('malformed, truncated, 5xx and timeouts keep the previous file; each kind is logged once', async () => {
    const h = await ctx.start({ pollingIntervals: 60, fileTimeoutMs: 100 });
    const before = await assigned(h.source, input(VECTORS[0].id));
    ctx.double.script.queued.bucketing = [
      { status: 200, rawBody: '{"panic":false,"campaigns":[{"id":"c1"', headers: { etag: '"t"' } },
      { status: 200, rawBody: 'not json at all', headers: { etag: '"m"' } },
      { status: 200, body: ['an array is no file'], headers: { etag: '"a"' } },
      { status: 500, body: { message: 'boom', code: 'internal' } },
      { status: 200, body: vectorFile({ panic: true }), delayMs: 1000 },
    ];
    const delays = [60_000, 1000, 2000, 4000];
    for (const delay of delays) {
      const n = scheduled(h).length;
      ctx.timers.tick(delay);
      await until(() => scheduled(h).length === n + 1, { what: `poll number ${n + 1} scheduled` });
    }
    ctx.timers.tick(8000);
    await until(() => scheduled(h).length === 6, { what: 'poll number 6 scheduled' }); // the download's own (real) timeout ends it
    assert.deepEqual(scheduled(h).slice(1), [1000, 2000, 4000, 8000, 16_000]);
    assert.deepEqual(h.statuses, ['SDK_INITIALIZED'], 'the previous file stays in use');
    assert.equal(h.changed.count, 1);
    assert.deepEqual(await assigned(h.source, input(VECTORS[0].id)), before);
    assert.equal((await h.cache.load(ctx.fileUrl()))?.etag, '"b1"', 'the cache keeps the good file');
    const lines = faultLines(h);
    assert.equal(lines.length, 3, lines.join('\n'));
    assert.match(lines[0] ?? '', /is not a bucketing file.*previous file stays in use/);
    assert.match(lines[1] ?? '', /was refused \(answered 500/);
    assert.match(lines[2] ?? '', /timed out \(no answer within 100 ms\)/);
  });

  void test('network loss: the cached file stays in use; with none, decisions fail', async () => {
    const gone = await startProtocolDouble();
    const url = `${gone.url}/cdn`;
    await gone.close();
    const cache = new MemoryBucketingFileCache();
    const file = { body: JSON.stringify(vectorFile()), etag: '"b1"', lastModified: null, savedAt: 1 };
    await cache.save(`${url}/env1/bucketing.json`, file);
    const h = await ctx.start({ url, cache });
    assert.deepEqual(h.statuses, ['SDK_INITIALIZED']);
    await until(() => faultLines(h).length === 1, { what: 'the fault line' });
    assert.ok(
      faultLines(h)[0]?.includes(
        `failed on the network (TypeError: fetch failed (connect ECONNREFUSED ${new URL(gone.url).host})) at GET ${url}/env1/bucketing.json; the previous file stays in use`,
      ),
      faultLines(h)[0],
    );
    assert.ok((await h.source.decide(input('v1'))).ok);
    assert.deepEqual(scheduled(h), [1000]);

    const none = await ctx.start({ url, cache: new MemoryBucketingFileCache() });
    assert.deepEqual(none.statuses, []);
    const outcome = await none.source.decide(input('v1'));
    if (outcome.ok) assert.fail('no file: no decision');
    assert.ok(
      outcome.reason.includes(`the download of GET ${url}/env1/bucketing.json failed`),
      outcome.reason,
    );
  });
});

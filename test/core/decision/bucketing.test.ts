// The bucketing source (PROTOCOL.md §2.5, §6, §16.1): first download, cache at start, conditional polling,
// 304, new files, panic flips, faults and backoff, against the protocol double on 127.0.0.1. Fake timers
// stand in for the polling and retry intervals only (given to the source: node:test's mock.timers replaces
// the global setTimeout, which also stops the timers of Node's own fetch); every download is a real request.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { MemoryBucketingFileCache } from '../../../src/core/decision/bucketing-file-cache.js';
import { createBucketingSource } from '../../../src/core/decision/bucketing.js';
import { retryDelay, type PollTimers } from '../../../src/core/decision/poller.js';
import type { DecisionInput, DecisionSource } from '../../../src/core/decision/source.js';
import { Level, Logger } from '../../../src/core/logger.js';
import type { FSSdkStatus } from '../../../src/core/status.js';
import type { BucketingFile } from '../../../src/protocol/index.js';
import { startProtocolDouble, type ProtocolDouble } from '../../support/protocol-double.js';
import { recordingLogs } from '../support.js';
import { VECTORS, VG25, VG50, variationId, vectorFile } from './bucketing-files.js';

/** Timers that fire only when the test moves the clock. */
class FakeTimers implements PollTimers {
  private now = 0;
  private readonly due = new Map<number, { at: number; run: () => void }>();
  private next = 0;
  setTimeout(run: () => void, ms: number): unknown {
    this.due.set(++this.next, { at: this.now + ms, run });
    return this.next;
  }
  clearTimeout(handle: unknown): void {
    this.due.delete(handle as number);
  }
  /** Moves the clock by `ms`, running the timers that fall due, in order. */
  tick(ms: number): void {
    this.now += ms;
    for (const [id, t] of [...this.due].sort((a, b) => a[1].at - b[1].at))
      if (t.at <= this.now) {
        this.due.delete(id);
        t.run();
      }
  }
}

let timers: FakeTimers;

const URL_OF = (double: ProtocolDouble): string => `${double.url}/cdn/env1/bucketing.json`;

/** A started source and what it told the instance. */
interface Harness {
  source: DecisionSource;
  statuses: FSSdkStatus[];
  changed: { count: number };
  logs: ReturnType<typeof recordingLogs>;
  cache: MemoryBucketingFileCache;
}

let double: ProtocolDouble;
const sources: DecisionSource[] = [];
beforeEach(async () => {
  timers = new FakeTimers();
  double = await startProtocolDouble({ bucketing: vectorFile() });
});
afterEach(async () => {
  for (const s of sources.splice(0)) s.close();
  await double.close();
});

const start = async (
  options: {
    cache?: MemoryBucketingFileCache;
    pollingIntervals?: number;
    url?: string;
    fileTimeoutMs?: number;
  } = {},
): Promise<Harness> => {
  const statuses: FSSdkStatus[] = [];
  const changed = { count: 0 };
  const logs = recordingLogs();
  const cache = options.cache ?? new MemoryBucketingFileCache();
  const source = await createBucketingSource({
    envId: 'env1',
    apiKey: 'key1',
    urls: { decisionApi: '', bucketing: options.url ?? `${double.url}/cdn`, events: '' },
    timeout: 2000,
    pollingIntervals: options.pollingIntervals ?? 60,
    logger: new Logger(Level.ALL, logs.manager),
    events: { status: (s) => statuses.push(s), changed: () => (changed.count += 1) },
    fileCache: cache,
    random: () => 0.5, // no jitter: the delays are exact
    timers,
    ...(options.fileTimeoutMs === undefined ? {} : { fileTimeoutMs: options.fileTimeoutMs }),
  });
  sources.push(source);
  return { source, statuses, changed, logs, cache };
};

const input = (visitorId: string, assignments: Record<string, string> = {}): DecisionInput => ({
  visitorId,
  anonymousId: null,
  context: { fs_users: visitorId },
  hasConsented: true,
  assignments,
});

/** The variation ids a decision assigns, by variation group. */
const assigned = async (source: DecisionSource, visitor: DecisionInput): Promise<Record<string, string>> => {
  const outcome = await source.decide(visitor);
  assert.ok(outcome.ok, 'the decision succeeds');
  return Object.fromEntries(outcome.decision.campaigns.map((c) => [c.variationGroupId, c.variation.id]));
};

/** Waits (on real time, which fake timers leave alone) until `check` holds. */
const settled = async (check: () => boolean): Promise<void> => {
  const deadline = performance.now() + 3000;
  while (!check()) {
    if (performance.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setImmediate(r));
  }
};

/** The delays the poller scheduled, from its debug lines. */
const scheduled = (h: Harness): number[] =>
  h.logs.lines.flatMap((l) => /next download in (\d+) ms/.exec(l.message)?.[1] ?? []).map(Number);

const faultLines = (h: Harness): string[] =>
  h.logs.lines
    .filter((l) => l.level === 'WARNING' && l.message.includes('bucketing file download'))
    .map((l) => l.message);

const bucketingRequests = (): Array<Record<string, string>> =>
  double.requestsTo('bucketing').map((r) => r.headers);

void describe('bucketing source: first file and cache at start', () => {
  void test('downloads the file, reports SDK_INITIALIZED once, caches it with its ETag and assigns per §15', async () => {
    const h = await start();
    assert.deepEqual(h.statuses, ['SDK_INITIALIZED']);
    assert.equal(bucketingRequests().length, 1);
    assert.equal(bucketingRequests()[0]?.['if-none-match'], undefined, 'no validator without a file');
    const saved = await h.cache.load(URL_OF(double));
    assert.equal(saved?.etag, '"b1"');
    assert.deepEqual(JSON.parse(saved.body), vectorFile());
    for (const v of VECTORS) {
      const outcome = await h.source.decide(input(v.id));
      assert.ok(outcome.ok);
      const expected = {
        [VG25]: variationId('variation', v.variation),
        [VG50]: variationId('variation50', v.variation50),
      };
      assert.deepEqual(await assigned(h.source, input(v.id)), expected, v.id);
      assert.deepEqual(outcome.newAssignments, expected, 'first visit: both groups allocated now');
      assert.deepEqual(outcome.decision.extras, {
        accountSettings: { enabledXPC: false, enabled1V1T: false },
      });
    }
    assert.equal(h.changed.count, 1, 'the one new file');
  });

  void test('a history keeps its variation (even at allocation 0) and is not reported as new', async () => {
    double.script.bucketing = vectorFile({ allocations25: [100, 0, 0, 0] });
    const h = await start();
    const outcome = await h.source.decide(input(VECTORS[0].id, { [VG25]: variationId('variation', 4) }));
    assert.ok(outcome.ok);
    assert.equal(outcome.decision.campaigns[0]?.variation.id, variationId('variation', 4));
    assert.deepEqual(outcome.newAssignments, { [VG50]: variationId('variation50', 1) });
  });

  void test('a cached file is usable at once; the refresh is conditional and runs in the background', async () => {
    const cache = new MemoryBucketingFileCache();
    await cache.save(URL_OF(double), {
      body: JSON.stringify(vectorFile()),
      etag: '"b1"',
      lastModified: null,
      savedAt: 1,
    });
    double.script.queued.bucketing = [{ status: 304, headers: { etag: '"b1"' }, delayMs: 300 }];
    const h = await start({ cache });
    assert.deepEqual(h.statuses, ['SDK_INITIALIZED'], 'before the network answered');
    assert.deepEqual(await assigned(h.source, input(VECTORS[0].id)), {
      [VG25]: variationId('variation', 4),
      [VG50]: variationId('variation50', 1),
    });
    await settled(() => scheduled(h).length === 1);
    assert.equal(bucketingRequests()[0]?.['if-none-match'], '"b1"');
    assert.deepEqual(scheduled(h), [60_000], 'a 304 is a success: next poll after the interval');
    assert.equal(h.changed.count, 0, 'a 304 changes nothing');
  });

  void test('a cached file in panic starts in SDK_PANIC (one change); a cached non-file is ignored', async () => {
    const cache = new MemoryBucketingFileCache();
    await cache.save(URL_OF(double), {
      body: JSON.stringify(vectorFile({ panic: true })),
      etag: '"b1"',
      lastModified: null,
      savedAt: 1,
    });
    const h = await start({ cache });
    assert.deepEqual(h.statuses, ['SDK_PANIC']);
    const outcome = await h.source.decide(input('v1'));
    assert.deepEqual(outcome, {
      ok: true,
      decision: { visitorId: 'v1', campaigns: [], panic: true },
      newAssignments: {},
    });

    await cache.save(URL_OF(double), { body: '{"panic":fa', etag: '"old"', lastModified: null, savedAt: 1 });
    const again = await start({ cache });
    assert.deepEqual(again.statuses, ['SDK_INITIALIZED'], 'the download replaced it');
    assert.ok(
      again.logs.lines.some((l) => l.message.includes('cached bucketing file is not a bucketing file')),
    );
    assert.equal(bucketingRequests().at(-1)?.['if-none-match'], undefined, 'the ignored file names no ETag');
  });
});

void describe('bucketing source: polling', () => {
  void test('polls every interval with If-None-Match; 304 keeps the file; new bytes replace it and call changed()', async () => {
    const h = await start({ pollingIntervals: 60 });
    assert.equal(h.changed.count, 1);
    timers.tick(59_999);
    await new Promise((r) => setImmediate(r));
    assert.equal(bucketingRequests().length, 1, 'not before the interval');
    timers.tick(1);
    await settled(() => scheduled(h).length === 2);
    assert.equal(bucketingRequests()[1]?.['if-none-match'], '"b1"');
    assert.equal(h.changed.count, 1, '304: no change');

    const moved: BucketingFile = vectorFile({ allocations25: [100, 0, 0, 0] });
    double.script.bucketing = moved;
    double.script.bucketingEtag = '"b2"';
    timers.tick(60_000);
    await settled(() => h.changed.count === 2);
    assert.equal(bucketingRequests()[2]?.['if-none-match'], '"b1"');
    assert.equal((await h.cache.load(URL_OF(double)))?.etag, '"b2"', 'the new file is cached with its ETag');
    // A visitor without history now lands in variation 1 (all of the allocation); §15's bucket 70 visitor.
    assert.equal((await assigned(h.source, input(VECTORS[2].id)))[VG25], variationId('variation', 1));
    await settled(() => scheduled(h).length === 3);
    timers.tick(60_000);
    await settled(() => scheduled(h).length === 4);
    assert.equal(bucketingRequests()[3]?.['if-none-match'], '"b2"');
    assert.deepEqual(h.statuses, ['SDK_INITIALIZED']);
  });

  void test('If-Modified-Since with Last-Modified when the file came without an ETag', async () => {
    const lastModified = 'Sun, 22 Nov 2026 10:00:00 GMT';
    double.script.queued.bucketing = [
      { status: 200, body: vectorFile(), headers: { 'last-modified': lastModified } },
      { status: 304 },
    ];
    const h = await start();
    assert.equal((await h.cache.load(URL_OF(double)))?.lastModified, lastModified);
    timers.tick(60_000);
    await settled(() => scheduled(h).length === 2);
    const headers = bucketingRequests()[1];
    assert.equal(headers?.['if-modified-since'], lastModified);
    assert.equal(headers['if-none-match'], undefined);
    assert.equal(h.changed.count, 1);
  });

  void test('panic in a new file → SDK_PANIC, and back → SDK_INITIALIZED; each re-evaluates visitors', async () => {
    const h = await start();
    double.script.bucketing = vectorFile({ panic: true });
    double.script.bucketingEtag = '"p1"';
    timers.tick(60_000);
    await settled(() => h.changed.count === 2);
    assert.deepEqual(h.statuses, ['SDK_INITIALIZED', 'SDK_PANIC']);
    const outcome = await h.source.decide(input('v1'));
    assert.ok(outcome.ok && outcome.decision.panic === true);

    double.script.bucketing = vectorFile();
    double.script.bucketingEtag = '"p2"';
    await settled(() => scheduled(h).length === 2);
    timers.tick(60_000);
    await settled(() => h.changed.count === 3);
    assert.deepEqual(h.statuses, ['SDK_INITIALIZED', 'SDK_PANIC', 'SDK_INITIALIZED']);
    assert.equal((await assigned(h.source, input(VECTORS[0].id)))[VG25], variationId('variation', 4));
  });
});

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

  void test('no file and the first download fails: stays SDK_INITIALIZING, decisions fail, retries back off until a file arrives', async () => {
    const fail = { status: 503, body: { message: 'down', code: 'unavailable' } };
    double.script.queued.bucketing = [fail, fail, fail, fail, fail];
    const h = await start({ pollingIntervals: 5 });
    assert.deepEqual(h.statuses, [], 'no status change: the instance set SDK_INITIALIZING and it stays');
    const outcome = await h.source.decide(input('v1'));
    assert.equal(outcome.ok, false);
    for (const delay of [1000, 2000, 4000, 5000]) {
      const n = scheduled(h).length;
      timers.tick(delay);
      await settled(() => scheduled(h).length === n + 1);
    }
    assert.deepEqual(scheduled(h), [1000, 2000, 4000, 5000, 5000], 'backoff capped at the 5 s interval');
    assert.equal(faultLines(h).length, 1, 'logged once per kind');
    assert.match(
      faultLines(h)[0] ?? '',
      /was refused \(answered 503.*no file yet: every flag is its default/,
    );
    timers.tick(5000);
    await settled(() => h.statuses.length === 1);
    assert.deepEqual(h.statuses, ['SDK_INITIALIZED']);
    assert.equal(h.changed.count, 1, 'visitors who fetched while there was no file are re-evaluated');
    assert.ok((await h.source.decide(input('v1'))).ok);
  });

  void test('malformed, truncated, 5xx and timeouts keep the previous file; each kind is logged once', async () => {
    const h = await start({ pollingIntervals: 60, fileTimeoutMs: 100 });
    const before = await assigned(h.source, input(VECTORS[0].id));
    double.script.queued.bucketing = [
      { status: 200, rawBody: '{"panic":false,"campaigns":[{"id":"c1"', headers: { etag: '"t"' } },
      { status: 200, rawBody: 'not json at all', headers: { etag: '"m"' } },
      { status: 200, body: ['an array is no file'], headers: { etag: '"a"' } },
      { status: 500, body: { message: 'boom', code: 'internal' } },
      { status: 200, body: vectorFile({ panic: true }), delayMs: 1000 },
    ];
    const delays = [60_000, 1000, 2000, 4000];
    for (const delay of delays) {
      const n = scheduled(h).length;
      timers.tick(delay);
      await settled(() => scheduled(h).length === n + 1);
    }
    timers.tick(8000);
    await settled(() => scheduled(h).length === 6); // the download's own (real) timeout ends it
    assert.deepEqual(scheduled(h).slice(1), [1000, 2000, 4000, 8000, 16_000]);
    assert.deepEqual(h.statuses, ['SDK_INITIALIZED'], 'the previous file stays in use');
    assert.equal(h.changed.count, 1);
    assert.deepEqual(await assigned(h.source, input(VECTORS[0].id)), before);
    assert.equal((await h.cache.load(URL_OF(double)))?.etag, '"b1"', 'the cache keeps the good file');
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
    const h = await start({ url, cache });
    assert.deepEqual(h.statuses, ['SDK_INITIALIZED']);
    await settled(() => faultLines(h).length === 1);
    assert.match(faultLines(h)[0] ?? '', /failed on the network.*previous file stays in use/);
    assert.ok((await h.source.decide(input('v1'))).ok);
    assert.deepEqual(scheduled(h), [1000]);

    const none = await start({ url, cache: new MemoryBucketingFileCache() });
    assert.deepEqual(none.statuses, []);
    assert.equal((await none.source.decide(input('v1'))).ok, false);
  });
});

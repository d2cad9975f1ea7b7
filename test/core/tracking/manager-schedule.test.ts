// manager-schedule.ts, through the tracker (PROTOCOL.md §5.3). First the retry defect of issue 33: after a
// 503 with `Retry-After: 1` and an event loop kept busy past the backoff, a batch-interval pass starts just
// as the backoff ends; the old retry timer fires while that pass is in flight, and when the pass gets a 429
// with `Retry-After: 5` no pass of any kind may send before those 5 s are over. Time is the injected clock
// and node:test's mock timers, never a sleep; the endpoint is a real HTTP server on 127.0.0.1 whose answers
// the test releases one by one.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, it, mock } from 'node:test';
import { MemoryHitCache } from '../../../src/core/caches/memory.js';
import { Level, Logger } from '../../../src/core/logger.js';
import { createTracker } from '../../../src/core/tracking/manager.js';
import { BatchCachingStrategy } from '../../../src/core/status.js';
import { anonymous, harness, hitsOf, screen } from './tracker-harness.js';

/** A request the endpoint received, with the tracker's clock when it arrived. */
interface Arrival {
  at: number;
  body: unknown;
}

/** What the endpoint answers one request with; `held` answers only once {@link Endpoint.release} says so. */
interface Answer {
  status: number;
  headers?: Record<string, string>;
  held?: boolean;
}

/** The endpoint: records each request and answers from a script, in order (200 `{}` once it is used up). */
interface Endpoint {
  url: string;
  arrivals: Arrival[];
  /** Resolves once `n` requests have arrived. */
  arrived(n: number): Promise<void>;
  /** Sends the answer held for request `n` (1-based). */
  release(n: number): void;
  close(): Promise<void>;
}

const startEndpoint = async (clock: () => number, script: Answer[]): Promise<Endpoint> => {
  const arrivals: Arrival[] = [];
  const held = new Map<number, () => void>();
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  const answer = (res: ServerResponse, { status, headers }: Answer): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(status === 200 ? '{}' : '{"message":"later","code":"unavailable"}');
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      arrivals.push({ at: clock(), body: JSON.parse(Buffer.concat(chunks).toString()) as unknown });
      const n = arrivals.length;
      const scripted = script[n - 1] ?? { status: 200 };
      if (scripted.held) held.set(n, () => answer(res, scripted));
      else answer(res, scripted);
      for (const w of waiting.filter((w) => w.n <= n)) w.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    arrived: (n) =>
      arrivals.length >= n ? Promise.resolve() : new Promise((resolve) => waiting.push({ n, resolve })),
    release: (n) => held.get(n)?.(),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
};

let endpoint: Endpoint | undefined;
afterEach(async () => {
  mock.timers.reset();
  await endpoint?.close();
});

void describe('retries (PROTOCOL.md §5.3)', () => {
  void it('a 429 met by an interval pass that started as the backoff ended: nothing is sent before its Retry-After', async () => {
    mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
    const start = 1_000_000;
    let now = start;
    endpoint = await startEndpoint(
      () => now,
      [
        { status: 503, headers: { 'retry-after': '1' } },
        { status: 429, headers: { 'retry-after': '5' }, held: true },
      ],
    );
    const { tracker, logs } = harness(
      endpoint,
      { batchIntervals: 1 },
      { now: () => now, requestTimeoutMs: 600_000 },
    );

    // At 0.5 s: a hit, sent at once; the 503 asks for 1 s, so the retry timer is due at 1.5 s.
    mock.timers.tick(500);
    now += 500;
    await tracker.addHit(anonymous, screen());
    await tracker.flush();
    assert.equal(endpoint.arrivals.length, 1);
    assert.ok(logs.some((l) => l.includes('next attempt in 1000 ms')));

    // The event loop is kept busy for 2.5 s: the clock moves on, no timer runs. Then the timers run in the
    // order they were due: the interval (due at 1 s) first, whose pass finds the backoff over and sends...
    now += 2_500;
    mock.timers.tick(500);
    await endpoint.arrived(2);
    // ...and, while that request is in flight, the old retry timer (due at 1.5 s).
    mock.timers.tick(500);
    endpoint.release(2);
    const answeredAt = now;
    const retryAt = answeredAt + 5_000;

    // Every pass queued meanwhile (the retry timer's, this flush's) has run once the flush resolves.
    await tracker.flush();
    assert.ok(logs.some((l) => l.includes('next attempt in 5000 ms')));
    assert.equal(endpoint.arrivals.length, 2, 'no pass of any kind sends before Retry-After');

    // A timer that fires a millisecond before the clock says the wait is over sends nothing either.
    now = retryAt - 1;
    mock.timers.tick(5_000);
    await tracker.flush();
    assert.equal(endpoint.arrivals.length, 2, 'not even 1 ms before');

    // Once the wait is over, the retry goes by itself, with the same hid.
    now = retryAt;
    mock.timers.tick(1);
    await endpoint.arrived(3);
    const [first, , third] = endpoint.arrivals;
    assert.ok(
      (third?.at ?? 0) >= retryAt,
      `the third request came ${(third?.at ?? 0) - answeredAt} ms after the 429`,
    );
    assert.equal(hitsOf(third?.body)[0]?.hid, hitsOf(first?.body)[0]?.hid);
    await tracker.close();
  });

  void it('page hide sends no beacon before Retry-After (§5.3 makes no exception), and does after it', async () => {
    let now = 1_000_000;
    let hide = (): void => undefined;
    endpoint = await startEndpoint(() => now, [{ status: 503, headers: { 'retry-after': '60' } }]);
    const tracker = createTracker(
      {
        envId: 'env1',
        apiKey: 'key1',
        decisionApiUrl: `${endpoint.url}/v2/`,
        eventsUrl: `${endpoint.url}/events`,
        config: {
          batchIntervals: 3600,
          poolMaxSize: 100,
          batchStrategy: BatchCachingStrategy.BATCH_CONTINUOUS_CACHING,
        },
        hitCache: new MemoryHitCache(),
        logger: new Logger(Level.NONE),
        onPageHide: (send) => {
          hide = send;
          return () => undefined;
        },
      },
      { now: () => now },
    );
    await tracker.addHit(anonymous, screen());
    await tracker.flush();
    // Node has no navigator.sendBeacon: a beacon is a keepalive fetch, started within the page-hide call.
    const beacons = mock.method(globalThis, 'fetch');
    hide();
    assert.equal(beacons.mock.callCount(), 0, 'no beacon while the server asked to wait');
    now += 60_000;
    hide();
    assert.equal(beacons.mock.callCount(), 1, 'a beacon once the wait is over');
    beacons.mock.restore();
    await endpoint.arrived(2);
    await tracker.close();
  });

  void it('close() waits out a short Retry-After, then sends', async () => {
    mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
    let now = 1_000_000;
    endpoint = await startEndpoint(() => now, [{ status: 429, headers: { 'retry-after': '2' } }]);
    const { tracker } = harness(endpoint, {}, { now: () => now });
    await tracker.addHit(anonymous, screen());
    await tracker.flush();
    assert.equal(endpoint.arrivals.length, 1);
    const answeredAt = now;
    let closed = false;
    const closing = tracker.close().then(() => (closed = true));
    // close() is waiting for the 2 s the server asked for: nothing goes before them.
    await tracker.flush();
    assert.equal(endpoint.arrivals.length, 1);
    assert.equal(closed, false, 'close() waits');
    // The timer fires while the clock is still 5 ms short of the end (timers may run a little early): close()
    // waits again rather than leave with nothing sent.
    now = answeredAt + 1_995;
    mock.timers.tick(2_001);
    await tracker.flush();
    assert.equal(endpoint.arrivals.length, 1, 'not before the clock says the wait is over');
    assert.equal(closed, false);
    now = answeredAt + 2_000;
    mock.timers.tick(6);
    await endpoint.arrived(2);
    await closing;
    const [first, second] = endpoint.arrivals;
    assert.ok((second?.at ?? 0) >= answeredAt + 2_000);
    assert.equal(hitsOf(second?.body)[0]?.hid, hitsOf(first?.body)[0]?.hid);
  });

  void it('close() called while a pass is in flight waits out the Retry-After that pass then meets', async () => {
    mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
    let now = 1_000_000;
    endpoint = await startEndpoint(() => now, [{ status: 429, headers: { 'retry-after': '1' }, held: true }]);
    const { tracker } = harness(endpoint, {}, { now: () => now });
    await tracker.addHit(anonymous, screen());
    const flushing = tracker.flush();
    await endpoint.arrived(1);
    const closing = tracker.close();
    endpoint.release(1);
    await flushing;
    const answeredAt = now;
    now = answeredAt + 1_000;
    mock.timers.tick(1_001);
    await endpoint.arrived(2);
    await closing;
    const [first, second] = endpoint.arrivals;
    assert.equal(endpoint.arrivals.length, 2, 'close() sent once the wait was over');
    assert.equal(hitsOf(second?.body)[0]?.hid, hitsOf(first?.body)[0]?.hid);
  });

  void it('a Retry-After of 30 days waits 4 hours (items are dropped then anyway), with one timer', async () => {
    mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
    let now = 1_000_000;
    endpoint = await startEndpoint(
      () => now,
      [{ status: 503, headers: { 'retry-after': String(30 * 86_400) } }],
    );
    const { tracker, logs } = harness(endpoint, { batchIntervals: 3600 }, { now: () => now });
    await tracker.addHit(anonymous, screen());
    await tracker.flush();
    assert.ok(
      logs.some((l) => l.includes(`next attempt in ${4 * 3_600_000} ms`)),
      logs.join('\n'),
    );
    // Nearly 4 hours later nothing was sent, and the retry timer did not fire early in a loop.
    const timers = mock.method(globalThis, 'setTimeout');
    now += 4 * 3_600_000 - 1_000;
    mock.timers.tick(4 * 3_600_000 - 1_000);
    await tracker.flush();
    assert.equal(endpoint.arrivals.length, 1);
    assert.ok(timers.mock.callCount() <= 2, `${timers.mock.callCount()} timers set`);
    timers.mock.restore();
    // At 4 hours the retry goes (the hit, 4 hours old, is not yet past its age).
    now += 1_000;
    mock.timers.tick(1_000);
    await endpoint.arrived(2);
    await tracker.close();
  });

  void it('close() after a Retry-After longer than it waits sends nothing and keeps the hits in the cache', async () => {
    const now = 1_000_000;
    endpoint = await startEndpoint(() => now, [{ status: 429, headers: { 'retry-after': '60' } }]);
    const { tracker, cache } = harness(endpoint, {}, { now: () => now });
    await tracker.addHit(anonymous, screen());
    await tracker.flush();
    await tracker.close();
    assert.equal(endpoint.arrivals.length, 1, 'closed without waiting 60 s, and without sending');
    const cached = (await cache.lookupHits()).flatMap((batch) => Object.keys(batch));
    assert.equal(cached.length, 1, 'the hit is kept for the next start');
  });

  void it('a clock stepped back before the failure ends the wait rather than stretching it', async () => {
    let now = 1_000_000;
    endpoint = await startEndpoint(() => now, [{ status: 503, headers: { 'retry-after': '3600' } }]);
    const { tracker } = harness(endpoint, {}, { now: () => now });
    await tracker.addHit(anonymous, screen());
    await tracker.flush();
    await tracker.flush();
    assert.equal(endpoint.arrivals.length, 1, 'the wait holds');
    now -= 10_000; // the system clock is corrected back by 10 s
    await tracker.flush();
    assert.equal(endpoint.arrivals.length, 2);
    await tracker.close();
  });
});

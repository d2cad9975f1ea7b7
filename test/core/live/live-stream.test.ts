// The live-update stream's connection (PROTOCOL.md §17) against the protocol double's stream route, through
// the Node transport: reconnect backoff (×3 from 1 s, jitter, 5 min cap), Last-Event-ID, the refresh after a
// reconnect, Retry-After, hidden tabs and close. Timers and random numbers are the test's: no real second is
// waited; `until` waits only for sockets.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { startLiveUpdates, type LiveUpdates } from '../../../src/core/live/live-updates.js';
import { HIDDEN_CLOSE_MS, reconnectDelay } from '../../../src/core/live/live-stream.js';
import { Level, Logger } from '../../../src/core/logger.js';
import { openStream } from '../../../src/core/net/node-transport.js';
import type { Visibility } from '../../../src/core/platform/platform.js';
import { Mode } from '../../../src/core/status.js';
import { startProtocolDouble, type ProtocolDouble } from '../../support/protocol-double.js';
import { until } from '../../support/until.js';
import { FakeTimers } from '../decision/bucketing-harness.js';
import { recordingLogs } from '../support.js';

/** A page whose visibility the test sets. */
class FakeVisibility implements Visibility {
  #hidden = false;
  readonly #listeners = new Set<(hidden: boolean) => void>();
  hidden(): boolean {
    return this.#hidden;
  }
  onChange(changed: (hidden: boolean) => void): () => void {
    this.#listeners.add(changed);
    return () => this.#listeners.delete(changed);
  }
  set(hidden: boolean): void {
    this.#hidden = hidden;
    for (const listener of this.#listeners) listener(hidden);
  }
  listeners(): number {
    return this.#listeners.size;
  }
}

void describe('live-update stream (PROTOCOL.md §17)', () => {
  let double: ProtocolDouble;
  let timers: FakeTimers;
  let live: LiveUpdates | undefined;
  let refreshes: number;
  let logs: ReturnType<typeof recordingLogs>;
  beforeEach(async () => {
    double = await startProtocolDouble();
    timers = new FakeTimers();
    refreshes = 0;
    logs = recordingLogs();
  });
  afterEach(async () => {
    live?.close();
    live = undefined;
    await double.close();
  });

  // Decision-API mode unless a test says otherwise: bucketing mode also refreshes when the stream first opens,
  // which its own test covers.
  const start = (random = 0.5, visibility?: Visibility, mode: Mode = Mode.DECISION_API): void => {
    live = startLiveUpdates({
      options: { serverUrl: double.url, envId: 'env1', mode, bucketingPollingIntervals: 60 },
      logger: new Logger(Level.ALL, logs.manager),
      refresh: () => {
        refreshes++;
        return Promise.resolve();
      },
      visibility,
      timers,
      random: () => random,
      openStream,
    });
  };
  const openCount = (n: number) =>
    until(() => double.streams.open() === n && double.streams.opened(), { what: `${n} open stream(s)` });
  const armed = (what: string) => until(() => timers.pending().length > 0, { what });
  const lines = (pattern: RegExp) => logs.lines.filter((l) => pattern.test(l.message));

  void it('backoff: 1 s ×3 per failure, ±20 % jitter, never past 5 minutes', () => {
    // The rule itself, at the jitter's bounds (random 0 and just under 1) and midpoint.
    const nominal = [1000, 3000, 9000, 27000, 81000, 243000, 250000, 250000];
    nominal.forEach((ms, failures) => {
      assert.equal(reconnectDelay(failures, 0.5), ms);
      assert.equal(reconnectDelay(failures, 0), ms * 0.8);
      assert.ok(reconnectDelay(failures, 0.999_999) <= ms * 1.2);
    });
    assert.ok(reconnectDelay(40, 0.999_999) <= 300_000);
  });

  void it('a change event refreshes at once; the stream is reopened with backoff after each end', async () => {
    start();
    await openCount(1);
    double.streams.push(7);
    await until(() => refreshes === 1, { what: 'the refresh after change 7' });
    assert.equal(lines(/change 7 received/).length, 1);
    // The stream is refused three times: waits grow ×3 (random 0.5: no jitter).
    double.script.queued.stream = [{ status: 502 }, { status: 502 }, { status: 502 }];
    double.streams.end();
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      await armed(`reconnect timer ${i + 1}`);
      const [wait] = timers.pending();
      waits.push(wait ?? -1);
      timers.tick(wait ?? 0);
    }
    assert.deepEqual(waits, [1000, 3000, 9000, 27000]);
    await openCount(1);
    assert.equal(double.streams.opened(), 2);
    assert.ok(lines(/reconnecting in 3000 ms \(the server answered 502\)/).length <= 1);
    assert.match(
      lines(/reconnecting in 1000 ms/)[0]?.message ?? '',
      /the server ended the stream.*flags change only when fetchFlags is called/,
    );
  });

  void it('bucketing mode refreshes when the stream first opens; decision-API mode only after failed attempts', async () => {
    start(0.5, undefined, Mode.BUCKETING);
    await openCount(1);
    await until(() => refreshes === 1, { what: 'the conditional download at the first open' });
    assert.match(
      lines(/is open/)[0]?.message ?? '',
      /live updates: the stream .* is open\.$/,
      'a first open after no failure says nothing was missed',
    );
    live?.close();
    await openCount(0);
    refreshes = 0;
    // A first attempt refused: what changed until the stream opened reached nobody, so it refreshes then.
    double.script.queued.stream = [{ status: 503, headers: { 'retry-after': '1' } }];
    start();
    await armed('the retry after the refusal');
    assert.equal(refreshes, 0);
    timers.tick(timers.pending()[0] ?? 0);
    await openCount(1);
    await until(() => refreshes === 1, { what: 'the refresh at the first open after a failure' });
    assert.match(lines(/is open: re-fetching/)[0]?.message ?? '', /a change may have been missed/);
  });

  void it('a 200 that is not an event stream (a site page at that path) is no stream: no refresh, the waits grow', async () => {
    double.script.queued.stream = [
      { status: 200, body: { page: 'a catch-all page' } },
      { status: 200, body: { page: 'a catch-all page' } },
    ];
    start();
    const waits: number[] = [];
    for (let i = 0; i < 2; i++) {
      await armed(`reconnect timer ${i + 1}`);
      const [wait] = timers.pending();
      waits.push(wait ?? -1);
      timers.tick(wait ?? 0);
    }
    assert.deepEqual(waits, [1000, 3000], 'backs off as after any failure');
    await openCount(1);
    assert.equal(refreshes, 1, 'only the real stream, opened after the failures, refreshes');
    assert.match(
      lines(/not text\/event-stream/)[0]?.message ?? '',
      /the answer is "application\/json; charset=utf-8", not text\/event-stream: is the server URL the feature server's\?/,
    );
  });

  void it("a server's retry field waits at most 5 minutes", async () => {
    start();
    await openCount(1);
    double.streams.write('retry: 3600000\n\n');
    await until(() => lines(/./).length > 0 && double.streams.open() === 1, { what: 'the retry field read' });
    double.streams.end();
    await armed('the reconnect timer');
    assert.deepEqual(timers.pending(), [300_000]);
  });

  void it('jitter: the wait lies within ±20 % of the nominal one', async () => {
    start(0);
    await openCount(1);
    double.streams.end();
    await armed('the reconnect timer');
    assert.deepEqual(timers.pending(), [800]);
    live?.close();
    start(0.999);
    await openCount(1);
    double.streams.end();
    await armed('the reconnect timer');
    assert.equal(Math.round(timers.pending()[0] ?? 0), Math.round(1000 * (0.8 + 0.4 * 0.999)));
  });

  void it('reconnects with Last-Event-ID and refreshes after the reconnect (a change may have been missed)', async () => {
    start();
    await openCount(1);
    assert.equal(double.requestsTo('stream')[0]?.headers['last-event-id'], undefined);
    double.streams.push(41);
    double.streams.push(42);
    await until(() => refreshes === 2, { what: 'two refreshes' });
    double.streams.end();
    await armed('the reconnect timer');
    timers.tick(1000);
    await until(() => double.requestsTo('stream').length === 2 && refreshes === 3, {
      what: 'the reconnect and its refresh',
    });
    assert.equal(double.requestsTo('stream')[1]?.headers['last-event-id'], '42');
    assert.equal(double.requestsTo('stream')[1]?.headers.accept, 'text/event-stream');
  });

  void it('a 503 with Retry-After waits at least that long; a broken connection backs off too', async () => {
    double.script.queued.stream = [{ status: 503, headers: { 'retry-after': '5' }, body: { code: 'x' } }];
    start();
    await armed('the retry after the 503');
    assert.deepEqual(timers.pending(), [5000]);
    assert.equal(lines(/reconnecting in 5000 ms \(the server answered 503\)/).length, 1);
    timers.tick(5000);
    await openCount(1);
    // A first open after a refusal: a change made meanwhile reached nobody, so it refreshes.
    await until(() => refreshes === 1, { what: 'the refresh at the first open after the 503' });
    await double.close();
    await armed('the reconnect after the server went away');
    assert.deepEqual(timers.pending(), [3000]);
    assert.equal(lines(/the stream failed/).length, 1);
  });

  void it('a ping shows a live stream: the backoff starts over after it', async () => {
    double.script.queued.stream = [{ status: 502 }, { status: 502 }];
    start();
    for (const wait of [1000, 3000]) {
      await armed(`the ${wait} ms timer`);
      assert.deepEqual(timers.pending(), [wait]);
      timers.tick(wait);
    }
    await openCount(1);
    // The ping and the end go out in this order on one connection: the ping reaches the parser first.
    double.streams.write(': ping\n\n');
    double.streams.end();
    await armed('the reconnect timer');
    assert.deepEqual(timers.pending(), [1000]);
  });

  void it('a tab hidden 20 s closes its stream; shown again, it reopens and refreshes', async () => {
    const page = new FakeVisibility();
    start(0.5, page);
    await openCount(1);
    page.set(true);
    assert.deepEqual(timers.pending(), [HIDDEN_CLOSE_MS]);
    timers.tick(10_000);
    page.set(false); // back before 20 s: nothing closes
    assert.deepEqual(timers.pending(), []);
    page.set(true);
    timers.tick(HIDDEN_CLOSE_MS);
    await openCount(0);
    assert.deepEqual(timers.pending(), [], 'no reconnect while hidden');
    assert.equal(refreshes, 0);
    page.set(false);
    await until(() => double.streams.open() === 1 && refreshes === 1, {
      what: 'the stream reopened, and the refresh',
    });
    assert.equal(double.streams.opened(), 2);
  });

  void it('a page that starts hidden closes its stream after 20 s as well', async () => {
    const page = new FakeVisibility();
    page.set(true);
    start(0.5, page);
    await openCount(1);
    timers.tick(HIDDEN_CLOSE_MS);
    await openCount(0);
  });

  void it('close() ends the stream, the timers and the visibility listener; nothing reopens it', async () => {
    const page = new FakeVisibility();
    start(0.5, page);
    await openCount(1);
    page.set(true);
    live?.close();
    await openCount(0);
    assert.deepEqual(timers.pending(), []);
    assert.equal(page.listeners(), 0);
    double.streams.push(3);
    assert.equal(refreshes, 0);
  });

  void it('an unknown environment (404) is retried with backoff, and said in the log', async () => {
    double.script.envId = 'other';
    start();
    await armed('the retry after the 404');
    assert.deepEqual(timers.pending(), [1000]);
    assert.equal(
      lines(/the server answered 404: an unknown environment, or a server without live updates/).length,
      1,
    );
  });
});

// The tracking manager against the protocol double (PROTOCOL.md §4, §5.3, §5.4): batching by size and by
// interval, request bodies, answers, retries with the same hid, acknowledgements, concurrency.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { startProtocolDouble, type ProtocolDouble } from '../../support/protocol-double.js';
import { activationsOf, anonymous, harness, hitsOf, loggedIn, screen } from './tracker-harness.js';
import { until } from '../../support/until.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let double: ProtocolDouble;
beforeEach(async () => {
  double = await startProtocolDouble();
});
afterEach(() => double.close());

void describe('batching', () => {
  void it('sends the pool when it holds poolMaxSize items, in the batch form of §5', async () => {
    const { tracker } = harness(double, { poolMaxSize: 3 });
    await tracker.addHit(anonymous, screen('a'));
    await tracker.addHit(loggedIn, screen('b'));
    await tracker.addHit(anonymous, screen('c'));
    await until(() => double.requestsTo('events').length === 1, { what: 'one batch' });
    // The first request to arrive holds all three: the first two stayed pooled until the third came.
    const [request] = double.requestsTo('events');
    assert.equal(request?.headers['content-type'], 'text/plain');
    const body = request.body as Record<string, unknown>;
    assert.equal(body.cid, 'env1');
    assert.equal(body.ds, 'APP');
    assert.equal(body.t, 'BATCH');
    const hits = hitsOf(body);
    assert.deepEqual(
      hits.map((h) => [h.t, h.vid, h.cuid, h.dl]),
      [
        ['SCREENVIEW', 'anon-7', null, 'a'],
        ['SCREENVIEW', 'anon-7', 'user-42', 'b'],
        ['SCREENVIEW', 'anon-7', null, 'c'],
      ],
    );
    for (const hit of hits) assert.match(String(hit.hid), UUID_V4);
    assert.equal(new Set(hits.map((h) => h.hid)).size, 3, 'one hid per hit');
    await tracker.close();
  });

  void it('sends the pool every batchIntervals seconds', async () => {
    mock.timers.enable({ apis: ['setInterval'] });
    try {
      const { tracker } = harness(double, { batchIntervals: 5 });
      await tracker.addHit(anonymous, screen());
      mock.timers.tick(4_999);
      // A marker added just before the interval ends: had a batch left at 4 999 ms, the first request would
      // hold the first hit alone.
      await tracker.addHit(anonymous, screen('marker'));
      mock.timers.tick(1);
      await until(() => double.requestsTo('events').length === 1, { what: 'the interval batch' });
      assert.deepEqual(
        hitsOf(double.requestsTo('events')[0]?.body).map((h) => h.dl),
        ['checkout', 'marker'],
        'both hits in the one batch at 5 000 ms',
      );
      await tracker.addHit(anonymous, screen('second'));
      mock.timers.tick(5_000);
      await until(() => double.requestsTo('events').length === 2, { what: 'the next interval batch' });
      assert.equal(hitsOf(double.requestsTo('events')[1]?.body)[0]?.dl, 'second');
      await tracker.close();
    } finally {
      mock.timers.reset();
    }
  });

  void it('sends activations to /v2/activate with the API key, cid on top and a hid (§4)', async () => {
    const { tracker } = harness(double);
    await tracker.addActivation(loggedIn, {
      variationGroupId: 'vg1',
      variationId: 'v2',
      flagKey: 'btnColor',
    });
    await tracker.flush();
    const [request] = double.requestsTo('activate');
    assert.equal(request?.headers['x-api-key'], 'key1');
    assert.equal(request.headers['content-type'], 'application/json');
    const body = request.body as { cid: string; batch: Array<Record<string, unknown>> };
    assert.equal(body.cid, 'env1');
    const [item] = body.batch;
    assert.match(String(item?.hid), UUID_V4);
    assert.deepEqual(
      { ...item, hid: 'h', qt: 0 },
      { vid: 'user-42', aid: 'anon-7', caid: 'vg1', vaid: 'v2', qt: 0, hid: 'h' },
    );
    assert.equal(double.requestsTo('events').length, 0, 'no hit request without hits');
    await tracker.close();
  });

  void it('splits activations into requests of at most 100', async () => {
    const { tracker } = harness(double, { poolMaxSize: 1_000 });
    for (let i = 0; i < 250; i += 1)
      await tracker.addActivation(anonymous, { variationGroupId: `vg${i}`, variationId: 'v1', flagKey: 'k' });
    await tracker.flush();
    const sizes = double.requestsTo('activate').map((r) => activationsOf(r.body).length);
    assert.deepEqual(sizes, [100, 100, 50]);
    const groups = double.requestsTo('activate').flatMap((r) => activationsOf(r.body).map((a) => a.caid));
    assert.equal(new Set(groups).size, 250, 'every activation sent once');
    await tracker.close();
  });

  void it('splits hits into requests of at most 2 MB', async () => {
    const { tracker } = harness(double, { poolMaxSize: 10_000 });
    // 600 hits of about 4.2 KB each ('é' is 2 bytes in UTF-8): about 2.5 MB in all, so two requests.
    for (let i = 0; i < 600; i += 1) await tracker.addHit(anonymous, screen(`${i}:`.padEnd(2_048, 'é')));
    await tracker.flush();
    const requests = double.requestsTo('events');
    assert.equal(requests.length, 2);
    for (const request of requests) assert.ok(request.bytes <= 2 * 1024 * 1024, `${request.bytes} bytes`);
    assert.ok(
      (requests[0]?.bytes ?? 0) > 2 * 1024 * 1024 - 20_000,
      'the first request is filled up (within 1 %)',
    );
    assert.equal(
      requests.reduce((n, r) => n + hitsOf(r.body).length, 0),
      600,
    );
    await tracker.close();
  });

  void it('computes qt when the request body is built', async () => {
    let now = 1_000_000;
    const { tracker } = harness(double, {}, { now: () => now });
    await tracker.addHit(anonymous, screen());
    now += 950;
    double.script.queued.events = [{ status: 503 }];
    await tracker.flush();
    now += 3_000;
    await tracker.flush();
    const [first, second] = double.requestsTo('events').map((r) => hitsOf(r.body)[0]);
    assert.equal(first?.qt, 950);
    assert.equal(second?.qt, 3_950);
    assert.equal(first.hid, second.hid, 'a retry keeps the hid (§5.4)');
    await tracker.close();
  });
});

void describe('answers', () => {
  void it('keeps items on 500 and sends them again with the same hid, then forgets them', async () => {
    let now = 1_000_000;
    const { tracker, logs } = harness(double, {}, { now: () => now });
    await tracker.addHit(anonymous, screen());
    await tracker.addActivation(anonymous, { variationGroupId: 'vg1', variationId: 'v1', flagKey: 'k' });
    double.script.queued.activate = [{ status: 500, body: { message: 'boom', code: 'internal' } }];
    await tracker.flush();
    assert.ok(logs.some((l) => l.startsWith('WARNING') && l.includes('kept')));
    now += 60_000; // past the backoff: no pass sends before it is over
    await tracker.flush();
    await tracker.flush();
    const activations = double.requestsTo('activate').map((r) => activationsOf(r.body)[0]?.hid);
    assert.equal(activations.length, 2);
    assert.equal(activations[0], activations[1]);
    assert.equal(
      double.requestsTo('events').length,
      1,
      'the pass stopped at the failure, then sent hits once',
    );
    await tracker.close();
  });

  void it('retries by itself after Retry-After', async () => {
    const { tracker } = harness(double);
    double.script.queued.events = [{ status: 429, headers: { 'retry-after': '0' } }];
    await tracker.addHit(anonymous, screen());
    await tracker.flush();
    await until(() => double.requestsTo('events').length === 2, { what: 'the retry' });
    const [a, b] = double.requestsTo('events').map((r) => hitsOf(r.body)[0]?.hid);
    assert.equal(a, b);
    await tracker.close();
  });

  void it('retries by itself with backoff when no Retry-After is given, on timeouts too', async () => {
    const { tracker } = harness(double, {}, { requestTimeoutMs: 50 });
    double.script.queued.events = [{ status: 502 }, { status: 200, body: {}, delayMs: 300 }];
    await tracker.addHit(anonymous, screen());
    await tracker.flush();
    await until(() => double.requestsTo('events').length === 3, { what: 'two retries' });
    const hids = new Set(double.requestsTo('events').map((r) => hitsOf(r.body)[0]?.hid));
    assert.equal(hids.size, 1);
    await tracker.close();
  });

  void it('waits for Retry-After before any attempt: a full pool, flush() and close() too', async () => {
    let now = 1_000_000;
    const { tracker } = harness(double, { poolMaxSize: 2 }, { now: () => now });
    double.script.queued.events = [{ status: 503, headers: { 'retry-after': '3600' } }];
    await tracker.addHit(anonymous, screen());
    await tracker.flush();
    await tracker.addHit(anonymous, screen('b'));
    // The full pool's pass runs before this flush's (passes run one after another).
    await tracker.flush();
    assert.equal(
      double.requestsTo('events').length,
      1,
      'neither a full pool nor a flush overrides Retry-After',
    );
    now += 3_600_000;
    await tracker.flush();
    assert.equal(double.requestsTo('events').length, 2, 'once it is over, a flush sends');
    await tracker.close();
  });

  for (const status of [400, 404, 413, 415])
    void it(`drops and logs the request's items on ${status}`, async () => {
      const { tracker, logs } = harness(double);
      double.script.queued.events = [{ status, body: { message: 'what to change', code: 'invalid_body' } }];
      await tracker.addHit(anonymous, screen());
      await tracker.flush();
      await tracker.flush();
      assert.equal(double.requestsTo('events').length, 1, 'never retried');
      assert.ok(
        logs.some(
          (l) => l.startsWith('ERROR') && l.includes(`HTTP ${status}`) && l.includes('what to change'),
        ),
      );
      await tracker.close();
    });

  void it('drops and logs per-item rejections, keeping nothing', async () => {
    const { tracker, logs } = harness(double);
    await tracker.addHit(anonymous, screen('a'));
    await tracker.addHit(anonymous, screen('b'));
    double.script.queued.events = [
      {
        status: 200,
        body: { accepted: 1, duplicates: 0, rejected: [{ index: 1, message: 'h[1].dl is too long' }] },
      },
    ];
    await tracker.flush();
    await tracker.flush();
    assert.equal(double.requestsTo('events').length, 1);
    const rejectedHid = hitsOf(double.requestsTo('events')[0]?.body)[1]?.hid;
    assert.ok(logs.some((l) => l.includes(String(rejectedHid)) && l.includes('h[1].dl is too long')));
    await tracker.close();
  });
});

void describe('acknowledgements', () => {
  void it('calls onAcknowledged only after a 2xx, once', async () => {
    let now = 1_000_000;
    const { tracker } = harness(double, {}, { now: () => now });
    let acks = 0;
    double.script.queued.activate = [{ status: 503 }];
    await tracker.addActivation(
      anonymous,
      { variationGroupId: 'vg1', variationId: 'v1', flagKey: 'k' },
      () => {
        acks += 1;
      },
    );
    assert.equal(acks, 0, 'queued is not acknowledged');
    await tracker.flush();
    assert.equal(acks, 0, 'a 503 is not an acknowledgement');
    now += 60_000; // past the backoff
    await tracker.flush();
    assert.equal(acks, 1);
    await tracker.flush();
    assert.equal(acks, 1);
    await tracker.close();
  });

  void it('does not acknowledge a rejected activation', async () => {
    const { tracker } = harness(double);
    const acked: string[] = [];
    for (const vg of ['vg1', 'vg2'])
      await tracker.addActivation(anonymous, { variationGroupId: vg, variationId: 'v9', flagKey: 'k' }, () =>
        acked.push(vg),
      );
    double.script.queued.activate = [
      {
        status: 200,
        body: { accepted: 1, duplicates: 0, rejected: [{ index: 0, message: 'unknown variation' }] },
      },
    ];
    await tracker.flush();
    assert.deepEqual(acked, ['vg2']);
    await tracker.close();
  });
});

void describe('concurrency', () => {
  void it('never sends an item twice at once: a flush during a send takes only new items', async () => {
    const { tracker } = harness(double);
    double.script.queued.events = [{ status: 200, body: {}, delayMs: 150 }];
    await tracker.addHit(anonymous, screen('first'));
    const first = tracker.flush();
    await until(() => double.requestsTo('events').length === 1, { what: 'the first request' });
    await tracker.addHit(anonymous, screen('second'));
    const second = tracker.flush();
    const third = tracker.flush();
    await Promise.all([first, second, third]);
    const sent = double.requestsTo('events').map((r) => hitsOf(r.body).map((h) => h.dl));
    assert.deepEqual(sent, [['first'], ['second']]);
    await tracker.close();
  });
});

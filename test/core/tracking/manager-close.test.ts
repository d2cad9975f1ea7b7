// close() and what it could not deliver (issue 35): a pass that fails at close is followed by one more attempt
// once its wait is over, never a third; then the log says how many hits and activations stay in the hit cache
// for the next start, or are lost with the process when the cache is memory, and how to keep them. Against a
// protocol double and a raw socket server on 127.0.0.1; the retry's wait is the harness's 10 ms backoff.
import assert from 'node:assert/strict';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { unreachableHint } from '../../../src/core/net/unreachable.js';
import { describeItems } from '../../../src/core/tracking/manager-close.js';
import { pooled } from '../../../src/core/tracking/manager-pool.js';
import type { HitCacheRecord } from '../../../src/protocol/index.js';
import { startProtocolDouble, type ProtocolDouble } from '../../support/protocol-double.js';
import { anonymous, cached, harness, hitsOf, screen } from './tracker-harness.js';

let double: ProtocolDouble;
beforeEach(async () => {
  double = await startProtocolDouble();
});
afterEach(() => double.close());

const ADVICE = 'keep them in a file (test advice)';
const activation = { variationGroupId: 'vg1', variationId: 'v2', flagKey: 'btnColor' };

/** The hids of every hit the double received, in order, one entry per request. */
/** A TCP connection to the double's host and port. */
const createConnectionTo = (url: URL): Socket => connect(Number(url.port), url.hostname);

const hidsPerRequest = (): string[][] =>
  double.requestsTo('events').map((r) => hitsOf(r.body).map((h) => String(h.hid)));

void describe('close() with hits the server did not take', () => {
  void it('a server that refuses the first attempt and accepts the second gets every hit, once acknowledged', async () => {
    const { tracker, cache, logs } = harness(double, {}, {}, undefined, { volatileHitCache: ADVICE });
    await tracker.addHit(anonymous, screen('a'));
    await tracker.addHit(anonymous, screen('b'));
    double.script.queued.events = [{ status: 503 }];
    await tracker.close();
    const [first, second, ...more] = hidsPerRequest();
    assert.equal(first?.length, 2);
    assert.deepEqual(second, first, 'the same hits, with the same hids, the second time');
    assert.deepEqual(more, []);
    assert.deepEqual(await cached(cache), {}, 'acknowledged, so erased from the cache');
    assert.ok(!logs.some((l) => l.includes('not delivered')), logs.join('\n'));
  });

  void it('a connection that breaks the first time: the second attempt delivers', async () => {
    // A raw server that drops the first connection without answering (a network error, as a refused
    // connection is), then hands every later one to the double.
    let connections = 0;
    const target = new URL(double.url);
    const relay: Server = createServer((socket: Socket) => {
      connections += 1;
      if (connections === 1) return socket.destroy();
      const upstream = createConnectionTo(target);
      socket.pipe(upstream).pipe(socket);
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = relay.address() as AddressInfo;
      const { tracker, logs } = harness({ url: `http://127.0.0.1:${port}` });
      await tracker.addHit(anonymous, screen());
      await tracker.close();
      assert.equal(hidsPerRequest().length, 1, logs.join('\n'));
      assert.ok(
        logs.some((l) => l.includes('network error')),
        'the first attempt failed',
      );
    } finally {
      await new Promise((resolve) => relay.close(resolve));
    }
  });

  void it('two failed attempts, then no third: the log counts what stays in the hit cache', async () => {
    const { tracker, cache, logs } = harness(double);
    await tracker.addHit(anonymous, screen());
    await tracker.addActivation(anonymous, activation);
    double.script.queued.events = [{ status: 503 }, { status: 503 }, { status: 503 }];
    double.script.queued.activate = [{ status: 503 }, { status: 503 }, { status: 503 }];
    await tracker.close();
    assert.equal(double.requestsTo('events').length + double.requestsTo('activate').length, 2);
    assert.equal(Object.keys(await cached(cache)).length, 2);
    assert.ok(
      logs.some((l) =>
        l.includes(
          '1 hit and 1 activation not delivered by close() stay in the hit cache and are sent at the next start',
        ),
      ),
      logs.join('\n'),
    );
    assert.ok(
      logs.some((l) => l.includes('not delivered at close (POST')),
      'the last failure is not "next attempt"',
    );
  });

  void it('with a cache that does not outlive the process, the log says they are lost and how to keep them', async () => {
    const { tracker, logs } = harness(double, {}, {}, undefined, { volatileHitCache: ADVICE });
    await tracker.addHit(anonymous, screen('a'));
    await tracker.addHit(anonymous, screen('b'));
    double.script.queued.events = [{ status: 503 }, { status: 503 }];
    await tracker.close();
    const line = logs.find((l) => l.startsWith('ERROR') && l.includes('lost'));
    assert.equal(
      line,
      `ERROR Tracking: 2 hits not delivered by close() are lost when this process ends: ${ADVICE}`,
    );
  });

  void it('a server that answers a hopeless 400 is not tried again and nothing is left', async () => {
    const { tracker, logs } = harness(double, {}, {}, undefined, { volatileHitCache: ADVICE });
    await tracker.addHit(anonymous, screen());
    double.script.queued.events = [{ status: 400, body: { message: 'bad', code: 'invalid' } }];
    await tracker.close();
    assert.equal(double.requestsTo('events').length, 1);
    assert.ok(!logs.some((l) => l.includes('lost when')), logs.join('\n'));
  });
});

void describe('the server hint in failure reasons', () => {
  const closedPort = async (): Promise<number> => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return port;
  };

  void it('a refused connection under the default server URL names what to set', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const text = 'Set FEATURE_API_URL (test hint).';
    const { tracker, logs } = harness({ url }, {}, {}, undefined, { serverHint: unreachableHint(url, text) });
    await tracker.addHit(anonymous, screen());
    await tracker.close();
    const failures = logs.filter((l) => l.includes('ECONNREFUSED'));
    assert.equal(failures.length, 2, logs.join('\n'));
    for (const line of failures)
      assert.ok(line.includes(`ECONNREFUSED 127.0.0.1`) && line.includes(text), line);
  });

  void it('a server that answers (a 503) gets no hint: it was reached', async () => {
    const text = 'Set FEATURE_API_URL (test hint).';
    const { tracker, logs } = harness(double, {}, {}, undefined, {
      serverHint: unreachableHint(double.url, text),
    });
    await tracker.addHit(anonymous, screen());
    double.script.queued.events = [{ status: 503 }, { status: 503 }];
    await tracker.close();
    assert.ok(logs.some((l) => l.includes('HTTP 503')));
    assert.ok(!logs.some((l) => l.includes(text)), logs.join('\n'));
  });
});

void describe('describeItems', () => {
  const item = (type: HitCacheRecord['data']['type']) =>
    pooled(
      {
        version: 1,
        data: {
          visitorId: 'v',
          anonymousId: null,
          type,
          time: 1,
          content: { hid: `${type}-${Math.random()}`, createdAt: 1 },
        },
      },
      false,
    );

  void it('counts hits and activations in words', () => {
    assert.equal(describeItems([item('EVENT')]), '1 hit');
    assert.equal(describeItems([item('EVENT'), item('SCREENVIEW')]), '2 hits');
    assert.equal(describeItems([item('ACTIVATE')]), '1 activation');
    assert.equal(
      describeItems([item('PAGEVIEW'), item('ACTIVATE'), item('ACTIVATE')]),
      '1 hit and 2 activations',
    );
  });
});

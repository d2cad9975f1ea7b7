// Visitor flagStatus and fetchReasons: every row of SPEC.md's table and PROTOCOL.md §16.2, against the double.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import type { Visitor, VisitorFlagState } from '../../src/core/node.js';
import { makeVisitorRecordText } from './records.js';
import { campaign, decision, startSdk, type Sdk } from './support.js';

let sdk: Sdk | undefined;
afterEach(async () => {
  await sdk?.close();
  sdk = undefined;
});

const green = (visitorId: string) => decision(visitorId, [campaign('c1', 'vg1', 'v2', { btn: 'green' })]);

/** Records every state the visitor goes through, as "STATUS/REASON". */
const trace = (visitor: Visitor): string[] => {
  const seen: string[] = [];
  const show = (s: VisitorFlagState): string => `${s.status}/${s.reason}`;
  seen.push(show(visitor.$flagStatus.get()));
  visitor.$flagStatus.listen((s) => seen.push(show(s)));
  return seen;
};

void describe('visitor flagStatus and fetchReasons', () => {
  void test('built → FETCH_REQUIRED/FLAGS_NEVER_FETCHED; fetchFlags → FETCHING → FETCHED/NONE', async () => {
    sdk = await startSdk({ decide: (b) => green(b.visitorId) });
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    assert.equal(visitor.flagStatus, 'FETCH_REQUIRED');
    assert.equal(visitor.fetchReasons, 'FLAGS_NEVER_FETCHED');
    const seen = trace(visitor);
    await visitor.fetchFlags();
    assert.deepEqual(seen, ['FETCH_REQUIRED/FLAGS_NEVER_FETCHED', 'FETCHING/NONE', 'FETCHED/NONE']);
    assert.equal(visitor.flagStatus, 'FETCHED');
    assert.equal(visitor.fetchReasons, 'NONE');
  });

  void test('context, authenticate and unauthenticate after a fetch give FETCH_REQUIRED with their reason', async () => {
    sdk = await startSdk({ decide: (b) => green(b.visitorId) });
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    const seen = trace(visitor);
    visitor.updateContext('plan', 'premium');
    await visitor.fetchFlags();
    visitor.authenticate('user-1');
    await visitor.fetchFlags();
    visitor.unauthenticate();
    assert.deepEqual(seen, [
      'FETCHED/NONE',
      'FETCH_REQUIRED/VISITOR_CONTEXT_UPDATED',
      'FETCHING/NONE',
      'FETCHED/NONE',
      'FETCH_REQUIRED/VISITOR_AUTHENTICATED',
      'FETCHING/NONE',
      'FETCHED/NONE',
      'FETCH_REQUIRED/VISITOR_UNAUTHENTICATED',
    ]);
  });

  void test('each context call that changes a value gives VISITOR_CONTEXT_UPDATED; one that changes nothing gives nothing', async () => {
    sdk = await startSdk({ decide: (b) => green(b.visitorId) });
    const visitor = sdk.instance
      .newVisitor({ visitorId: 'v1', hasConsented: true })
      .withContext({ a: 1 })
      .build();
    const calls: Array<[string, () => void]> = [
      ['updateContext', () => visitor.updateContext('a', 2)],
      ['updateContextWithMap', () => visitor.updateContextWithMap({ b: true })],
      [
        'updateFeatureContext',
        () => visitor.updateFeatureContext({ key: 'sdk_city', type: 'string' }, 'Paris'),
      ],
      ['clearContext', () => visitor.clearContext()],
    ];
    for (const [name, call] of calls) {
      await visitor.fetchFlags();
      call();
      assert.equal(visitor.fetchReasons, 'VISITOR_CONTEXT_UPDATED', name);
      assert.equal(visitor.flagStatus, 'FETCH_REQUIRED', name);
    }
    await visitor.fetchFlags();
    const seen = trace(visitor);
    visitor.updateContextWithMap({});
    visitor.clearContext();
    visitor.updateContext('bad', [1] as never);
    assert.deepEqual(seen, ['FETCHED/NONE']);
  });

  void test('FETCH_REQUIRED: the latest cause wins', async () => {
    sdk = await startSdk({ decide: (b) => green(b.visitorId) });
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    const seen = trace(visitor);
    visitor.updateContext('a', 1);
    visitor.authenticate('u1');
    visitor.updateContext('a', 2);
    assert.deepEqual(seen, [
      'FETCH_REQUIRED/FLAGS_NEVER_FETCHED',
      'FETCH_REQUIRED/VISITOR_CONTEXT_UPDATED',
      'FETCH_REQUIRED/VISITOR_AUTHENTICATED',
      'FETCH_REQUIRED/VISITOR_CONTEXT_UPDATED',
    ]);
  });

  void test('a change while FETCHING stays FETCHING; the answer is applied, then FETCH_REQUIRED with that reason', async () => {
    sdk = await startSdk({ decide: (b) => green(b.visitorId) });
    sdk.double.script.queued.decision = [{ status: 200, body: green('v1'), delayMs: 100 }];
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    const seen = trace(visitor);
    const fetching = visitor.fetchFlags();
    await new Promise<void>((resolve) =>
      visitor.$flagStatus.listen((s) => s.status === 'FETCHING' && resolve()),
    );
    visitor.updateContext('plan', 'premium');
    assert.equal(visitor.flagStatus, 'FETCHING');
    await fetching;
    assert.equal(visitor.getFlag('btn').value('red', { visitorExposed: false }), 'green');
    assert.deepEqual(seen, [
      'FETCH_REQUIRED/FLAGS_NEVER_FETCHED',
      'FETCHING/NONE',
      'FETCH_REQUIRED/VISITOR_CONTEXT_UPDATED',
    ]);
  });

  void test('overlapping fetchFlags: only the latest answer is applied, every promise resolves after it', async () => {
    sdk = await startSdk({
      decide: (b) =>
        decision(b.visitorId, [
          campaign('c1', 'vg1', String(b.context.plan), { plan: String(b.context.plan) }),
        ]),
    });
    const visitor = sdk.instance
      .newVisitor({ visitorId: 'v1', hasConsented: true })
      .withContext({ plan: 'a' })
      .build();
    await visitor.fetchFlags();
    // The first answer is slow: it arrives after the second and must be dropped.
    sdk.double.script.queued.decision = [
      { status: 200, body: decision('v1', [campaign('c1', 'vg1', 'b', { plan: 'b' })]), delayMs: 150 },
    ];
    visitor.updateContext('plan', 'b');
    const first = visitor
      .fetchFlags()
      .then(() => visitor.getFlag('plan').value('', { visitorExposed: false }));
    await new Promise((r) => setTimeout(r, 20));
    visitor.updateContext('plan', 'c');
    const second = visitor
      .fetchFlags()
      .then(() => visitor.getFlag('plan').value('', { visitorExposed: false }));
    assert.deepEqual(await Promise.all([first, second]), ['c', 'c']);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(visitor.getFlag('plan').value('', { visitorExposed: false }), 'c');
    assert.equal(visitor.flagStatus, 'FETCHED');
    assert.deepEqual(
      sdk.double.requestsTo('decision').map((r) => (r.body as { context: { plan: string } }).context.plan),
      ['a', 'b', 'c'],
    );
  });

  void test('calls made before the creation lookup settles: one request, with the latest context', async () => {
    sdk = await startSdk({ decide: (b) => green(b.visitorId) });
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    const a = visitor.fetchFlags();
    visitor.updateContext('k', 1);
    const b = visitor.fetchFlags();
    await Promise.all([a, b]);
    const bodies = sdk.double.requestsTo('decision');
    assert.equal(bodies.length, 1);
    assert.equal((bodies[0]?.body as { context: { k: number } }).context.k, 1);
  });

  void test('failures keep the last flags: FETCH_REQUIRED/FLAGS_FETCHING_ERROR (timeout, 5xx, unparsable, 4xx, network)', async () => {
    sdk = await startSdk({ decide: (b) => green(b.visitorId) }, (c) => c.withTimeout(100));
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    const failures = [
      { status: 200, body: green('v1'), delayMs: 400 },
      { status: 503, body: { message: 'down', code: 'internal' } },
      { status: 200, rawBody: 'not json' },
      { status: 200, body: { visitorId: 'v1' } },
      { status: 403, body: { message: 'wrong key', code: 'invalid_api_key' } },
    ];
    // First failure with nothing known: every value is the default.
    sdk.double.script.queued.decision = failures.slice(0, 1);
    await visitor.fetchFlags();
    assert.equal(visitor.flagStatus, 'FETCH_REQUIRED');
    assert.equal(visitor.fetchReasons, 'FLAGS_FETCHING_ERROR');
    assert.equal(visitor.getFlag('btn').value('red'), 'red');
    await visitor.fetchFlags();
    assert.equal(visitor.getFlag('btn').value('red', { visitorExposed: false }), 'green');
    for (const failure of failures) {
      sdk.double.script.queued.decision = [failure];
      const seen = trace(visitor);
      await visitor.fetchFlags();
      assert.deepEqual(seen, ['FETCHED/NONE', 'FETCHING/NONE', 'FETCH_REQUIRED/FLAGS_FETCHING_ERROR']);
      assert.equal(
        visitor.getFlag('btn').value('red', { visitorExposed: false }),
        'green',
        'known flags are kept',
      );
      await visitor.fetchFlags();
    }
    assert.ok(
      sdk.logs.lines.some((l) => l.level === 'ERROR' && l.message.includes('within the 100 ms timeout')),
    );
  });

  void test('a network error (server gone) keeps the last flags too', async () => {
    sdk = await startSdk({ decide: (b) => green(b.visitorId) });
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    await sdk.double.close();
    await visitor.fetchFlags();
    assert.equal(visitor.fetchReasons, 'FLAGS_FETCHING_ERROR');
    assert.equal(visitor.getFlag('btn').value('red', { visitorExposed: false }), 'green');
  });

  void test('cache at creation: FLAGS_NEVER_FETCHED → FLAGS_FETCHED_FROM_CACHE → FETCHING → FETCHED', async () => {
    sdk = await startSdk({
      decide: (b) => decision(b.visitorId, [campaign('c1', 'vg1', 'v3', { btn: 'blue' })]),
    });
    sdk.cache.records.set('v1', makeVisitorRecordText('v1', [campaign('c1', 'vg1', 'v2', { btn: 'green' })]));
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    const seen = trace(visitor);
    await visitor.fetchFlags();
    assert.deepEqual(seen, [
      'FETCH_REQUIRED/FLAGS_NEVER_FETCHED',
      'FETCH_REQUIRED/FLAGS_FETCHED_FROM_CACHE',
      'FETCHING/NONE',
      'FETCHED/NONE',
    ]);
    assert.equal(visitor.getFlag('btn').value('red', { visitorExposed: false }), 'blue');
  });

  void test('cached flags are readable before any fetch; a failed fetch then gives FLAGS_FETCHED_FROM_CACHE', async () => {
    sdk = await startSdk();
    sdk.cache.records.set('v1', makeVisitorRecordText('v1', [campaign('c1', 'vg1', 'v2', { btn: 'green' })]));
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    const flag = visitor.getFlag('btn');
    await new Promise<void>((resolve) => visitor.$flags.listen(() => resolve()));
    assert.equal(flag.value('red', { visitorExposed: false }), 'green');
    assert.equal(visitor.fetchReasons, 'FLAGS_FETCHED_FROM_CACHE');
    sdk.double.script.queued.decision = [{ status: 500, body: { message: 'x', code: 'internal' } }];
    await visitor.fetchFlags();
    assert.equal(visitor.flagStatus, 'FETCH_REQUIRED');
    assert.equal(visitor.fetchReasons, 'FLAGS_FETCHED_FROM_CACHE');
    assert.equal(flag.value('red', { visitorExposed: false }), 'green');
  });

  void test('panic: FETCHING → PANIC/NONE, defaults everywhere, context and authentication calls ignored (logged once)', async () => {
    let panic = true;
    sdk = await startSdk({
      decide: (b) => (panic ? { visitorId: b.visitorId, campaigns: [], panic: true } : green(b.visitorId)),
    });
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    const seen = trace(visitor);
    await visitor.fetchFlags();
    visitor.updateContext('a', 1);
    visitor.updateContext('a', 2);
    visitor.authenticate('u1');
    visitor.unauthenticate();
    visitor.clearContext();
    assert.equal(visitor.visitorId, 'v1');
    assert.equal(visitor.context.a, undefined);
    assert.equal(sdk.logs.lines.filter((l) => l.message.includes('context update ignored')).length, 1);
    panic = false;
    await visitor.fetchFlags();
    assert.deepEqual(seen, [
      'FETCH_REQUIRED/FLAGS_NEVER_FETCHED',
      'FETCHING/NONE',
      'PANIC/NONE',
      'FETCHING/NONE',
      'FETCHED/NONE',
    ]);
    assert.equal(visitor.getFlag('btn').value('red', { visitorExposed: false }), 'green');
  });
});

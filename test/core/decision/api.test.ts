// The decision-API source (PROTOCOL.md §3): route, headers, body, timeout, answers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createApiSource, parseDecision } from '../../../src/core/decision/api.js';
import type { DecisionInput } from '../../../src/core/decision/source.js';
import { Level, Logger } from '../../../src/core/logger.js';
import { FSSdkStatus } from '../../../src/core/status.js';
import { startProtocolDouble, type ProtocolDouble } from '../../support/protocol-double.js';
import { until } from '../../support/until.js';
import { campaign, decision } from '../support.js';

let double: ProtocolDouble;
before(async () => {
  double = await startProtocolDouble({
    decide: (b) => decision(b.visitorId, [campaign('c1', 'vg1', 'v2', { k: 1 })], true),
  });
});
after(() => double.close());

const source = (timeout = 2000, apiKey = 'key1', envId = 'env1') =>
  createApiSource({
    envId,
    apiKey,
    urls: { decisionApi: `${double.url}/v2/`, bucketing: '', events: '' },
    timeout,
    pollingIntervals: 60,
    logger: new Logger(Level.NONE),
    events: { status: (_s: FSSdkStatus) => undefined, changed: () => undefined },
  });

const input: DecisionInput = {
  visitorId: 'user-42',
  anonymousId: 'anon-7',
  context: { plan: 'premium', fs_users: 'user-42' },
  hasConsented: false,
  assignments: {},
};

void describe('decision-API source', () => {
  void test('one POST to {D}/{envId}/campaigns with the query, headers and body of §3', async () => {
    const before = double.requestsTo('decision').length;
    const outcome = await source().decide(input);
    assert.deepEqual(outcome, {
      ok: true,
      decision: decision('user-42', [campaign('c1', 'vg1', 'v2', { k: 1 })], true),
    });
    const requests = double.requestsTo('decision').slice(before);
    assert.equal(requests.length, 1);
    const [r] = requests;
    assert.equal(r?.method, 'POST');
    assert.equal(r.path, '/v2/env1/campaigns');
    assert.equal(r.query, '?exposeAllKeys=true&extras[]=accountSettings');
    assert.equal(r.headers['x-api-key'], 'key1');
    assert.equal(r.headers['x-sdk-client'], 'feature-ts');
    assert.equal(r.headers['x-sdk-version'], '0.1.0');
    assert.equal(r.headers['content-type'], 'application/json');
    assert.deepEqual(r.body, {
      visitorId: 'user-42',
      anonymousId: 'anon-7',
      context: { plan: 'premium', fs_users: 'user-42' },
      triggerHit: false,
      visitorConsent: false,
    });
  });

  void test('a panic answer is a decision with panic', async () => {
    double.script.queued.decision = [
      { status: 200, body: { visitorId: 'user-42', campaigns: [], panic: true } },
    ];
    assert.deepEqual(await source().decide(input), {
      ok: true,
      decision: { visitorId: 'user-42', campaigns: [], panic: true },
    });
  });

  void test('failures resolve with a reason: timeout, 5xx, 401/403/404, not JSON, not a decision', async () => {
    const cases: Array<
      [Parameters<typeof source>, NonNullable<(typeof double.script.queued)['decision']>, RegExp]
    > = [
      [
        [50],
        [{ status: 200, body: decision('x', []), delayMs: 300 }],
        /no decision within the 50 ms timeout/,
      ],
      [[], [{ status: 502, body: { message: 'bad gateway', code: 'internal' } }], /answered 502/],
      [[], [{ status: 200, rawBody: '<html>' }], /not a decision/],
      [[], [{ status: 200, body: { campaigns: 'x' } }], /not a decision/],
      [[2000, 'wrong'], [], /answered 403/],
      [[2000, ''], [], /answered 401/],
      [[2000, 'key1', 'nope'], [], /answered 404/],
    ];
    for (const [args, queued, reason] of cases) {
      double.script.queued.decision = [...queued];
      const outcome = await source(...args).decide(input);
      if (outcome.ok) assert.fail(`expected a failure matching ${String(reason)}`);
      assert.match(outcome.reason, reason);
    }
  });

  void test('every failure names the request, POST {D}/{envId}/campaigns, without the query', async () => {
    const closed = await startProtocolDouble();
    await closed.close();
    const gone = createApiSource({
      envId: 'env1',
      apiKey: 'key1',
      urls: { decisionApi: `${closed.url}/v2`, bucketing: '', events: '' },
      timeout: 2000,
      pollingIntervals: 60,
      logger: new Logger(Level.NONE),
      events: { status: (_s: FSSdkStatus) => undefined, changed: () => undefined },
    });
    const outcome = await gone.decide(input);
    if (outcome.ok) assert.fail('a closed port cannot answer');
    assert.ok(
      outcome.reason.startsWith(`POST ${closed.url}/v2/env1/campaigns: the decision request failed: `),
      outcome.reason,
    );
    double.script.queued.decision = [{ status: 502, body: { message: 'bad gateway', code: 'internal' } }];
    const refused = await source().decide(input);
    if (refused.ok) assert.fail('a 502 is no decision');
    assert.ok(
      refused.reason.startsWith(`POST ${double.url}/v2/env1/campaigns: the decision API answered 502: `),
      refused.reason,
    );
  });

  void test('close aborts requests in flight', async () => {
    double.script.queued.decision = [{ status: 200, body: decision('x', []), delayMs: 500 }];
    const s = source();
    const before = double.requestsTo('decision').length;
    const pending = s.decide(input);
    // In flight: the double has the request and holds its answer 500 ms.
    await until(() => double.requestsTo('decision').length === before + 1, { what: 'the decision request' });
    s.close();
    assert.equal((await pending).ok, false);
  });
});

void describe('parseDecision', () => {
  void test('malformed campaigns are left out; missing names default; slug null when absent', () => {
    assert.deepEqual(
      parseDecision({
        visitorId: 'v',
        campaigns: [
          {
            id: 'c1',
            variationGroupId: 'vg1',
            variation: { id: 'v1', modifications: { type: 'FLAG', value: { a: 1 } } },
          },
          { id: 'c2' },
          null,
          { id: 'c3', variationGroupId: 'vg3', variation: { id: 'v3', modifications: { value: [] } } },
        ],
        extras: { accountSettings: { enabledXPC: true } },
      }),
      {
        visitorId: 'v',
        campaigns: [
          {
            id: 'c1',
            name: '',
            slug: null,
            type: '',
            variationGroupId: 'vg1',
            variationGroupName: '',
            variation: {
              id: 'v1',
              name: '',
              reference: false,
              modifications: { type: 'FLAG', value: { a: 1 } },
            },
          },
        ],
        extras: { accountSettings: { enabledXPC: true, enabled1V1T: false } },
      },
    );
    assert.equal(parseDecision(null), null);
    assert.equal(parseDecision([]), null);
  });
});

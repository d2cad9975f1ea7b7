// Visitor flagStatus and fetchReasons: every row of SPEC.md's "Visitor flagStatus" table and of PROTOCOL.md
// §16.2 (with §9.4's failure rule), against the double. Sequences are asserted exactly, from the $flagStatus
// atom, which sees every change.
import type { Visitor, VisitorFlagState } from '../../../src/core/public.js';
import { makeVisitorRecordText } from '../records.js';
import { campaign, decision, panicDecision } from './decisions.js';
import type { CoreHarness } from './harness.js';
import { until } from '../../support/until.js';
import { decisionBodies, withSession } from './session.js';

const green = (visitorId: string) => decision(visitorId, [campaign('c1', 'vg1', 'v2', { btn: 'green' })]);

/** Records every state the visitor goes through, as "STATUS/REASON". */
const trace = (visitor: Visitor): string[] => {
  const seen: string[] = [];
  const show = (s: VisitorFlagState): string => `${s.status}/${s.reason}`;
  seen.push(show(visitor.$flagStatus.get()));
  visitor.$flagStatus.listen((s) => seen.push(show(s)));
  return seen;
};

const quiet = { visitorExposed: false };

/** Defines the visitor status suite on a runtime's harness. */
export const defineVisitorStatusSuite = (h: CoreHarness): void => {
  const { describe, it, assert } = h;

  describe('visitor flagStatus and fetchReasons (SPEC.md table, PROTOCOL.md §16.2)', () => {
    it('built → FETCH_REQUIRED/FLAGS_NEVER_FETCHED; fetchFlags → FETCHING → FETCHED/NONE', () =>
      withSession(h, { decisions: { '*': green('*') } }, async ({ instance }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        assert.equal(visitor.flagStatus, 'FETCH_REQUIRED');
        assert.equal(visitor.fetchReasons, 'FLAGS_NEVER_FETCHED');
        const seen = trace(visitor);
        await visitor.fetchFlags();
        assert.deepEqual(seen, ['FETCH_REQUIRED/FLAGS_NEVER_FETCHED', 'FETCHING/NONE', 'FETCHED/NONE']);
        assert.equal(visitor.flagStatus, 'FETCHED');
        assert.equal(visitor.fetchReasons, 'NONE');
      }));

    it('context, authenticate and unauthenticate after a fetch give FETCH_REQUIRED with their reason', () =>
      withSession(h, { decisions: { '*': green('*') } }, async ({ instance }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
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
      }));

    it('each context call that changes a value gives VISITOR_CONTEXT_UPDATED; one that changes nothing gives nothing', () =>
      withSession(h, { decisions: { '*': green('*') } }, async ({ instance }) => {
        const visitor = instance
          .newVisitor({ visitorId: 'v1', hasConsented: true })
          .withContext({ a: 1 })
          .build();
        const calls: Array<[string, () => void]> = [
          ['updateContext', () => visitor.updateContext('a', 2)],
          ['updateContextWithMap', () => visitor.updateContextWithMap({ b: true })],
          [
            'updateFeatureContext',
            () => visitor.updateFeatureContext(h.sdk.FeatureContext.LOCATION_CITY, 'Paris'),
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
      }));

    it('FETCH_REQUIRED: the latest cause wins', () =>
      withSession(h, { decisions: { '*': green('*') } }, ({ instance }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
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
      }));

    it('a change while FETCHING stays FETCHING; the answer is applied, then FETCH_REQUIRED with that reason', () =>
      withSession(h, { decisions: { '*': green('*') } }, async ({ instance, double }) => {
        // Held back so the test can act while the request is in flight.
        await double.queue('decision', [{ status: 200, body: green('v1'), delayMs: 100 }]);
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        const seen = trace(visitor);
        const fetching = visitor.fetchFlags();
        await until(() => visitor.flagStatus === 'FETCHING', { what: 'FETCHING' });
        visitor.updateContext('plan', 'premium');
        assert.equal(visitor.flagStatus, 'FETCHING');
        await fetching;
        assert.equal(visitor.getFlag('btn').value('red', quiet), 'green');
        assert.deepEqual(seen, [
          'FETCH_REQUIRED/FLAGS_NEVER_FETCHED',
          'FETCHING/NONE',
          'FETCH_REQUIRED/VISITOR_CONTEXT_UPDATED',
        ]);
      }));

    it('overlapping fetchFlags: only the latest answer is applied, every promise resolves after it', () =>
      withSession(h, {}, async ({ instance, double }) => {
        const answer = (plan: string) => decision('v1', [campaign('c1', 'vg1', plan, { plan })]);
        // In arrival order: the first fetch (plan a), then a slow answer for plan b that lands after the
        // answer for plan c, and must be dropped.
        // A fourth answer, held back longer than the slow one, tells when that one has surely come and gone.
        await double.queue('decision', [
          { status: 200, body: answer('a') },
          { status: 200, body: answer('b'), delayMs: 150 },
          { status: 200, body: answer('c') },
          { status: 200, body: answer('c'), delayMs: 300 },
        ]);
        const visitor = instance
          .newVisitor({ visitorId: 'v1', hasConsented: true })
          .withContext({ plan: 'a' })
          .build();
        await visitor.fetchFlags();
        // Every snapshot applied, in order: the slow answer must never show.
        const applied: unknown[] = [];
        const unlisten = visitor.$flags.listen((flags) => applied.push(flags.get('plan')?.value));
        visitor.updateContext('plan', 'b');
        const first = visitor.fetchFlags().then(() => visitor.getFlag('plan').value('', quiet));
        await until(async () => (await double.requests('decision')).length === 2, { what: 'second request' });
        visitor.updateContext('plan', 'c');
        const second = visitor.fetchFlags().then(() => visitor.getFlag('plan').value('', quiet));
        assert.deepEqual(await Promise.all([first, second]), ['c', 'c']);
        // The fourth request goes out after the slow one and is answered 150 ms after it: once it is in, the
        // slow answer has arrived, and what it did shows in `applied`.
        await visitor.fetchFlags();
        unlisten();
        assert.equal(visitor.getFlag('plan').value('', quiet), 'c');
        assert.equal(visitor.flagStatus, 'FETCHED');
        assert.ok(!applied.includes('b'), `the slow answer was never applied: ${JSON.stringify(applied)}`);
        assert.deepEqual(
          (await decisionBodies(double)).map((b) => (b.context as { plan: string }).plan),
          ['a', 'b', 'c', 'c'],
        );
      }));

    it('calls made before the creation lookup settles: one request, with the latest context', () =>
      withSession(h, { decisions: { '*': green('*') } }, async ({ instance, double }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        const a = visitor.fetchFlags();
        visitor.updateContext('k', 1);
        const b = visitor.fetchFlags();
        await Promise.all([a, b]);
        const bodies = await decisionBodies(double);
        assert.equal(bodies.length, 1);
        assert.equal((bodies[0]?.context as { k: number }).k, 1);
      }));

    it('failures keep the last flags: FETCH_REQUIRED/FLAGS_FETCHING_ERROR (timeout, 5xx, unparsable, 4xx)', () =>
      withSession(
        h,
        { decisions: { '*': green('*') }, configure: (c) => c.withTimeout(100) },
        async ({ instance, double, logs }) => {
          const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
          const failures = [
            { status: 200, body: green('v1'), delayMs: 400 },
            { status: 503, body: { message: 'down', code: 'internal' } },
            { status: 200, rawBody: 'not json' },
            { status: 200, body: { visitorId: 'v1' } },
            { status: 403, body: { message: 'wrong key', code: 'invalid_api_key' } },
          ];
          // First failure with nothing known: every value is the default (SPEC.md Errors 1 and 2).
          await double.queue('decision', failures.slice(0, 1));
          await visitor.fetchFlags();
          assert.equal(visitor.flagStatus, 'FETCH_REQUIRED');
          assert.equal(visitor.fetchReasons, 'FLAGS_FETCHING_ERROR');
          assert.equal(visitor.getFlag('btn').value('red'), 'red');
          await visitor.fetchFlags();
          assert.equal(visitor.getFlag('btn').value('red', quiet), 'green');
          for (const failure of failures) {
            await double.queue('decision', [failure]);
            const seen = trace(visitor);
            await visitor.fetchFlags();
            assert.deepEqual(seen, ['FETCHED/NONE', 'FETCHING/NONE', 'FETCH_REQUIRED/FLAGS_FETCHING_ERROR']);
            assert.equal(visitor.getFlag('btn').value('red', quiet), 'green', 'known flags are kept');
            await visitor.fetchFlags();
          }
          assert.ok(logs.some((l) => l.level === 'ERROR' && l.message.includes('within the 100 ms timeout')));
        },
      ));

    it('a network error (server gone) keeps the last flags too', () =>
      withSession(h, { decisions: { '*': green('*') } }, async ({ instance, double }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        await double.stop();
        const seen = trace(visitor);
        await visitor.fetchFlags();
        assert.deepEqual(seen, ['FETCHED/NONE', 'FETCHING/NONE', 'FETCH_REQUIRED/FLAGS_FETCHING_ERROR']);
        assert.equal(visitor.getFlag('btn').value('red', quiet), 'green');
      }));

    it('cache at creation: FLAGS_NEVER_FETCHED → FLAGS_FETCHED_FROM_CACHE → FETCHING → FETCHED', () =>
      withSession(
        h,
        { decisions: { '*': decision('*', [campaign('c1', 'vg1', 'v3', { btn: 'blue' })]) } },
        async ({ instance, cache }) => {
          await cache.seed(
            'v1',
            makeVisitorRecordText('v1', [campaign('c1', 'vg1', 'v2', { btn: 'green' })]),
          );
          const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
          const seen = trace(visitor);
          await visitor.fetchFlags();
          assert.deepEqual(seen, [
            'FETCH_REQUIRED/FLAGS_NEVER_FETCHED',
            'FETCH_REQUIRED/FLAGS_FETCHED_FROM_CACHE',
            'FETCHING/NONE',
            'FETCHED/NONE',
          ]);
          assert.equal(visitor.getFlag('btn').value('red', quiet), 'blue');
        },
      ));

    it('cached flags are readable before any fetch; a failed fetch then gives FLAGS_FETCHED_FROM_CACHE', () =>
      withSession(h, {}, async ({ instance, double, cache }) => {
        await cache.seed('v1', makeVisitorRecordText('v1', [campaign('c1', 'vg1', 'v2', { btn: 'green' })]));
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        const flag = visitor.getFlag('btn');
        await until(() => visitor.fetchReasons === 'FLAGS_FETCHED_FROM_CACHE', { what: 'cache lookup' });
        assert.equal(flag.value('red', quiet), 'green');
        await double.queue('decision', [{ status: 500, body: { message: 'x', code: 'internal' } }]);
        await visitor.fetchFlags();
        assert.equal(visitor.flagStatus, 'FETCH_REQUIRED');
        assert.equal(visitor.fetchReasons, 'FLAGS_FETCHED_FROM_CACHE');
        assert.equal(flag.value('red', quiet), 'green');
      }));

    it('panic: FETCHING → PANIC/NONE, context and authentication calls ignored (logged once), fetchFlags leaves it', () =>
      withSession(h, { decisions: { '*': panicDecision('*') } }, async ({ instance, double, logs }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        const seen = trace(visitor);
        await visitor.fetchFlags();
        visitor.updateContext('a', 1);
        visitor.updateContext('a', 2);
        visitor.authenticate('u1');
        visitor.unauthenticate();
        visitor.clearContext();
        assert.equal(visitor.visitorId, 'v1');
        assert.equal(visitor.context.a, undefined);
        assert.equal(logs.filter((l) => l.message.includes('context update ignored')).length, 1);
        await double.setDecisions({ '*': green('*') });
        await visitor.fetchFlags();
        assert.deepEqual(seen, [
          'FETCH_REQUIRED/FLAGS_NEVER_FETCHED',
          'FETCHING/NONE',
          'PANIC/NONE',
          'FETCHING/NONE',
          'FETCHED/NONE',
        ]);
        assert.equal(visitor.getFlag('btn').value('red', quiet), 'green');
      }));
  });
};

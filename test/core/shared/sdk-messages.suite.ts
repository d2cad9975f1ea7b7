// The messages a user needs to fix their own mistake: reading a key the visitor's known flags do not hold
// warns once per key and SDK instance, naming the keys that exist (PROTOCOL.md §16.4: a repeated warning is
// written once per instance); and a failed request names the URL it tried.
import { campaign, decision, panicDecision } from './decisions.js';
import type { CoreHarness } from './harness.js';
import { until } from '../../support/until.js';
import { withSession, type LogLine, type Session } from './session.js';

const checkout = decision('*', [campaign('c1', 'vg1', 'v2', { btnColor: 'green', btnText: 'Buy now' })]);

const quiet = { visitorExposed: false };

/** The lines at WARNING, as written. */
const warnings = (logs: LogLine[]): string[] =>
  logs.filter((l) => l.level === 'WARNING').map((l) => l.message);

/** The warnings about keys not found. */
const notFound = (logs: LogLine[]): string[] => warnings(logs).filter((m) => m.includes('not found'));

/** Defines the SDK-messages suite on a runtime's harness. */
export const defineSdkMessagesSuite = (h: CoreHarness): void => {
  const { describe, it, assert } = h;
  const { Event, EventCategory } = h.sdk;

  describe('a key the known flags do not hold: one warning per key and SDK instance', () => {
    it('names the key, the visitor and the known keys, once however often it is read', () =>
      withSession(h, { decisions: { '*': checkout } }, async ({ instance, logs }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        const typo = visitor.getFlag('btnColour');
        assert.equal(typo.value('red'), 'red');
        assert.equal(typo.value('red', quiet), 'red');
        assert.equal(visitor.getFlag('btnColour').value('blue'), 'blue');
        await typo.visitorExposed();
        assert.deepEqual(warnings(logs), [
          'flag "btnColour" not found for visitor "v1"; known keys: btnColor, btnText',
        ]);
        visitor.getFlag('btnLabel').value('');
        const other = instance.newVisitor({ visitorId: 'v2', hasConsented: true }).build();
        await other.fetchFlags();
        other.getFlag('btnColour').value('red');
        assert.deepEqual(
          notFound(logs),
          [
            'flag "btnColour" not found for visitor "v1"; known keys: btnColor, btnText',
            'flag "btnLabel" not found for visitor "v1"; known keys: btnColor, btnText',
          ],
          'a second key warns once more; the same key read by another visitor of the instance does not',
        );
      }));

    it('none for a key that is present, nor for exists() and getFlagStatus() of a missing one', () =>
      withSession(h, { decisions: { '*': checkout } }, async ({ instance, logs }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        for (let i = 0; i < 3; i++) assert.equal(visitor.getFlag('btnColor').value('red', quiet), 'green');
        assert.equal(visitor.getFlag('btnColour').exists(), false);
        assert.equal(visitor.getFlag('btnColour').getFlagStatus(), 'NOT_FOUND');
        assert.deepEqual(warnings(logs), []);
      }));

    it('none before any fetch (flags not known yet); after the fetch the first read warns', () =>
      withSession(h, { decisions: { '*': checkout } }, async ({ instance, logs }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        assert.equal(visitor.getFlag('btnColour').value('red'), 'red');
        assert.equal(
          visitor.getFlag('btnColor').value('red'),
          'red',
          'not fetched: every value is the default',
        );
        assert.deepEqual(notFound(logs), []);
        await visitor.fetchFlags();
        visitor.getFlag('btnColour').value('red');
        assert.deepEqual(notFound(logs), [
          'flag "btnColour" not found for visitor "v1"; known keys: btnColor, btnText',
        ]);
      }));

    it('none when the only fetch failed: the flags are still unknown', () =>
      withSession(
        h,
        { queued: { decision: [{ status: 500, body: { message: 'down', code: 'internal' } }] } },
        async ({ instance, logs }) => {
          const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
          await visitor.fetchFlags();
          assert.equal(visitor.fetchReasons, 'FLAGS_FETCHING_ERROR');
          visitor.getFlag('btnColour').value('red');
          assert.deepEqual(notFound(logs), []);
        },
      ));

    it('none in panic, where every value is the default by design', () =>
      withSession(h, { decisions: { '*': panicDecision('*') } }, async ({ instance, logs }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        assert.equal(visitor.flagStatus, 'PANIC');
        assert.equal(visitor.getFlag('btnColour').value('red'), 'red');
        await visitor.getFlag('btnColour').visitorExposed();
        assert.deepEqual(notFound(logs), []);
      }));

    it('warns for flags known from a cache (initial flags), before any fetch', () =>
      withSession(h, {}, ({ instance, logs }) => {
        const visitor = instance
          .newVisitor({ visitorId: 'v1', hasConsented: true })
          .withInitialFlags(decision('v1', [campaign('c1', 'vg1', 'v2', { btnColor: 'green' })]))
          .build();
        assert.equal(visitor.fetchReasons, 'FLAGS_FETCHED_FROM_CACHE');
        assert.equal(visitor.getFlag('btnColour').value('red', quiet), 'red');
        assert.deepEqual(notFound(logs), [
          'flag "btnColour" not found for visitor "v1"; known keys: btnColor',
        ]);
      }));

    it('lists the first 10 known keys, then "…"', () => {
      // Keys that sort as they are listed: the order of a decision's keys is not what this test is about.
      const flags = Object.fromEntries(
        Array.from({ length: 12 }, (_, i) => [`k${String(i + 1).padStart(2, '0')}`, i]),
      );
      return withSession(
        h,
        { decisions: { '*': decision('*', [campaign('c1', 'vg1', 'v2', flags)]) } },
        async ({ instance, logs }) => {
          const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
          await visitor.fetchFlags();
          visitor.getFlag('k13').value(0, quiet);
          assert.deepEqual(notFound(logs), [
            'flag "k13" not found for visitor "v1"; known keys: k01, k02, k03, k04, k05, k06, k07, k08, k09, k10, …',
          ]);
        },
      );
    });
  });

  describe('a failed request names the URL it tried (the API key is a header, never in it)', () => {
    /** The log lines that name the route, once the server is gone. */
    const lineNaming = async (s: Session, path: string): Promise<string> => {
      const url = `${s.double.url}${path}`;
      await until(() => s.logs.some((l) => l.message.includes(url)), { what: `a log line naming ${url}` });
      return s.logs.find((l) => l.message.includes(url))?.message ?? '';
    };

    it('the decision request: POST {server}/v2/{envId}/campaigns, without the query', () =>
      withSession(h, { decisions: { '*': checkout } }, async (s) => {
        await s.double.stop();
        const visitor = s.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        const line = await lineNaming(s, `/v2/${s.double.envId}/campaigns`);
        assert.ok(
          line.startsWith(
            `fetchFlags failed: POST ${s.double.url}/v2/${s.double.envId}/campaigns: the decision request failed: `,
          ),
          line,
        );
        assert.ok(!line.includes('?') && !line.includes(s.double.apiKey), line);
      }));

    it('the tracking request: POST {server}/events', () =>
      withSession(
        h,
        { decisions: { '*': checkout }, configure: (c) => c.withTrackingConfig({ poolMaxSize: 1 }) },
        async (s) => {
          const visitor = s.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
          await visitor.fetchFlags();
          await s.double.stop();
          await visitor.sendHit(new Event({ category: EventCategory.Action_Tracking, action: 'buy' }));
          const line = await lineNaming(s, '/events');
          assert.match(
            line,
            /^Tracking: \d+ hits kept, next attempt in \d+ ms \(POST http:\/\/127\.0\.0\.1:\d+\/events: network error: /,
          );
          assert.ok(!line.includes(s.double.apiKey), line);
        },
      ));
  });
};

// Flag (SPEC.md Flag operations; PROTOCOL.md §9.1, §9.2, §9.3 and its type table, §16.3 flag status and
// liveness), against the double.
import type { FlagMetadata } from '../../../src/core/public.js';
import { EMPTY_METADATA, campaign, decision, panicDecision } from './decisions.js';
import type { CoreHarness } from './harness.js';
import { until } from '../../support/until.js';
import { activationsReceived, withSession, type SessionOptions } from './session.js';

const FLAGS = { str: 'green', num: 3, float: 2.5, bool: false, arr: [1, 2], obj: { a: 1 }, nul: null };

const METADATA: FlagMetadata = {
  campaignId: 'c1',
  campaignName: 'Checkout',
  variationGroupId: 'vg1',
  variationGroupName: 'Members',
  variationId: 'v2',
  variationName: 'Green',
  isReference: false,
  campaignType: 'ab',
  slug: 'checkout',
};

const checkout = decision('*', [
  campaign('c1', 'vg1', 'v2', FLAGS, {
    name: 'Checkout',
    slug: 'checkout',
    type: 'ab',
    variationGroupName: 'Members',
    variationName: 'Green',
  }),
]);

/** One decision for every visitor; each read exposes at once (a pool of one). */
const session: SessionOptions = {
  decisions: { '*': checkout },
  configure: (c) => c.withTrackingConfig({ poolMaxSize: 1 }),
};

const quiet = { visitorExposed: false };

/** Defines the Flag suite on a runtime's harness. */
export const defineFlagSuite = (h: CoreHarness): void => {
  const { describe, it, assert } = h;

  describe('Flag.value and metadata (SPEC.md Flag operations, PROTOCOL.md §9.3)', () => {
    it('the value when the default has the same type: string, integer, double, boolean, array, object', () =>
      withSession(h, session, async ({ instance }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        assert.equal(visitor.getFlag('str').value('red', quiet), 'green');
        assert.equal(visitor.getFlag('num').value(0, quiet), 3);
        assert.equal(visitor.getFlag('float').value(1.0, quiet), 2.5);
        assert.equal(visitor.getFlag('bool').value(true, quiet), false);
        assert.deepEqual(visitor.getFlag('arr').value([] as number[], quiet), [1, 2]);
        assert.deepEqual(visitor.getFlag('obj').value<Record<string, number>>({}, quiet), { a: 1 });
        assert.deepEqual(visitor.getFlag('str').metadata(), METADATA);
      }));

    it('the default when the flag is missing, its value is null, or the types differ (metadata then empty)', () =>
      withSession(h, session, async ({ instance }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        const missing = visitor.getFlag('missing');
        assert.equal(missing.value('d', quiet), 'd');
        assert.deepEqual(missing.metadata(), EMPTY_METADATA);
        const nul = visitor.getFlag('nul');
        assert.equal(nul.value('d', quiet), 'd');
        assert.deepEqual(nul.metadata(), METADATA, 'a null value keeps its metadata (§9.2)');
        assert.equal(nul.exists(), true);
        const mismatches: Array<[string, unknown]> = [
          ['str', 1],
          ['num', '1'],
          ['bool', 'true'],
          ['arr', {}],
          ['obj', []],
          ['str', ['x']],
        ];
        for (const [key, d] of mismatches) {
          const flag = visitor.getFlag(key);
          assert.deepEqual(flag.value(d, quiet), d, key);
          assert.deepEqual(flag.metadata(), EMPTY_METADATA, `${key}: metadata empty on type mismatch`);
        }
      }));

    it('a null or undefined default accepts any type', () =>
      withSession(h, session, async ({ instance }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        assert.equal(visitor.getFlag('str').value(null, quiet), 'green');
        assert.equal(visitor.getFlag('num').value(undefined, quiet), 3);
      }));

    it('§9.3 exposure column: missing none, null reported, type differs none, otherwise reported', () =>
      withSession(
        h,
        {
          // One variation group per row, so each activation names the row that sent it.
          decisions: {
            '*': decision('*', [
              campaign('c-null', 'vg-null', 'v-null', { unset: null }),
              campaign('c-mismatch', 'vg-mismatch', 'v-mismatch', { typed: 'text' }),
              campaign('c-ok', 'vg-ok', 'v-ok', { ok: 'yes' }),
            ]),
          },
          configure: (c) => c.withTrackingConfig({ poolMaxSize: 1 }),
        },
        async ({ instance, double }) => {
          const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
          await visitor.fetchFlags();
          assert.equal(visitor.getFlag('missing').value('d'), 'd');
          assert.equal(visitor.getFlag('unset').value('d'), 'd');
          assert.equal(visitor.getFlag('typed').value(0), 0);
          assert.equal(visitor.getFlag('ok').value('no'), 'yes');
          await instance.close();
          assert.deepEqual((await activationsReceived(double)).map((a) => a.caid).sort(), [
            'vg-null',
            'vg-ok',
          ]);
        },
      ));

    it('a type mismatch is logged once per key and default type, and exposes nothing', () =>
      withSession(h, session, async ({ instance, double, logs }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        for (let i = 0; i < 5; i++) visitor.getFlag('str').value(1);
        assert.deepEqual(
          logs.filter((l) => l.message.includes('flag "str" is a string')),
          [
            {
              level: 'WARNING',
              message:
                'flag "str" is a string but the default is a number: the default is returned and no exposure is reported.',
            },
          ],
        );
        await instance.close();
        assert.equal((await activationsReceived(double)).length, 0);
      }));

    it('in panic every value is the default, metadata empty, status PANIC, no exposure', () =>
      withSession(h, session, async ({ instance, double }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        const flag = visitor.getFlag('str');
        await double.queue('decision', [{ status: 200, body: panicDecision('v1') }]);
        await visitor.fetchFlags();
        assert.equal(flag.value('red'), 'red');
        assert.deepEqual(flag.metadata(), EMPTY_METADATA);
        assert.equal(flag.getFlagStatus(), 'PANIC');
        assert.equal(flag.exists(), false);
        await flag.visitorExposed();
        await instance.close();
        assert.equal((await activationsReceived(double)).length, 0);
      }));

    it('reading never throws, whatever the default', () =>
      withSession(h, session, async ({ instance }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        for (const d of [Symbol('s'), () => 1, 10n, NaN]) {
          assert.equal(visitor.getFlag('obj').value(d, quiet), d);
          visitor.getFlag('nope').metadata();
        }
        // The call itself is the check: a throw fails the test.
        assert.equal(visitor.getFlag(undefined as never).value(1), 1);
        let thrown: unknown = null;
        try {
          visitor.getFlag(3 as never).metadata();
        } catch (e) {
          thrown = e;
        }
        assert.equal(thrown, null);
      }));
  });

  describe('Flag status and liveness (PROTOCOL.md §16.3)', () => {
    it('NOT_FOUND, FETCH_REQUIRED, FETCHED, read when called; a flag got before a fetch reads the fetched value', () =>
      withSession(h, session, async ({ instance, double }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        const flag = visitor.getFlag('str');
        assert.equal(flag.exists(), false);
        assert.equal(flag.getFlagStatus(), 'NOT_FOUND');
        assert.equal(flag.value('red', quiet), 'red');
        await visitor.fetchFlags();
        assert.equal(flag.exists(), true);
        assert.equal(flag.getFlagStatus(), 'FETCHED');
        assert.equal(flag.value('red', quiet), 'green');
        assert.deepEqual(flag.metadata(), METADATA);
        visitor.updateContext('plan', 'x');
        assert.equal(flag.getFlagStatus(), 'FETCH_REQUIRED');
        assert.equal(visitor.getFlag('missing').getFlagStatus(), 'NOT_FOUND');
        await double.queue('decision', [
          { status: 200, body: decision('v1', [campaign('c1', 'vg1', 'v2', { str: 'blue' })]), delayMs: 50 },
        ]);
        const fetching = visitor.fetchFlags();
        await until(() => visitor.flagStatus === 'FETCHING', { what: 'FETCHING' });
        assert.equal(flag.getFlagStatus(), 'FETCH_REQUIRED', 'FETCHING reads as FETCH_REQUIRED');
        await fetching;
        assert.equal(flag.value('red', quiet), 'blue');
      }));

    it('the key property and metadata are copies', () =>
      withSession(h, session, async ({ instance }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        const flag = visitor.getFlag('str');
        assert.equal(flag.key, 'str');
        const m = flag.metadata();
        m.campaignId = 'changed';
        assert.equal(flag.metadata().campaignId, 'c1');
      }));
  });

  describe('flag building (PROTOCOL.md §9.1)', () => {
    it('the last campaign wins, except that null never replaces an earlier value', () =>
      withSession(
        h,
        {
          decisions: {
            '*': decision('*', [
              campaign('c1', 'vg1', 'v1', { a: 'first', b: 'first' }),
              campaign('c2', 'vg2', 'v2', { a: 'second', b: null }),
            ]),
          },
        },
        async ({ instance }) => {
          const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
          await visitor.fetchFlags();
          assert.equal(visitor.getFlag('a').value('', quiet), 'second');
          assert.equal(visitor.getFlag('a').metadata().campaignId, 'c2');
          assert.equal(visitor.getFlag('b').value('', quiet), 'first');
          assert.equal(visitor.getFlag('b').metadata().campaignId, 'c1');
          assert.deepEqual([...visitor.getFlags().keys()], ['a', 'b']);
        },
      ));
  });
};

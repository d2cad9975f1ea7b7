// Exposure (PROTOCOL.md §4): one activation per visitor object and variation, the OnVisitorExposed callback
// (SPEC.md Events) only after the server acknowledged, VisitorExposed / ExposedFlag toJson shapes (§9.5).
import type { ExposedFlag, VisitorExposed } from '../../../src/core/public.js';
import type { Decision } from '../../../src/protocol/index.js';
import { campaign, decision } from './decisions.js';
import type { CoreHarness } from './harness.js';
import { until } from '../../support/until.js';
import { activationsReceived, withSession, type SessionOptions } from './session.js';

type Exposure = [VisitorExposed, ExposedFlag];

const checkout = (variation: string): Decision =>
  decision('*', [
    campaign('c1', 'vg1', variation, { btnColor: 'green', size: 2, unset: null }, { slug: 'checkout' }),
    campaign('c2', 'vg9', 'w1', { other: true }),
  ]);

/** Every visitor gets variation v2 of vg1 and w1 of vg9; each exposure is sent at once (a pool of one). */
const session = (exposed: Exposure[], variation = 'v2'): SessionOptions => ({
  decisions: { '*': checkout(variation) },
  configure: (c) =>
    c.withTrackingConfig({ poolMaxSize: 1 }).withOnVisitorExposed((v, f) => exposed.push([v, f])),
});

/** Defines the exposure suite on a runtime's harness. */
export const defineExposureSuite = (h: CoreHarness): void => {
  const { describe, it, assert } = h;

  describe('exposure rules (PROTOCOL.md §4)', () => {
    it('repeated reads, and reads of another flag of the same variation, send one activation', () =>
      withSession(h, session([]), async ({ instance, double }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        for (let i = 0; i < 20; i++) visitor.getFlag('btnColor').value('red');
        visitor.getFlag('size').value(0);
        await visitor.getFlag('btnColor').visitorExposed();
        await instance.close();
        assert.deepEqual(
          (await activationsReceived(double)).map((a) => [a.vid, a.aid, a.caid, a.vaid]),
          [['v1', null, 'vg1', 'v2']],
        );
      }));

    it('a later fetch assigning a different variation sends a new activation; a new visitor object sends its own', () =>
      withSession(h, session([]), async ({ instance, double }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        visitor.getFlag('btnColor').value('red');
        await double.setDecisions({ '*': checkout('v3') });
        await visitor.fetchFlags();
        visitor.getFlag('btnColor').value('red');
        visitor.getFlag('btnColor').value('red');
        const again = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await again.fetchFlags();
        again.getFlag('btnColor').value('red');
        await instance.close();
        assert.deepEqual(
          (await activationsReceived(double)).map((a) => a.vaid),
          ['v2', 'v3', 'v3'],
        );
      }));

    it('value(d, {visitorExposed: false}) exposes nothing; visitorExposed() then does, once', () => {
      const exposed: Exposure[] = [];
      return withSession(h, session(exposed), async ({ instance, double }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        const flag = visitor.getFlag('btnColor');
        assert.equal(flag.value('red', { visitorExposed: false }), 'green');
        // Activations leave in order (a pool of one): once another variation's exposure is acknowledged, an
        // exposure of btnColor's read would have been sent before it. No timing is assumed.
        visitor.getFlag('other').value(false);
        await until(() => exposed.length === 1, { what: 'the other exposure' });
        assert.deepEqual(
          (await activationsReceived(double)).map((a) => a.caid),
          ['vg9'],
        );
        await flag.visitorExposed();
        await flag.visitorExposed();
        await instance.close();
        assert.deepEqual(
          (await activationsReceived(double)).map((a) => a.caid),
          ['vg9', 'vg1'],
        );
      });
    });

    it('a null value (exposeAllKeys) is exposed; a missing flag is not', () =>
      withSession(h, session([]), async ({ instance, double }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        assert.equal(visitor.getFlag('unset').value('d'), 'd');
        assert.equal(visitor.getFlag('missing').value('d'), 'd');
        await visitor.getFlag('missing').visitorExposed();
        await instance.close();
        assert.deepEqual(
          (await activationsReceived(double)).map((a) => a.caid),
          ['vg1'],
        );
      }));

    it('no consent: no activation and no callback', () => {
      const exposed: Exposure[] = [];
      return withSession(h, session(exposed), async ({ instance, double }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: false }).build();
        await visitor.fetchFlags();
        visitor.getFlag('btnColor').value('red');
        await visitor.getFlag('other').visitorExposed();
        await instance.close();
        assert.equal((await activationsReceived(double)).length, 0);
        assert.deepEqual(exposed, []);
      });
    });

    it('an authenticated visitor sends vid = authenticated id and aid = anonymous id', () =>
      withSession(h, session([]), async ({ instance, double }) => {
        const visitor = instance.newVisitor({ visitorId: 'anon-7', hasConsented: true }).build();
        visitor.authenticate('user-42');
        await visitor.fetchFlags();
        visitor.getFlag('btnColor').value('red');
        await instance.close();
        assert.deepEqual(
          (await activationsReceived(double)).map((a) => [a.vid, a.aid]),
          [['user-42', 'anon-7']],
        );
      }));
  });

  describe('OnVisitorExposed (SPEC.md Events)', () => {
    it('fires once per flag key when the server acknowledged, with VisitorExposed and ExposedFlag', () => {
      const exposed: Exposure[] = [];
      return withSession(h, session(exposed), async ({ instance, double }) => {
        const visitor = instance
          .newVisitor({ visitorId: 'user-42', hasConsented: true })
          .withContext({ plan: 'premium' })
          .build();
        await visitor.fetchFlags();
        visitor.getFlag('btnColor').value('red');
        visitor.getFlag('btnColor').value('red');
        visitor.getFlag('size').value(1);
        await until(() => exposed.length === 2, { what: 'two callbacks' });
        // Already acknowledged: a read of another key of the same variation fires without waiting for the
        // server, and nothing new is sent.
        visitor.getFlag('unset').value('x');
        await until(() => exposed.length === 3, { what: 'the third callback' });
        const [v, f] = exposed[0] ?? [];
        assert.equal(v?.id, 'user-42');
        assert.equal(v?.anonymousId, null);
        assert.equal(v?.context.plan, 'premium');
        assert.deepEqual(JSON.parse(v?.toJson() ?? ''), {
          id: 'user-42',
          anonymousId: null,
          context: { ...visitor.context },
        });
        assert.equal(f?.key, 'btnColor');
        assert.equal(f?.value, 'green');
        assert.equal(f?.defaultValue, 'red');
        assert.equal(f?.metadata().variationId, 'v2');
        assert.deepEqual(JSON.parse(f?.toJson() ?? ''), {
          key: 'btnColor',
          value: 'green',
          defaultValue: 'red',
          metadata: {
            campaignId: 'c1',
            variationGroupId: 'vg1',
            variationId: 'v2',
            isReference: false,
            campaignType: 'ab',
            slug: 'checkout',
          },
        });
        assert.deepEqual(
          exposed.map(([, flag]) => flag.key),
          ['btnColor', 'size', 'unset'],
        );
        await instance.close();
        assert.equal((await activationsReceived(double)).length, 1);
        assert.equal(exposed.length, 3, 'no callback after close');
      });
    });

    it('fires only after the activation is acknowledged', () => {
      const exposed: Exposure[] = [];
      return withSession(h, session(exposed), async ({ instance, double }) => {
        // The acknowledgement is held back: the activation has arrived, the callback must wait for the answer.
        await double.queue('activate', [{ status: 204, delayMs: 300 }]);
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        visitor.getFlag('btnColor').value('red');
        await until(async () => (await activationsReceived(double)).length === 1, { what: 'the activation' });
        assert.equal(exposed.length, 0, 'no callback before the answer');
        await until(() => exposed.length === 1, { what: 'the callback' });
        assert.equal(exposed[0]?.[1].key, 'btnColor');
      });
    });

    it('an empty slug is null in ExposedFlag.toJson; nothing fires when the server refuses the activation', () => {
      const exposed: Exposure[] = [];
      return withSession(
        h,
        {
          decisions: { '*': decision('*', [campaign('c2', 'vg9', 'w1', { other: true })]) },
          configure: (c) =>
            c.withTrackingConfig({ poolMaxSize: 1 }).withOnVisitorExposed((v, f) => exposed.push([v, f])),
        },
        async ({ instance, double }) => {
          const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
          await visitor.fetchFlags();
          visitor.getFlag('other').value(false);
          await until(() => exposed.length === 1, { what: 'the callback' });
          assert.equal(
            (JSON.parse(exposed[0]?.[1].toJson() ?? '{}') as { metadata: { slug: unknown } }).metadata.slug,
            null,
          );
          await double.queue('activate', [{ status: 400, body: { message: 'bad', code: 'invalid_body' } }]);
          await double.setDecisions({ '*': decision('*', [campaign('c2', 'vg9', 'w2', { other: true })]) });
          await visitor.fetchFlags();
          visitor.getFlag('other').value(false);
          await until(async () => (await activationsReceived(double)).length === 2, {
            what: 'the refused one',
          });
          await instance.close();
          assert.equal(exposed.length, 1);
        },
      );
    });
  });
};

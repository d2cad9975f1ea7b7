// Consent and hits (SPEC.md setConsent, sendHit and the visitor cache's flushVisitor; PROTOCOL.md §5.1): the
// fs_consent event is the one hit sent when consent is false, flushVisitor is called every time, pooled items
// are dropped.
import { campaign, decision, panicDecision } from './decisions.js';
import type { CoreHarness, DoubleHandle } from './harness.js';
import { activationsReceived, hitsReceived, withSession, type SessionOptions } from './session.js';

const consentEvents = async (double: DoubleHandle): Promise<unknown[][]> =>
  (await hitsReceived(double)).filter((h) => h.ea === 'fs_consent').map((h) => [h.vid, h.t, h.ec, h.el]);

const green: SessionOptions = {
  decisions: { '*': decision('*', [campaign('c1', 'vg1', 'v2', { btn: 'green' })]) },
};

/** Defines the consent suite on a runtime's harness. */
export const defineConsentSuite = (h: CoreHarness): void => {
  const { describe, it, assert } = h;
  const { Event, EventCategory, Page, Screen, Transaction } = h.sdk;

  describe('consent', () => {
    it('fs_consent is sent at creation and on every change, never when unchanged', () =>
      withSession(h, {}, async ({ instance, double }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.setConsent(true);
        await visitor.setConsent(false);
        await visitor.setConsent(false);
        await visitor.setConsent(true);
        instance.newVisitor({ visitorId: 'v2', hasConsented: false }).build();
        await instance.close();
        // The creation event was still pooled when consent was withdrawn: withdrawal drops it (§5.1).
        assert.deepEqual(await consentEvents(double), [
          ['v1', 'EVENT', 'User Engagement', 'feature-ts:false'],
          ['v1', 'EVENT', 'User Engagement', 'feature-ts:true'],
          ['v2', 'EVENT', 'User Engagement', 'feature-ts:false'],
        ]);
      }));

    it('setConsent(false) drops pooled hits and activations, calls flushVisitor every time, then queues fs_consent only', () =>
      withSession(
        h,
        { ...green, configure: (c) => c.withTrackingConfig({ batchIntervals: 3600, poolMaxSize: 100 }) },
        async ({ instance, double, cache }) => {
          const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
          await visitor.fetchFlags();
          assert.equal(typeof (await cache.record('v1')), 'string', 'a fetch with consent writes the record');
          visitor.getFlag('btn').value('red');
          await visitor.sendHit(new Screen({ location: 'home' }));
          await visitor.setConsent(false);
          await visitor.setConsent(false);
          assert.deepEqual(
            cache.calls.filter((c) => c.startsWith('flushVisitor')),
            ['flushVisitor v1', 'flushVisitor v1'],
          );
          assert.equal(await cache.record('v1'), null);
          assert.equal(visitor.getFlag('btn').value('red'), 'green', 'values are still read');
          await visitor.fetchFlags();
          assert.equal(await cache.record('v1'), null, 'no cache write while consent is false');
          assert.deepEqual(
            cache.calls.filter((c) => c.startsWith('cacheVisitor')),
            ['cacheVisitor v1'],
          );
          await instance.close();
          assert.deepEqual(
            (await hitsReceived(double)).map((hit) => [hit.t, hit.el]),
            [['EVENT', 'feature-ts:false']],
          );
          assert.equal((await activationsReceived(double)).length, 0);
        },
      ));

    it('consent false from the start: sendHit sends nothing and logs it; no exposure', () =>
      withSession(h, green, async ({ instance, double, logs }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: false }).build();
        await visitor.fetchFlags();
        assert.equal(visitor.getFlag('btn').value('red'), 'green', 'values still read');
        await visitor.sendHit(new Event({ category: EventCategory.Action_Tracking, action: 'buy' }));
        await instance.close();
        assert.deepEqual(await consentEvents(double), [
          ['v1', 'EVENT', 'User Engagement', 'feature-ts:false'],
        ]);
        assert.equal((await hitsReceived(double)).length, 1);
        assert.equal((await activationsReceived(double)).length, 0);
        assert.ok(logs.some((l) => l.message === 'hit not sent: visitor "v1" has not consented.'));
      }));
  });

  describe('sendHit', () => {
    it('decision-API mode: the SDK sends no SEGMENT hit of its own; the decision request carries the context (§3)', () =>
      withSession(h, green, async ({ instance, double }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        visitor.updateContext('plan', 'premium');
        await visitor.fetchFlags();
        visitor.updateContext('plan', 'gold');
        await visitor.fetchFlags();
        await instance.close();
        assert.deepEqual(
          (await hitsReceived(double)).map((hit) => [hit.t, hit.ea]),
          [['EVENT', 'fs_consent']],
        );
        assert.equal((await double.requests('decision')).length, 2);
      }));

    it('valid hits are handed to the tracker and sent with the visitor ids', () =>
      withSession(h, {}, async ({ instance, double }) => {
        const visitor = instance.newVisitor({ visitorId: 'anon-7', hasConsented: true }).build();
        visitor.authenticate('user-42');
        await visitor.sendHit(new Screen({ location: 'checkout' }));
        await visitor.sendHit(new Page({ location: 'https://shop.example/cart' }));
        await visitor.sendHit(
          new Transaction({ transactionId: 'T1', affiliation: 'Purchase', revenue: 20.5, currency: 'EUR' }),
        );
        await visitor.sendHit(
          new Event({
            category: EventCategory.Action_Tracking,
            action: 'add_to_cart',
            label: 'btn',
            value: 3,
          }),
        );
        await instance.close();
        assert.deepEqual(
          (await hitsReceived(double))
            .filter((hit) => hit.ea !== 'fs_consent')
            .map((hit) => [hit.t, hit.vid, hit.cuid]),
          [
            ['SCREENVIEW', 'anon-7', 'user-42'],
            ['PAGEVIEW', 'anon-7', 'user-42'],
            ['TRANSACTION', 'anon-7', 'user-42'],
            ['EVENT', 'anon-7', 'user-42'],
          ],
        );
      }));

    it('an invalid hit is not sent: the reason from hit.validate() is logged', () =>
      withSession(h, {}, async ({ instance, double, logs }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        const bad = new Event({ category: EventCategory.Action_Tracking, action: 'x', value: -1 });
        const problem = bad.validate();
        assert.notEqual(problem, null);
        await visitor.sendHit(bad);
        await visitor.sendHit({ not: 'a hit' } as never);
        await instance.close();
        assert.equal((await hitsReceived(double)).filter((hit) => hit.ea !== 'fs_consent').length, 0);
        assert.deepEqual(
          logs.filter((l) => l.level === 'ERROR').map((l) => l.message),
          [
            `hit not sent: ${String(problem)}`,
            'sendHit takes a Screen, Page, Transaction, Item or Event hit.',
          ],
        );
      }));

    it('in panic no hit is sent', () =>
      withSession(h, { decisions: { '*': panicDecision('*') } }, async ({ instance, double }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        await visitor.sendHit(new Screen({ location: 'home' }));
        await instance.close();
        assert.deepEqual(
          (await hitsReceived(double)).map((hit) => hit.el),
          ['feature-ts:true'],
          'only the creation event, queued before panic',
        );
      }));
  });
};

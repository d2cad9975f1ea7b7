// Consent and hits (SPEC.md setConsent, sendHit; PROTOCOL.md §5.1): the fs_consent event, flushVisitor, drops.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { Event, EventCategory, Page, Screen, Transaction } from '../../src/core/node.js';
import { activationsReceived, campaign, decision, hitsReceived, startSdk, type Sdk } from './support.js';

let sdk: Sdk | undefined;
afterEach(async () => {
  await sdk?.close();
  sdk = undefined;
});

const consentEvents = (s: Sdk) =>
  hitsReceived(s.double)
    .filter((h) => h.ea === 'fs_consent')
    .map((h) => [h.vid, h.t, h.ec, h.el]);

void describe('consent', () => {
  void test('fs_consent is sent at creation and on every change, never when unchanged', async () => {
    sdk = await startSdk();
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.setConsent(true);
    await visitor.setConsent(false);
    await visitor.setConsent(false);
    await visitor.setConsent(true);
    sdk.instance.newVisitor({ visitorId: 'v2', hasConsented: false }).build();
    await sdk.instance.close();
    // The creation event was still pooled when consent was withdrawn: withdrawal drops it (PROTOCOL.md §5.1).
    assert.deepEqual(consentEvents(sdk), [
      ['v1', 'EVENT', 'User Engagement', 'feature-ts:false'],
      ['v1', 'EVENT', 'User Engagement', 'feature-ts:true'],
      ['v2', 'EVENT', 'User Engagement', 'feature-ts:false'],
    ]);
  });

  void test('setConsent(false) drops pooled hits and activations, calls flushVisitor every time, then queues fs_consent', async () => {
    sdk = await startSdk(
      { decide: (b) => decision(b.visitorId, [campaign('c1', 'vg1', 'v2', { btn: 'green' })]) },
      (c) => c.withTrackingConfig({ batchIntervals: 3600, poolMaxSize: 100 }),
    );
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    assert.ok(sdk.cache.records.has('v1'), 'a fetch with consent writes the record');
    visitor.getFlag('btn').value('red');
    await visitor.sendHit(new Screen({ location: 'home' }));
    await visitor.setConsent(false);
    await visitor.setConsent(false);
    assert.deepEqual(
      sdk.cache.calls.filter((c) => c.startsWith('flushVisitor')),
      ['flushVisitor v1', 'flushVisitor v1'],
    );
    assert.equal(sdk.cache.records.has('v1'), false);
    await visitor.fetchFlags();
    assert.equal(sdk.cache.records.has('v1'), false, 'no cache write while consent is false');
    await sdk.instance.close();
    assert.deepEqual(
      hitsReceived(sdk.double).map((h) => [h.t, h.el]),
      [['EVENT', 'feature-ts:false']],
    );
    assert.equal(activationsReceived(sdk.double).length, 0);
  });

  void test('consent false: sendHit sends nothing and logs it; no exposure', async () => {
    sdk = await startSdk({
      decide: (b) => decision(b.visitorId, [campaign('c1', 'vg1', 'v2', { btn: 'green' })]),
    });
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: false }).build();
    await visitor.fetchFlags();
    assert.equal(visitor.getFlag('btn').value('red'), 'green', 'values still read');
    await visitor.sendHit(new Event({ category: EventCategory.Action_Tracking, action: 'buy' }));
    await sdk.instance.close();
    assert.deepEqual(consentEvents(sdk), [['v1', 'EVENT', 'User Engagement', 'feature-ts:false']]);
    assert.equal(hitsReceived(sdk.double).length, 1);
    assert.ok(sdk.logs.lines.some((l) => l.message === 'hit not sent: visitor "v1" has not consented.'));
  });
});

void describe('sendHit', () => {
  void test('valid hits are handed to the tracker and sent with the visitor ids', async () => {
    sdk = await startSdk();
    const visitor = sdk.instance.newVisitor({ visitorId: 'anon-7', hasConsented: true }).build();
    visitor.authenticate('user-42');
    await visitor.sendHit(new Screen({ location: 'checkout' }));
    await visitor.sendHit(new Page({ location: 'https://shop.example/cart' }));
    await visitor.sendHit(
      new Transaction({ transactionId: 'T1', affiliation: 'Purchase', revenue: 20.5, currency: 'EUR' }),
    );
    await visitor.sendHit(
      new Event({ category: EventCategory.Action_Tracking, action: 'add_to_cart', label: 'btn', value: 3 }),
    );
    await sdk.instance.close();
    assert.deepEqual(
      hitsReceived(sdk.double)
        .filter((h) => h.ea !== 'fs_consent')
        .map((h) => [h.t, h.vid, h.cuid]),
      [
        ['SCREENVIEW', 'anon-7', 'user-42'],
        ['PAGEVIEW', 'anon-7', 'user-42'],
        ['TRANSACTION', 'anon-7', 'user-42'],
        ['EVENT', 'anon-7', 'user-42'],
      ],
    );
  });

  void test('an invalid hit is not sent: the reason from hit.validate() is logged', async () => {
    sdk = await startSdk();
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    const bad = new Event({ category: EventCategory.Action_Tracking, action: 'x', value: -1 });
    const problem = bad.validate();
    assert.notEqual(problem, null);
    await visitor.sendHit(bad);
    await visitor.sendHit({ not: 'a hit' } as never);
    await sdk.instance.close();
    assert.equal(hitsReceived(sdk.double).filter((h) => h.ea !== 'fs_consent').length, 0);
    assert.deepEqual(
      sdk.logs.lines.filter((l) => l.level === 'ERROR').map((l) => l.message),
      [`hit not sent: ${String(problem)}`, 'sendHit takes a Screen, Page, Transaction, Item or Event hit.'],
    );
  });

  void test('in panic no hit is sent', async () => {
    sdk = await startSdk({ decide: (b) => ({ visitorId: b.visitorId, campaigns: [], panic: true }) });
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    await visitor.sendHit(new Screen({ location: 'home' }));
    await sdk.instance.close();
    assert.deepEqual(
      hitsReceived(sdk.double).map((h) => h.el),
      ['feature-ts:true'],
      'only the creation event, queued before panic',
    );
  });
});

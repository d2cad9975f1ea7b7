// Cache record → wire conversion (PROTOCOL.md §4, §5.1): keys, the EventCategory mapping, the vid/cuid
// swap and qt. Expected bodies are the examples of PROTOCOL.md §4 and §5.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wireJson, withQueueTime } from '../../../src/core/tracking/wire.js';
import type { CachedHitType, HitCacheRecord, JsonValue } from '../../../src/protocol/index.js';

/** The item as a request body carries it: its wire JSON, built once, with `qt` spliced in at `now`. */
const toWire = (record: HitCacheRecord, now: number): Record<string, JsonValue> =>
  JSON.parse(withQueueTime(wireJson(record), record, now)) as Record<string, JsonValue>;
const toWireHit = toWire;
const toWireActivation = toWire;

const record = (
  type: CachedHitType,
  fields: Record<string, JsonValue>,
  ids: { visitorId: string; anonymousId: string | null } = { visitorId: 'anon-7', anonymousId: null },
  createdAt = 1_000,
): HitCacheRecord => ({
  version: 1,
  data: { ...ids, type, time: createdAt, content: { hid: 'h1', createdAt, ...fields } },
});

const authenticated = { visitorId: 'user-42', anonymousId: 'anon-7' };

void describe('toWireHit', () => {
  void it('converts a Screen of an authenticated visitor (§5 example)', () => {
    assert.deepEqual(toWireHit(record('SCREENVIEW', { location: 'checkout' }, authenticated), 1_950), {
      t: 'SCREENVIEW',
      vid: 'anon-7',
      cuid: 'user-42',
      qt: 950,
      hid: 'h1',
      dl: 'checkout',
    });
  });

  void it('converts an Event of an anonymous visitor, mapping the category (§5 example)', () => {
    const wire = toWireHit(
      record('EVENT', { category: 'Action_Tracking', action: 'add_to_cart', label: 'btn', value: 3 }),
      1_010,
    );
    assert.deepEqual(wire, {
      t: 'EVENT',
      vid: 'anon-7',
      cuid: null,
      qt: 10,
      hid: 'h1',
      ec: 'Action Tracking',
      ea: 'add_to_cart',
      el: 'btn',
      ev: 3,
    });
  });

  void it('maps User_Engagement to "User Engagement"', () => {
    const wire = toWireHit(record('EVENT', { category: 'User_Engagement', action: 'fs_consent' }), 1_000);
    assert.equal((wire as { ec: string }).ec, 'User Engagement');
  });

  void it('converts a Transaction (§5 example) and every optional key', () => {
    const fields = {
      transactionId: 'T1',
      affiliation: 'Purchase',
      revenue: 20.5,
      shipping: 4,
      shippingMethod: 'post',
      tax: 3.5,
      currency: 'EUR',
      paymentMethod: 'card',
      itemCount: 2,
      couponCode: 'SPRING',
    };
    assert.deepEqual(toWireHit(record('TRANSACTION', fields, authenticated), 1_005), {
      t: 'TRANSACTION',
      vid: 'anon-7',
      cuid: 'user-42',
      qt: 5,
      hid: 'h1',
      tid: 'T1',
      ta: 'Purchase',
      tr: 20.5,
      ts: 4,
      sm: 'post',
      tt: 3.5,
      tc: 'EUR',
      pm: 'card',
      icn: 2,
      tcc: 'SPRING',
    });
  });

  void it('converts an Item', () => {
    const fields = {
      transactionId: 'T1',
      name: 'Shoe',
      code: 'S1',
      price: 9.5,
      category: 'shoes',
      quantity: 2,
    };
    assert.deepEqual(toWireHit(record('ITEM', fields), 1_000), {
      t: 'ITEM',
      vid: 'anon-7',
      cuid: null,
      qt: 0,
      hid: 'h1',
      tid: 'T1',
      in: 'Shoe',
      ic: 'S1',
      ip: 9.5,
      iv: 'shoes',
      iq: 2,
    });
  });

  void it('converts a Page with the common keys', () => {
    const fields = {
      location: 'https://shop.example/',
      userIp: '10.0.0.1',
      screenResolution: '800x600',
      userLanguage: 'fr',
      sessionNumber: 3,
    };
    assert.deepEqual(toWireHit(record('PAGEVIEW', fields), 1_000), {
      t: 'PAGEVIEW',
      vid: 'anon-7',
      cuid: null,
      qt: 0,
      hid: 'h1',
      dl: 'https://shop.example/',
      uip: '10.0.0.1',
      sr: '800x600',
      ul: 'fr',
      sn: 3,
    });
  });

  void it('converts a SEGMENT, stringifying the values', () => {
    const wire = toWireHit(record('SEGMENT', { context: { plan: 'premium', age: 31, vip: true } }), 1_000);
    assert.deepEqual((wire as { s: unknown }).s, { plan: 'premium', age: '31', vip: 'true' });
  });

  void it('sends the id in both vid and cuid for a visitor built authenticated without anonymous id', () => {
    const wire = toWireHit(
      record(
        'SCREENVIEW',
        { location: 'home', authenticated: true },
        { visitorId: 'user-42', anonymousId: null },
      ),
      1_000,
    );
    assert.equal(wire.vid, 'user-42');
    assert.equal(wire.cuid, 'user-42');
    assert.equal('authenticated' in wire, false, 'the flag is not a wire key');
  });

  void it('never sends a negative qt when the clock stepped back', () => {
    assert.equal(toWireHit(record('SCREENVIEW', { location: 'a' }), 500).qt, 0);
  });

  void it('builds the JSON once: each send splices in its own qt, the rest of the text unchanged', () => {
    const screen = record('SCREENVIEW', { location: 'caf\u00e9 "quoted"' });
    const json = wireJson(screen);
    assert.equal(json.includes('"qt"'), false);
    assert.equal(withQueueTime(json, screen, 1_250), `${json.slice(0, -1)},"qt":250}`);
    assert.deepEqual(JSON.parse(withQueueTime(json, screen, 61_000)), {
      t: 'SCREENVIEW',
      vid: 'anon-7',
      cuid: null,
      hid: 'h1',
      dl: 'café "quoted"',
      qt: 60_000,
    });
  });

  void it('sends the ids of a record of an unknown type (a cache written by hand) instead of throwing', () => {
    const odd = record('FOO' as CachedHitType, { location: 'x' });
    assert.deepEqual(toWireHit(odd, 1_000), { t: 'FOO', vid: 'anon-7', cuid: null, hid: 'h1', qt: 0 });
  });
});

void describe('toWireActivation', () => {
  void it('uses the current id in vid and the anonymous id in aid (§4 example)', () => {
    const activation = record(
      'ACTIVATE',
      { variationGroupId: 'vg1', variationId: 'v2', flagKey: 'btnColor' },
      authenticated,
    );
    assert.deepEqual(toWireActivation(activation, 1_120), {
      vid: 'user-42',
      aid: 'anon-7',
      caid: 'vg1',
      vaid: 'v2',
      qt: 120,
      hid: 'h1',
    });
  });

  void it('sends aid null for an anonymous visitor', () => {
    const activation = record('ACTIVATE', { variationGroupId: 'vg1', variationId: 'v2', flagKey: 'k' });
    assert.equal(toWireActivation(activation, 1_000).aid, null);
    assert.equal(toWireActivation(activation, 1_000).vid, 'anon-7');
  });
});

// Hit classes: validation against PROTOCOL.md §5.1 and SPEC.md's parameter tables, and the content the
// tracker receives (SDK field names, PROTOCOL.md §11).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Event, Item, Page, Screen, Transaction } from '../../../src/core/tracking/hits.js';
import { consentHit } from '../../../src/core/tracking/sdk-hits.js';
import { segmentHit } from '../../../src/core/tracking/segment-hit.js';
import { EventCategory } from '../../../src/core/status.js';
import type { HitProtocol } from '../../../src/core/tracking/hits.js';

const long = (n: number): string => 'x'.repeat(n);

void describe('hit validation', () => {
  const valid: Array<[string, HitProtocol]> = [
    ['Screen', new Screen({ location: 'checkout' })],
    ['Screen at 2048 characters', new Screen({ location: long(2048) })],
    ['Page http', new Page({ location: 'http://shop.example/cart?x=1' })],
    ['Page https', new Page({ location: 'https://shop.example/' })],
    ['Transaction minimal', new Transaction({ transactionId: 'T1', affiliation: 'Purchase' })],
    [
      'Transaction full',
      new Transaction({
        transactionId: 'T1',
        affiliation: 'Purchase',
        revenue: 20.5,
        shipping: 0,
        shippingMethod: 'post',
        tax: 3.4,
        currency: 'EUR',
        paymentMethod: 'card',
        itemCount: 2,
        couponCode: 'SPRING',
        userIp: '10.0.0.1',
        screenResolution: '1920x1080',
        userLanguage: 'fr',
        sessionNumber: 0,
      }),
    ],
    ['Item', new Item({ transactionId: 'T1', name: 'Shoe', code: 'SKU-1', price: 9.99, quantity: 2 })],
    ['Event', new Event({ category: EventCategory.Action_Tracking, action: 'add_to_cart' })],
    [
      'Event full',
      new Event({ category: EventCategory.User_Engagement, action: long(500), label: 'btn', value: 0 }),
    ],
  ];
  for (const [name, hit] of valid) void it(`accepts ${name}`, () => assert.equal(hit.validate(), null));

  // [case, hit, words the message must contain]
  const invalid: Array<[string, () => HitProtocol, string[]]> = [
    [
      'Screen without location',
      () => new Screen({} as never),
      ['Screen location', 'non-empty', 'got undefined'],
    ],
    ['Screen empty location', () => new Screen({ location: '' }), ['Screen location', 'non-empty', '""']],
    ['Screen location over 2048', () => new Screen({ location: long(2049) }), ['2048', '2049 characters']],
    ['Page relative URL', () => new Page({ location: '/cart' }), ['Page location', 'absolute', '"/cart"']],
    ['Page ftp URL', () => new Page({ location: 'ftp://x.example/' }), ['http: or https:']],
    ['Page URL over 2048', () => new Page({ location: `https://x.example/${long(2040)}` }), ['2048']],
    [
      'Transaction without affiliation',
      () => new Transaction({ transactionId: 'T1' } as never),
      ['Transaction affiliation', 'non-empty string of at most 500'],
    ],
    [
      'Transaction id over 500',
      () => new Transaction({ transactionId: long(501), affiliation: 'P' }),
      ['Transaction transactionId', '501 characters'],
    ],
    [
      'Transaction negative revenue',
      () => new Transaction({ transactionId: 'T1', affiliation: 'P', revenue: -1 }),
      ['Transaction revenue', '≥ 0', '-1'],
    ],
    [
      'Transaction infinite tax',
      () => new Transaction({ transactionId: 'T1', affiliation: 'P', tax: Infinity }),
      ['Transaction tax', 'finite', 'Infinity'],
    ],
    [
      'Transaction NaN shipping',
      () => new Transaction({ transactionId: 'T1', affiliation: 'P', shipping: NaN }),
      ['Transaction shipping', 'NaN'],
    ],
    [
      'Transaction currency of 4 letters',
      () => new Transaction({ transactionId: 'T1', affiliation: 'P', currency: 'EURO' }),
      ['Transaction currency', 'ISO 4217', '"EURO"'],
    ],
    [
      'Transaction lower-case currency',
      () => new Transaction({ transactionId: 'T1', affiliation: 'P', currency: 'eur' }),
      ['upper-case'],
    ],
    [
      'Transaction fractional itemCount',
      () => new Transaction({ transactionId: 'T1', affiliation: 'P', itemCount: 1.5 }),
      ['Transaction itemCount', 'integer', '1.5'],
    ],
    ['Item without code', () => new Item({ transactionId: 'T1', name: 'Shoe' } as never), ['Item code']],
    [
      'Item negative price',
      () => new Item({ transactionId: 'T1', name: 'Shoe', code: 'S', price: -0.5 }),
      ['Item price', '≥ 0'],
    ],
    [
      'Item fractional quantity',
      () => new Item({ transactionId: 'T1', name: 'Shoe', code: 'S', quantity: 0.5 }),
      ['Item quantity', 'integer'],
    ],
    [
      'Event unknown category',
      () => new Event({ category: 'Clicks' as never, action: 'a' }),
      ['Event category', 'EventCategory.Action_Tracking', '"Clicks"'],
    ],
    [
      'Event wire category given as SDK value',
      () => new Event({ category: 'Action Tracking' as never, action: 'a' }),
      ['Event category'],
    ],
    [
      'Event empty action',
      () => new Event({ category: EventCategory.Action_Tracking, action: '' }),
      ['Event action'],
    ],
    [
      'Event label over 500',
      () => new Event({ category: EventCategory.Action_Tracking, action: 'a', label: long(501) }),
      ['Event label', 'at most 500'],
    ],
    [
      'Event fractional value',
      () => new Event({ category: EventCategory.Action_Tracking, action: 'a', value: 2.5 }),
      ['Event value', 'integer ≥ 0', '2.5'],
    ],
    [
      'negative sessionNumber',
      () => new Screen({ location: 'home', sessionNumber: -2 }),
      ['Screen sessionNumber', 'integer ≥ 0'],
    ],
    [
      'non-string userIp',
      () => new Screen({ location: 'home', userIp: 42 as never }),
      ['Screen userIp', 'string', '42'],
    ],
  ];
  for (const [name, make, words] of invalid)
    void it(`refuses ${name}`, () => {
      const message = make().validate();
      assert.ok(message, 'a message');
      for (const word of words) assert.ok(message.includes(word), `"${message}" should mention ${word}`);
    });

  void it('is checked once: a hit is frozen when built, so its verdict stays true', () => {
    const hit = new Event({ category: EventCategory.Action_Tracking, action: 'add_to_cart', value: -1 });
    const first = hit.validate();
    assert.ok(Object.isFrozen(hit));
    assert.throws(() => Object.assign(hit, { value: 3 }), TypeError);
    assert.equal(hit.validate(), first);
    assert.equal(new Screen({ location: 'home' }).validate(), null);
  });

  void it('says exactly what to change, as in the brief', () => {
    const hit = new Event({ category: EventCategory.Action_Tracking, action: 'add_to_cart', value: -1 });
    assert.equal(hit.validate(), 'Event value must be an integer ≥ 0, got -1');
  });
});

void describe('tracked hit content', () => {
  void it('keeps SPEC.md field names, drops unset and unknown fields', () => {
    const hit = new Event({
      category: EventCategory.Action_Tracking,
      action: 'add_to_cart',
      label: 'btn',
      value: 3,
      extra: 'ignored',
    } as never);
    assert.deepEqual(hit.toTrackedHit(), {
      type: 'EVENT',
      content: { category: 'Action_Tracking', action: 'add_to_cart', label: 'btn', value: 3 },
    });
  });

  void it('gives each class its cache type (PROTOCOL.md §11)', () => {
    assert.equal(new Screen({ location: 'a' }).toTrackedHit().type, 'SCREENVIEW');
    assert.equal(new Page({ location: 'https://a.example/' }).toTrackedHit().type, 'PAGEVIEW');
    assert.equal(
      new Transaction({ transactionId: 'T', affiliation: 'A' }).toTrackedHit().type,
      'TRANSACTION',
    );
    assert.equal(new Item({ transactionId: 'T', name: 'n', code: 'c' }).toTrackedHit().type, 'ITEM');
  });

  void it('cannot have its type overridden by a stray parameter', () => {
    assert.equal(new Screen({ location: 'a', type: 'EVENT' } as never).type, 'SCREENVIEW');
  });

  void it('carries the common parameters', () => {
    const content = new Item({
      transactionId: 'T1',
      name: 'Shoe',
      code: 'S1',
      category: 'shoes',
      userLanguage: 'de',
      sessionNumber: 4,
    }).toTrackedHit().content;
    assert.deepEqual(content, {
      transactionId: 'T1',
      name: 'Shoe',
      code: 'S1',
      category: 'shoes',
      userLanguage: 'de',
      sessionNumber: 4,
    });
  });

  void it('builds the fs_consent event of PROTOCOL.md §5.1', () => {
    assert.deepEqual(consentHit(false), {
      type: 'EVENT',
      content: { category: 'User_Engagement', action: 'fs_consent', label: 'feature-ts:false' },
    });
    assert.equal(consentHit(true).content.label, 'feature-ts:true');
  });

  void it('builds a SEGMENT hit from a context', () => {
    assert.deepEqual(segmentHit({ plan: 'premium', age: 31 }), {
      type: 'SEGMENT',
      content: { context: { plan: 'premium', age: 31 } },
    });
  });
});

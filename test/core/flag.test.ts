// Flag (SPEC.md Flag operations; PROTOCOL.md §9.2, §9.3, §16.3): values, metadata, status, liveness.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import type { FlagMetadata } from '../../src/core/node.js';
import { activationsReceived, campaign, decision, startSdk, until, type Sdk } from './support.js';

let sdk: Sdk | undefined;
afterEach(async () => {
  await sdk?.close();
  sdk = undefined;
});

const EMPTY: FlagMetadata = {
  campaignId: '',
  campaignName: '',
  variationGroupId: '',
  variationGroupName: '',
  variationId: '',
  variationName: '',
  isReference: false,
  campaignType: '',
  slug: '',
};

const FLAGS = {
  str: 'green',
  num: 3,
  float: 2.5,
  bool: false,
  arr: [1, 2],
  obj: { a: 1 },
  nul: null,
};

const start = () =>
  startSdk(
    {
      decide: (b) =>
        decision(b.visitorId, [
          campaign('c1', 'vg1', 'v2', FLAGS, {
            name: 'Checkout',
            slug: 'checkout',
            type: 'ab',
            variationGroupName: 'Members',
            variationName: 'Green',
          }),
        ]),
    },
    (c) => c.withTrackingConfig({ poolMaxSize: 1 }),
  );

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

void describe('Flag.value (PROTOCOL.md §9.3)', () => {
  void test('the value when the default has the same type: string, integer, double, boolean, array, object', async () => {
    sdk = await start();
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    const opts = { visitorExposed: false };
    assert.equal(visitor.getFlag('str').value('red', opts), 'green');
    assert.equal(visitor.getFlag('num').value(0, opts), 3);
    assert.equal(visitor.getFlag('float').value(1.0, opts), 2.5);
    assert.equal(visitor.getFlag('bool').value(true, opts), false);
    assert.deepEqual(visitor.getFlag('arr').value([] as number[], opts), [1, 2]);
    assert.deepEqual(visitor.getFlag('obj').value<Record<string, number>>({}, opts), { a: 1 });
  });

  void test('the default when the flag is missing, its value is null, or the types differ (and metadata is then empty)', async () => {
    sdk = await start();
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    const opts = { visitorExposed: false };
    const missing = visitor.getFlag('missing');
    assert.equal(missing.value('d', opts), 'd');
    assert.deepEqual(missing.metadata(), EMPTY);
    const nul = visitor.getFlag('nul');
    assert.equal(nul.value('d', opts), 'd');
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
      assert.deepEqual(flag.value(d, opts), d, key);
      assert.deepEqual(flag.metadata(), EMPTY, `${key}: metadata empty on type mismatch`);
    }
  });

  void test('a null or undefined default accepts any type', async () => {
    sdk = await start();
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    assert.equal(visitor.getFlag('str').value(null, { visitorExposed: false }), 'green');
    assert.equal(visitor.getFlag('num').value(undefined, { visitorExposed: false }), 3);
  });

  void test('a type mismatch is logged once per key and default type, and exposes nothing', async () => {
    sdk = await start();
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    for (let i = 0; i < 5; i++) visitor.getFlag('str').value(1);
    const warnings = sdk.logs.lines.filter((l) => l.message.includes('flag "str" is a string'));
    assert.deepEqual(warnings, [
      {
        level: 'WARNING',
        message:
          'flag "str" is a string but the default is a number: the default is returned and no exposure is reported.',
      },
    ]);
    await sdk.instance.close();
    assert.equal(activationsReceived(sdk.double).length, 0);
  });

  void test('in panic every value is the default, metadata empty, status PANIC, no exposure', async () => {
    sdk = await start();
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    const flag = visitor.getFlag('str');
    sdk.double.script.queued.decision = [
      { status: 200, body: { visitorId: 'v1', campaigns: [], panic: true } },
    ];
    await visitor.fetchFlags();
    assert.equal(flag.value('red'), 'red');
    assert.deepEqual(flag.metadata(), EMPTY);
    assert.equal(flag.getFlagStatus(), 'PANIC');
    assert.equal(flag.exists(), false);
    await flag.visitorExposed();
    await sdk.instance.close();
    assert.equal(activationsReceived(sdk.double).length, 0);
  });

  void test('reading never throws, whatever the default', async () => {
    sdk = await start();
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    for (const d of [Symbol('s'), () => 1, 10n, NaN]) {
      assert.equal(visitor.getFlag('obj').value(d as unknown, { visitorExposed: false }), d);
      assert.doesNotThrow(() => visitor.getFlag('nope').metadata());
    }
    assert.doesNotThrow(() => visitor.getFlag(undefined as never).value(1));
  });
});

void describe('Flag status and liveness (PROTOCOL.md §16.3)', () => {
  void test('NOT_FOUND, FETCH_REQUIRED, FETCHED, read when called; a flag got before a fetch reads the fetched value', async () => {
    sdk = await start();
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    const flag = visitor.getFlag('str');
    assert.equal(flag.exists(), false);
    assert.equal(flag.getFlagStatus(), 'NOT_FOUND');
    assert.equal(flag.value('red', { visitorExposed: false }), 'red');
    await visitor.fetchFlags();
    assert.equal(flag.exists(), true);
    assert.equal(flag.getFlagStatus(), 'FETCHED');
    assert.equal(flag.value('red', { visitorExposed: false }), 'green');
    assert.deepEqual(flag.metadata(), METADATA);
    visitor.updateContext('plan', 'x');
    assert.equal(flag.getFlagStatus(), 'FETCH_REQUIRED');
    assert.equal(visitor.getFlag('missing').getFlagStatus(), 'NOT_FOUND');
    sdk.double.script.queued.decision = [
      { status: 200, body: decision('v1', [campaign('c1', 'vg1', 'v2', { str: 'blue' })]), delayMs: 50 },
    ];
    const fetching = visitor.fetchFlags();
    await until(() => visitor.flagStatus === 'FETCHING');
    assert.equal(flag.getFlagStatus(), 'FETCH_REQUIRED', 'FETCHING reads as FETCH_REQUIRED');
    await fetching;
    assert.equal(flag.value('red', { visitorExposed: false }), 'blue');
  });

  void test('the key property and metadata are copies', async () => {
    sdk = await start();
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    const flag = visitor.getFlag('str');
    assert.equal(flag.key, 'str');
    const m = flag.metadata();
    m.campaignId = 'changed';
    assert.equal(flag.metadata().campaignId, 'c1');
  });
});

void describe('flag building (PROTOCOL.md §9.1)', () => {
  void test('the last campaign wins, except that null never replaces an earlier value', async () => {
    sdk = await startSdk({
      decide: (b) =>
        decision(b.visitorId, [
          campaign('c1', 'vg1', 'v1', { a: 'first', b: 'first' }),
          campaign('c2', 'vg2', 'v2', { a: 'second', b: null }),
        ]),
    });
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    assert.equal(visitor.getFlag('a').value('', { visitorExposed: false }), 'second');
    assert.equal(visitor.getFlag('a').metadata().campaignId, 'c2');
    assert.equal(visitor.getFlag('b').value('', { visitorExposed: false }), 'first');
    assert.equal(visitor.getFlag('b').metadata().campaignId, 'c1');
    assert.deepEqual([...visitor.getFlags().keys()], ['a', 'b']);
  });
});

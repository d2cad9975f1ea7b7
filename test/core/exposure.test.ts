// Exposure (PROTOCOL.md §4): one activation per visitor object and variation, the OnVisitorExposed callback on
// acknowledgement, VisitorExposed / ExposedFlag JSON (§9.5).
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import type { ExposedFlag, VisitorExposed } from '../../src/core/node.js';
import { activationsReceived, campaign, decision, startSdk, until, type Sdk } from './support.js';

let sdk: Sdk | undefined;
afterEach(async () => {
  await sdk?.close();
  sdk = undefined;
});

const start = (variation: () => string, exposed: Array<[VisitorExposed, ExposedFlag]>) =>
  startSdk(
    {
      decide: (b) =>
        decision(b.visitorId, [
          campaign(
            'c1',
            'vg1',
            variation(),
            { btnColor: 'green', size: 2, unset: null },
            { slug: 'checkout' },
          ),
          campaign('c2', 'vg9', 'w1', { other: true }),
        ]),
    },
    (c) => c.withTrackingConfig({ poolMaxSize: 1 }).withOnVisitorExposed((v, f) => exposed.push([v, f])),
  );

void describe('exposure rules (PROTOCOL.md §4)', () => {
  void test('repeated reads, and reads of another flag of the same variation, send one activation', async () => {
    const exposed: Array<[VisitorExposed, ExposedFlag]> = [];
    sdk = await start(() => 'v2', exposed);
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    for (let i = 0; i < 20; i++) visitor.getFlag('btnColor').value('red');
    visitor.getFlag('size').value(0);
    await visitor.getFlag('btnColor').visitorExposed();
    await sdk.instance.close();
    assert.deepEqual(
      activationsReceived(sdk.double).map((a) => [a.vid, a.aid, a.caid, a.vaid]),
      [['v1', null, 'vg1', 'v2']],
    );
  });

  void test('a later fetch assigning a different variation sends a new activation; a new visitor object sends its own', async () => {
    const exposed: Array<[VisitorExposed, ExposedFlag]> = [];
    let variation = 'v2';
    sdk = await start(() => variation, exposed);
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    visitor.getFlag('btnColor').value('red');
    variation = 'v3';
    await visitor.fetchFlags();
    visitor.getFlag('btnColor').value('red');
    visitor.getFlag('btnColor').value('red');
    const again = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await again.fetchFlags();
    again.getFlag('btnColor').value('red');
    await sdk.instance.close();
    assert.deepEqual(
      activationsReceived(sdk.double).map((a) => a.vaid),
      ['v2', 'v3', 'v3'],
    );
  });

  void test('value(d, {visitorExposed: false}) exposes nothing; visitorExposed() then does, once', async () => {
    const exposed: Array<[VisitorExposed, ExposedFlag]> = [];
    sdk = await start(() => 'v2', exposed);
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    const flag = visitor.getFlag('btnColor');
    assert.equal(flag.value('red', { visitorExposed: false }), 'green');
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(activationsReceived(sdk.double).length, 0);
    await flag.visitorExposed();
    await flag.visitorExposed();
    await sdk.instance.close();
    assert.equal(activationsReceived(sdk.double).length, 1);
  });

  void test('a null value (exposeAllKeys) is exposed; a missing flag is not', async () => {
    const exposed: Array<[VisitorExposed, ExposedFlag]> = [];
    sdk = await start(() => 'v2', exposed);
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    assert.equal(visitor.getFlag('unset').value('d'), 'd');
    assert.equal(visitor.getFlag('missing').value('d'), 'd');
    await visitor.getFlag('missing').visitorExposed();
    await sdk.instance.close();
    assert.deepEqual(
      activationsReceived(sdk.double).map((a) => a.caid),
      ['vg1'],
    );
  });

  void test('no consent: no activation', async () => {
    const exposed: Array<[VisitorExposed, ExposedFlag]> = [];
    sdk = await start(() => 'v2', exposed);
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: false }).build();
    await visitor.fetchFlags();
    visitor.getFlag('btnColor').value('red');
    await visitor.getFlag('other').visitorExposed();
    await sdk.instance.close();
    assert.equal(activationsReceived(sdk.double).length, 0);
    assert.deepEqual(exposed, []);
  });

  void test('an authenticated visitor sends vid = authenticated id and aid = anonymous id', async () => {
    const exposed: Array<[VisitorExposed, ExposedFlag]> = [];
    sdk = await start(() => 'v2', exposed);
    const visitor = sdk.instance.newVisitor({ visitorId: 'anon-7', hasConsented: true }).build();
    visitor.authenticate('user-42');
    await visitor.fetchFlags();
    visitor.getFlag('btnColor').value('red');
    await sdk.instance.close();
    assert.deepEqual(
      activationsReceived(sdk.double).map((a) => [a.vid, a.aid]),
      [['user-42', 'anon-7']],
    );
  });
});

void describe('OnVisitorExposed (SPEC.md Events)', () => {
  void test('fires once per flag key when the server acknowledged, with VisitorExposed and ExposedFlag', async () => {
    const exposed: Array<[VisitorExposed, ExposedFlag]> = [];
    sdk = await start(() => 'v2', exposed);
    const visitor = sdk.instance
      .newVisitor({ visitorId: 'user-42', hasConsented: true })
      .withContext({ plan: 'premium' })
      .build();
    await visitor.fetchFlags();
    visitor.getFlag('btnColor').value('red');
    visitor.getFlag('btnColor').value('red');
    visitor.getFlag('size').value(1);
    await until(() => exposed.length === 2);
    // Already acknowledged: a read of another key of the same variation fires without waiting for the server
    // (the exposure goes through the tracking chunk, so within a microtask), and nothing new is sent.
    visitor.getFlag('unset').value('x');
    await Promise.resolve();
    assert.equal(exposed.length, 3);
    const [v, f] = exposed[0] ?? assert.fail('no exposure');
    assert.equal(v.id, 'user-42');
    assert.equal(v.anonymousId, null);
    assert.equal(v.context.plan, 'premium');
    assert.deepEqual(JSON.parse(v.toJson()), { id: 'user-42', anonymousId: null, context: visitor.context });
    assert.equal(f.key, 'btnColor');
    assert.equal(f.value, 'green');
    assert.equal(f.defaultValue, 'red');
    assert.equal(f.metadata().variationId, 'v2');
    assert.deepEqual(JSON.parse(f.toJson()), {
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
    await sdk.instance.close();
    assert.equal(activationsReceived(sdk.double).length, 1);
  });

  void test('an empty slug is null in ExposedFlag.toJson; nothing fires when the server refuses the activation', async () => {
    const exposed: Array<[VisitorExposed, ExposedFlag]> = [];
    sdk = await startSdk(
      { decide: (b) => decision(b.visitorId, [campaign('c2', 'vg9', 'w1', { other: true })]) },
      (c) => c.withTrackingConfig({ poolMaxSize: 1 }).withOnVisitorExposed((v, f) => exposed.push([v, f])),
    );
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    visitor.getFlag('other').value(false);
    await until(() => exposed.length === 1);
    assert.equal(
      (JSON.parse(exposed[0]?.[1].toJson() ?? '{}') as { metadata: { slug: unknown } }).metadata.slug,
      null,
    );
    sdk.double.script.queued.activate = [{ status: 400, body: { message: 'bad', code: 'invalid_body' } }];
    sdk.double.script.queued.decision = [
      { status: 200, body: decision('v1', [campaign('c2', 'vg9', 'w2', { other: true })]) },
    ];
    await visitor.fetchFlags();
    visitor.getFlag('other').value(false);
    const { double } = sdk;
    await until(() => activationsReceived(double).length === 2);
    await sdk.instance.close();
    assert.equal(exposed.length, 1);
  });
});

// The visitor cache (SPEC.md IVisitorCacheImplementation; PROTOCOL.md §10) and identity (§8.5).
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { makeVisitorRecordText } from './records.js';
import { campaign, decision, decisionBodies, startSdk, type Sdk } from './support.js';

let sdk: Sdk | undefined;
afterEach(async () => {
  await sdk?.close();
  sdk = undefined;
});

const parse = (text: string | undefined): { version: number; data: Record<string, unknown> } =>
  JSON.parse(text ?? 'null') as { version: number; data: Record<string, unknown> };

void describe('visitor cache records (PROTOCOL.md §10)', () => {
  void test('after each fetch the record is written in the version-1 format, the history merged over the previous one', async () => {
    let vg = 'vg1';
    sdk = await startSdk({
      decide: (b) =>
        decision(b.visitorId, [
          campaign(
            'c1',
            vg,
            'v2',
            { btnColor: 'green' },
            { name: 'Checkout', slug: 'checkout', variationGroupName: 'Members', variationName: 'Green' },
          ),
        ]),
    });
    sdk.cache.records.set('user-42', makeVisitorRecordText('user-42', [], { old: 'x' }));
    const visitor = sdk.instance
      .newVisitor({ visitorId: 'user-42', hasConsented: true })
      .withContext({ plan: 'premium' })
      .build();
    await visitor.fetchFlags();
    const record = parse(sdk.cache.records.get('user-42'));
    assert.equal(record.version, 1);
    const { fetchedAt, context, ...rest } = record.data;
    assert.equal(typeof fetchedAt, 'number');
    assert.deepEqual(context, visitor.context);
    assert.deepEqual(rest, {
      visitorId: 'user-42',
      anonymousId: null,
      consent: true,
      campaigns: [
        {
          campaignId: 'c1',
          campaignName: 'Checkout',
          campaignType: 'ab',
          slug: 'checkout',
          variationGroupId: 'vg1',
          variationGroupName: 'Members',
          variationId: 'v2',
          variationName: 'Green',
          isReference: false,
          type: 'FLAG',
          flags: { btnColor: 'green' },
        },
      ],
      assignmentsHistory: { old: 'x', vg1: 'v2' },
    });
    vg = 'vg2';
    await visitor.fetchFlags();
    assert.deepEqual(parse(sdk.cache.records.get('user-42')).data.assignmentsHistory, {
      old: 'x',
      vg1: 'v2',
      vg2: 'v2',
    });
  });

  void test('lookupVisitor runs at build; a record of another visitor, another version or not JSON is ignored (logged once)', async () => {
    sdk = await startSdk();
    sdk.cache.records.set(
      'a',
      makeVisitorRecordText('someone-else', [campaign('c1', 'vg1', 'v1', { k: 1 })]),
    );
    sdk.cache.records.set('b', JSON.stringify({ version: 2, data: {} }));
    sdk.cache.records.set('c', '{nope');
    for (const id of ['a', 'b', 'c', 'a']) {
      const visitor = sdk.instance.newVisitor({ visitorId: id, hasConsented: true }).build();
      await visitor.fetchFlags();
      assert.equal(visitor.getFlag('k').exists(), false);
      assert.notEqual(visitor.fetchReasons, 'FLAGS_FETCHED_FROM_CACHE');
    }
    assert.deepEqual(
      sdk.cache.calls.filter((c) => c.startsWith('lookup')),
      ['lookupVisitor a', 'lookupVisitor b', 'lookupVisitor c', 'lookupVisitor a'],
    );
    assert.equal(sdk.logs.lines.filter((l) => l.message.includes('is not a version-1 record')).length, 3);
  });

  void test('a cache that throws or rejects is logged once and treated as a miss', async () => {
    const failing = {
      cacheVisitor: () => {
        throw new Error('disk full');
      },
      lookupVisitor: () => Promise.reject(new Error('locked')),
      flushVisitor: () => Promise.reject(new Error('locked')),
    };
    sdk = await startSdk(
      { decide: (b) => decision(b.visitorId, [campaign('c1', 'vg1', 'v1', { k: 1 })]) },
      (c) => c.withCacheVisitorManager(failing),
    );
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    await visitor.fetchFlags();
    await visitor.setConsent(false);
    assert.equal(visitor.getFlag('k').value(0), 1);
    assert.equal(visitor.flagStatus, 'FETCHED');
    assert.deepEqual(
      sdk.logs.lines.filter((l) => l.level === 'ERROR').map((l) => l.message),
      [
        "the visitor cache's lookupVisitor failed: Error: locked",
        "the visitor cache's cacheVisitor failed: Error: disk full",
        "the visitor cache's flushVisitor failed: Error: locked",
      ],
    );
  });

  void test('the lookup restores flags and history only: the builder context and consent win', async () => {
    sdk = await startSdk();
    sdk.cache.records.set(
      'v1',
      makeVisitorRecordText(
        'v1',
        [campaign('c1', 'vg1', 'v2', { k: 'cached' })],
        { vg1: 'v2' },
        { plan: 'old' },
      ),
    );
    const visitor = sdk.instance
      .newVisitor({ visitorId: 'v1', hasConsented: true })
      .withContext({ plan: 'new' })
      .build();
    await visitor.fetchFlags();
    assert.equal(visitor.context.plan, 'new');
    assert.equal((decisionBodies(sdk.double)[0]?.context as { plan: string }).plan, 'new');
  });
});

void describe('authenticate and unauthenticate (PROTOCOL.md §8.5, §10)', () => {
  void test('authenticate keeps the anonymous id, sends it, looks the new id up; unauthenticate returns to it', async () => {
    sdk = await startSdk({
      decide: (b) => decision(b.visitorId, [campaign('c1', 'vg1', 'v1', { k: 1 })], true),
    });
    const visitor = sdk.instance.newVisitor({ visitorId: 'anon-7', hasConsented: true }).build();
    assert.equal(visitor.isAuthenticated, false);
    assert.equal(visitor.anonymousId, null);
    await visitor.fetchFlags();
    visitor.authenticate('user-42');
    assert.equal(visitor.visitorId, 'user-42');
    assert.equal(visitor.anonymousId, 'anon-7');
    assert.equal(visitor.isAuthenticated, true);
    assert.equal(visitor.context.fs_users, 'user-42');
    await visitor.fetchFlags();
    visitor.unauthenticate();
    assert.equal(visitor.visitorId, 'anon-7');
    assert.equal(visitor.anonymousId, null);
    assert.equal(visitor.isAuthenticated, false);
    await visitor.fetchFlags();
    assert.deepEqual(
      decisionBodies(sdk.double).map((b) => [b.visitorId, b.anonymousId, b.visitorConsent]),
      [
        ['anon-7', null, true],
        ['user-42', 'anon-7', true],
        ['anon-7', null, true],
      ],
    );
    // Build; authenticate (XPC on: the new id, then the anonymous id's history); the write after the
    // authenticated fetch (the anonymous record's history); unauthenticate.
    assert.deepEqual(
      sdk.cache.calls.filter((c) => c.startsWith('lookup')),
      [
        'lookupVisitor anon-7',
        'lookupVisitor user-42',
        'lookupVisitor anon-7',
        'lookupVisitor anon-7',
        'lookupVisitor anon-7',
      ],
    );
  });

  void test('with XPC on, the anonymous record gets the merged history and nothing else', async () => {
    sdk = await startSdk({
      decide: (b) => decision(b.visitorId, [campaign('c1', 'vg1', 'v9', { k: 'secret' })], true),
    });
    sdk.cache.records.set(
      'anon-7',
      makeVisitorRecordText(
        'anon-7',
        [campaign('c0', 'vg0', 'v0', { k: 'anon' })],
        { vg0: 'v0' },
        { mine: 'anon' },
      ),
    );
    const visitor = sdk.instance.newVisitor({ visitorId: 'anon-7', hasConsented: true }).build();
    await visitor.fetchFlags();
    visitor.authenticate('user-42');
    visitor.updateContext('email', 'a@b.c');
    await visitor.fetchFlags();
    const anonymous = parse(sdk.cache.records.get('anon-7')).data;
    assert.deepEqual(anonymous.assignmentsHistory, { vg0: 'v0', vg1: 'v9' });
    assert.equal((anonymous.context as Record<string, unknown>).email, undefined);
    assert.equal(JSON.stringify(anonymous.campaigns).includes('user-42'), false);
    const own = parse(sdk.cache.records.get('user-42')).data;
    assert.equal(own.anonymousId, 'anon-7');
    assert.deepEqual(
      own.assignmentsHistory,
      { vg0: 'v0', vg1: 'v9' },
      'histories merged, the authenticated id first',
    );
  });

  void test('with XPC off, authenticate still works and logs once that variations may change', async () => {
    sdk = await startSdk({ decide: (b) => decision(b.visitorId, [], false) });
    const visitor = sdk.instance.newVisitor({ visitorId: 'anon-7', hasConsented: true }).build();
    await visitor.fetchFlags();
    visitor.authenticate('user-42');
    visitor.unauthenticate();
    visitor.authenticate('user-43');
    await visitor.fetchFlags();
    assert.equal(visitor.visitorId, 'user-43');
    assert.equal(sdk.cache.records.has('anon-7'), true);
    assert.equal(parse(sdk.cache.records.get('user-43')).data.anonymousId, 'anon-7');
    assert.deepEqual(
      sdk.logs.lines.filter((l) => l.message.includes('experience continuity is off')).map((l) => l.level),
      ['WARNING'],
    );
  });

  void test('a visitor built authenticated has no anonymous id; unauthenticate is refused with a message', async () => {
    sdk = await startSdk();
    const visitor = sdk.instance
      .newVisitor({ visitorId: 'user-1', hasConsented: true })
      .isAuthenticated(true)
      .build();
    assert.equal(visitor.isAuthenticated, true);
    assert.equal(visitor.anonymousId, null);
    visitor.unauthenticate();
    visitor.authenticate('');
    assert.equal(visitor.visitorId, 'user-1');
    assert.deepEqual(
      sdk.logs.lines.filter((l) => l.level === 'ERROR').map((l) => l.message),
      [
        'unauthenticate needs a visitor that authenticate() turned from anonymous to authenticated.',
        'authenticate takes a non-empty visitor id.',
      ],
    );
  });

  void test('the builder: hasConsented() overrides newVisitor, withContext sets the initial context', async () => {
    sdk = await startSdk();
    const visitor = sdk.instance
      .newVisitor({ visitorId: 'v1', hasConsented: false })
      .hasConsented(true)
      .withContext({ a: 'b' })
      .build();
    assert.equal(visitor.hasConsented, true);
    assert.equal(visitor.context.a, 'b');
  });
});

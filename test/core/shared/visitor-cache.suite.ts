// The visitor cache (SPEC.md IVisitorCacheImplementation table; PROTOCOL.md §10), identity (SPEC.md
// authenticate / unauthenticate; PROTOCOL.md §8.5) and the VisitorBuilder table, against the double. The
// cache is the SDK's memory cache wrapped to record calls, so nothing depends on IndexedDB state.
import { makeVisitorRecordText } from '../records.js';
import { campaign, decision } from './decisions.js';
import type { CoreHarness } from './harness.js';
import { decisionBodies, withSession } from './session.js';

interface Record1 {
  version: number;
  data: Record<string, unknown>;
}

const parse = (text: string | null): Record1 => JSON.parse(text ?? 'null') as Record1;

const checkout = (vg: string) =>
  decision('*', [
    campaign(
      'c1',
      vg,
      'v2',
      { btnColor: 'green' },
      { name: 'Checkout', slug: 'checkout', variationGroupName: 'Members', variationName: 'Green' },
    ),
  ]);

/** Defines the visitor cache and identity suite on a runtime's harness. */
export const defineVisitorCacheSuite = (h: CoreHarness): void => {
  const { describe, it, assert } = h;

  describe('visitor cache records (PROTOCOL.md §10)', () => {
    it('after each fetch the record is written in the version-1 format, the history merged over the previous one', () =>
      withSession(h, { decisions: { '*': checkout('vg1') } }, async ({ instance, double, cache }) => {
        await cache.seed('user-42', makeVisitorRecordText('user-42', [], { old: 'x' }));
        const visitor = instance
          .newVisitor({ visitorId: 'user-42', hasConsented: true })
          .withContext({ plan: 'premium' })
          .build();
        await visitor.fetchFlags();
        const record = parse(await cache.record('user-42'));
        assert.equal(record.version, 1);
        const { fetchedAt, context, sent, ...rest } = record.data;
        assert.equal(typeof fetchedAt, 'number');
        // §5.1 Repeats: the creation fs_consent event went out, and the record says so (decision-API mode: no
        // SEGMENT hit, so no context mark).
        const { consent: sentConsent, ...otherMarks } = sent as { consent: [boolean, number] };
        assert.deepEqual([sentConsent[0], typeof sentConsent[1], otherMarks], [true, 'number', {}]);
        assert.deepEqual(context, { ...visitor.context });
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
        await double.setDecisions({ '*': checkout('vg2') });
        await visitor.fetchFlags();
        assert.deepEqual(parse(await cache.record('user-42')).data.assignmentsHistory, {
          old: 'x',
          vg1: 'v2',
          vg2: 'v2',
        });
        assert.deepEqual(
          cache.calls.filter((c) => c.startsWith('cacheVisitor')),
          ['cacheVisitor user-42', 'cacheVisitor user-42'],
          'cacheVisitor is called after each fetchFlags (SPEC.md)',
        );
      }));

    it('lookupVisitor runs at build; a record of another visitor, another version or not JSON is ignored (logged once)', () =>
      withSession(h, {}, async ({ instance, cache, logs }) => {
        await cache.seed('a', makeVisitorRecordText('someone-else', [campaign('c1', 'vg1', 'v1', { k: 1 })]));
        await cache.seed('b', JSON.stringify({ version: 2, data: {} }));
        await cache.seed('c', '{nope');
        for (const id of ['a', 'b', 'c', 'a']) {
          const visitor = instance.newVisitor({ visitorId: id, hasConsented: true }).build();
          await visitor.fetchFlags();
          assert.equal(visitor.getFlag('k').exists(), false);
          assert.notEqual(visitor.fetchReasons, 'FLAGS_FETCHED_FROM_CACHE');
        }
        assert.deepEqual(
          cache.calls.filter((c) => c.startsWith('lookup')),
          ['lookupVisitor a', 'lookupVisitor b', 'lookupVisitor c', 'lookupVisitor a'],
        );
        assert.equal(logs.filter((l) => l.message.includes('is not a version-1 record')).length, 3);
      }));

    it('a cache that throws or rejects is logged once and treated as a miss', () => {
      const failing = {
        cacheVisitor: () => {
          throw new Error('disk full');
        },
        lookupVisitor: () => Promise.reject(new Error('locked')),
        flushVisitor: () => Promise.reject(new Error('locked')),
      };
      return withSession(
        h,
        {
          decisions: { '*': decision('*', [campaign('c1', 'vg1', 'v1', { k: 1 })]) },
          configure: (c) => c.withCacheVisitorManager(failing),
        },
        async ({ instance, logs }) => {
          const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
          await visitor.fetchFlags();
          await visitor.fetchFlags();
          await visitor.setConsent(false);
          assert.equal(visitor.getFlag('k').value(0), 1);
          assert.equal(visitor.flagStatus, 'FETCHED');
          assert.deepEqual(
            logs.filter((l) => l.level === 'ERROR').map((l) => l.message),
            [
              "the visitor cache's lookupVisitor failed: Error: locked",
              "the visitor cache's cacheVisitor failed: Error: disk full",
              "the visitor cache's flushVisitor failed: Error: locked",
            ],
          );
        },
      );
    });

    it('the lookup restores flags and history only: the builder context and consent win', () =>
      withSession(h, {}, async ({ instance, double, cache }) => {
        await cache.seed(
          'v1',
          makeVisitorRecordText(
            'v1',
            [campaign('c1', 'vg1', 'v2', { k: 'cached' })],
            { vg1: 'v2' },
            { plan: 'old' },
          ),
        );
        const visitor = instance
          .newVisitor({ visitorId: 'v1', hasConsented: true })
          .withContext({ plan: 'new' })
          .build();
        await visitor.fetchFlags();
        assert.equal(visitor.context.plan, 'new');
        assert.equal(((await decisionBodies(double))[0]?.context as { plan: string }).plan, 'new');
      }));
  });

  describe('authenticate and unauthenticate (PROTOCOL.md §8.5, §10)', () => {
    it('authenticate keeps the anonymous id, sends it, looks the new id up; unauthenticate returns to it', () =>
      withSession(
        h,
        { decisions: { '*': decision('*', [campaign('c1', 'vg1', 'v1', { k: 1 })], true) } },
        async ({ instance, double, cache }) => {
          const visitor = instance.newVisitor({ visitorId: 'anon-7', hasConsented: true }).build();
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
            (await decisionBodies(double)).map((b) => [b.visitorId, b.anonymousId, b.visitorConsent]),
            [
              ['anon-7', null, true],
              ['user-42', 'anon-7', true],
              ['anon-7', null, true],
            ],
          );
          // Build; authenticate (XPC on: the new id, then the anonymous id's history); the write after the
          // authenticated fetch (the anonymous record's history); unauthenticate.
          assert.deepEqual(
            cache.calls.filter((c) => c.startsWith('lookup')),
            [
              'lookupVisitor anon-7',
              'lookupVisitor user-42',
              'lookupVisitor anon-7',
              'lookupVisitor anon-7',
              'lookupVisitor anon-7',
            ],
          );
        },
      ));

    it('with XPC on, the anonymous record gets the merged history and nothing else', () =>
      withSession(
        h,
        { decisions: { '*': decision('*', [campaign('c1', 'vg1', 'v9', { k: 'secret' })], true) } },
        async ({ instance, cache }) => {
          await cache.seed(
            'anon-7',
            makeVisitorRecordText(
              'anon-7',
              [campaign('c0', 'vg0', 'v0', { k: 'anon' })],
              { vg0: 'v0' },
              { mine: 'anon' },
            ),
          );
          const visitor = instance.newVisitor({ visitorId: 'anon-7', hasConsented: true }).build();
          await visitor.fetchFlags();
          visitor.authenticate('user-42');
          visitor.updateContext('email', 'a@b.c');
          await visitor.fetchFlags();
          const anonymous = parse(await cache.record('anon-7')).data;
          assert.deepEqual(anonymous.assignmentsHistory, { vg0: 'v0', vg1: 'v9' });
          assert.equal((anonymous.context as Record<string, unknown>).email, undefined);
          assert.equal(JSON.stringify(anonymous.campaigns).includes('user-42'), false);
          const own = parse(await cache.record('user-42')).data;
          assert.equal(own.anonymousId, 'anon-7');
          assert.deepEqual(
            own.assignmentsHistory,
            { vg0: 'v0', vg1: 'v9' },
            'histories merged, the authenticated id first',
          );
        },
      ));

    it('with XPC off, authenticate still works and logs once that variations may change', () =>
      withSession(h, { decisions: { '*': decision('*', [], false) } }, async ({ instance, cache, logs }) => {
        const visitor = instance.newVisitor({ visitorId: 'anon-7', hasConsented: true }).build();
        await visitor.fetchFlags();
        visitor.authenticate('user-42');
        visitor.unauthenticate();
        visitor.authenticate('user-43');
        await visitor.fetchFlags();
        assert.equal(visitor.visitorId, 'user-43');
        assert.notEqual(await cache.record('anon-7'), null);
        assert.equal(parse(await cache.record('user-43')).data.anonymousId, 'anon-7');
        assert.deepEqual(
          logs.filter((l) => l.message.includes('experience continuity is off')).map((l) => l.level),
          ['WARNING'],
        );
      }));

    it('a visitor built authenticated has no anonymous id; unauthenticate is refused with a message', () =>
      withSession(h, {}, ({ instance, logs }) => {
        const visitor = instance
          .newVisitor({ visitorId: 'user-1', hasConsented: true })
          .isAuthenticated(true)
          .build();
        assert.equal(visitor.isAuthenticated, true);
        assert.equal(visitor.anonymousId, null);
        visitor.unauthenticate();
        visitor.authenticate('');
        // PROTOCOL.md §3: a visitor id is 1-256 characters, after authenticate as at creation.
        visitor.authenticate('u'.repeat(257));
        assert.equal(visitor.visitorId, 'user-1');
        assert.deepEqual(
          logs.filter((l) => l.level === 'ERROR').map((l) => l.message),
          [
            'unauthenticate needs a visitor that authenticate() turned from anonymous to authenticated.',
            'authenticate takes a visitor id of 1 to 256 characters.',
            'authenticate takes a visitor id of 1 to 256 characters.',
          ],
        );
      }));

    it('the builder: hasConsented() overrides newVisitor, withContext sets the initial context', () =>
      withSession(h, {}, ({ instance }) => {
        const visitor = instance
          .newVisitor({ visitorId: 'v1', hasConsented: false })
          .hasConsented(true)
          .withContext({ a: 'b' })
          .build();
        assert.equal(visitor.hasConsented, true);
        assert.equal(visitor.context.a, 'b');
      }));
  });
};

// FlagCollection (SPEC.md FlagCollection operations and Resources; PROTOCOL.md §9.5 toJson shape; SPEC.md
// Errors 6), against the double.
import { campaign, decision } from './decisions.js';
import type { CoreHarness } from './harness.js';
import { activationsReceived, withSession, type SessionOptions } from './session.js';

const session: SessionOptions = {
  decisions: {
    '*': decision('*', [
      campaign(
        'c1',
        'vg1',
        'v2',
        { btnColor: 'green', size: 2 },
        { name: 'Checkout', slug: 'checkout', variationGroupName: 'Members' },
      ),
      campaign(
        'c2',
        'vg2',
        'w1',
        { banner: true },
        { name: 'Home', type: 'toggle', variationGroupName: 'All', reference: true },
      ),
    ]),
  },
};

const quiet = { visitorExposed: false };

/** Defines the FlagCollection suite on a runtime's harness. */
export const defineFlagCollectionSuite = (h: CoreHarness): void => {
  const { describe, it, assert } = h;

  describe('FlagCollection', () => {
    it('get (subscript), keys, count, isEmpty, forEach, filter, metadatas, iteration', () =>
      withSession(h, session, async ({ instance }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        const before = visitor.getFlags();
        assert.equal(before.isEmpty, true);
        assert.equal(before.count, 0);
        assert.deepEqual([...before.keys()], []);
        await visitor.fetchFlags();
        const flags = visitor.getFlags();
        assert.equal(flags.isEmpty, false);
        assert.equal(flags.count, 3);
        assert.deepEqual([...flags.keys()], ['btnColor', 'size', 'banner']);
        assert.equal(flags.get('btnColor').value('red', quiet), 'green');
        const none = flags.get('nope');
        assert.equal(none.exists(), false);
        assert.equal(none.getFlagStatus(), 'NOT_FOUND');
        assert.equal(none.value('d'), 'd');
        const seen: string[] = [];
        flags.forEach((key, flag) => seen.push(`${key}=${String(flag.value(null, quiet))}`));
        assert.deepEqual(seen, ['btnColor=green', 'size=2', 'banner=true']);
        const filtered = flags.filter((key, flag) => key !== 'size' && flag.metadata().campaignId === 'c1');
        assert.deepEqual([...filtered.keys()], ['btnColor']);
        assert.equal(filtered.count, 1);
        assert.equal(filtered.get('size').exists(), false, 'a key filtered out is an empty flag');
        assert.equal(flags.filter(() => false).isEmpty, true);
        assert.deepEqual(
          flags.metadatas().map((m) => [m.campaignId, m.variationId, m.isReference]),
          [
            ['c1', 'v2', false],
            ['c1', 'v2', false],
            ['c2', 'w1', true],
          ],
        );
        assert.deepEqual(
          [...flags].map(([k]) => k),
          ['btnColor', 'size', 'banner'],
        );
      }));

    it('toJson: one object per flag with key and the metadata fields of §9.5; "" when none has metadata', () =>
      withSession(h, session, async ({ instance }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        assert.equal(visitor.getFlags().toJson(), '');
        await visitor.fetchFlags();
        assert.deepEqual(
          JSON.parse(
            visitor
              .getFlags()
              .filter((k) => k !== 'size')
              .toJson(),
          ),
          [
            {
              key: 'btnColor',
              campaignId: 'c1',
              campaignName: 'Checkout',
              variationGroupId: 'vg1',
              variationGroupName: 'Members',
              variationId: 'v2',
              isReference: false,
              campaignType: 'ab',
              slug: 'checkout',
            },
            {
              key: 'banner',
              campaignId: 'c2',
              campaignName: 'Home',
              variationGroupId: 'vg2',
              variationGroupName: 'All',
              variationId: 'w1',
              isReference: true,
              campaignType: 'toggle',
              slug: '',
            },
          ],
        );
        assert.equal(
          visitor
            .getFlags()
            .filter(() => false)
            .toJson(),
          '',
        );
      }));

    it('exposeAll sends one activation per variation', () =>
      withSession(h, session, async ({ instance, double }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        await visitor.getFlags().exposeAll();
        await instance.close();
        assert.deepEqual(
          (await activationsReceived(double)).map((a) => `${String(a.caid)}/${String(a.vaid)}`).sort(),
          ['vg1/v2', 'vg2/w1'],
        );
      }));
  });
};

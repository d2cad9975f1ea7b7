// FlagCollection (SPEC.md FlagCollection operations; PROTOCOL.md §9.5).
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { activationsReceived, campaign, decision, startSdk, type Sdk } from './support.js';

let sdk: Sdk | undefined;
afterEach(async () => {
  await sdk?.close();
  sdk = undefined;
});

const start = () =>
  startSdk({
    decide: (b) =>
      decision(b.visitorId, [
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
  });

void describe('FlagCollection', () => {
  void test('get, keys, count, isEmpty, forEach, filter, metadatas', async () => {
    sdk = await start();
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    const before = visitor.getFlags();
    assert.equal(before.isEmpty, true);
    assert.equal(before.count, 0);
    await visitor.fetchFlags();
    const flags = visitor.getFlags();
    assert.equal(flags.isEmpty, false);
    assert.equal(flags.count, 3);
    assert.deepEqual([...flags.keys()], ['btnColor', 'size', 'banner']);
    assert.equal(flags.get('btnColor').value('red', { visitorExposed: false }), 'green');
    const none = flags.get('nope');
    assert.equal(none.exists(), false);
    assert.equal(none.getFlagStatus(), 'NOT_FOUND');
    assert.equal(none.value('d'), 'd');
    const seen: string[] = [];
    flags.forEach((key, flag) => seen.push(`${key}=${String(flag.value(null, { visitorExposed: false }))}`));
    assert.deepEqual(seen, ['btnColor=green', 'size=2', 'banner=true']);
    const filtered = flags.filter((key, flag) => key !== 'size' && flag.metadata().campaignId === 'c1');
    assert.deepEqual([...filtered.keys()], ['btnColor']);
    assert.equal(filtered.get('size').exists(), false, 'a key filtered out is an empty flag');
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
  });

  void test('toJson: one object per flag with key and the metadata fields of §9.5; "" when none has metadata', async () => {
    sdk = await start();
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
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
  });

  void test('exposeAll sends one activation per variation', async () => {
    sdk = await start();
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    await visitor.getFlags().exposeAll();
    await sdk.instance.close();
    assert.deepEqual(
      activationsReceived(sdk.double)
        .map((a) => `${String(a.caid)}/${String(a.vaid)}`)
        .sort(),
      ['vg1/v2', 'vg2/w1'],
    );
  });
});

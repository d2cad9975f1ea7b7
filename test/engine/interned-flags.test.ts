// Decision-API campaigns' flags shared between visitors on the Node platform (src/engine/interned-flags.ts):
// equal campaigns share their flags, anything that differs gets its own, object values are never shared.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildFlags, campaignFlags } from '../../src/engine/flags.js';
import { internedCampaignFlags } from '../../src/engine/interned-flags.js';
import type { DecisionCampaign, JsonValue } from '../../src/protocol/index.js';

/** A campaign as parsed from one decision body: new objects each call, as for each visitor. */
const campaign = (
  id: string,
  value: Record<string, JsonValue>,
  changes: { name?: string; variationName?: string; reference?: boolean; slug?: string | null } = {},
): DecisionCampaign =>
  JSON.parse(
    JSON.stringify({
      id,
      name: changes.name ?? `Campaign ${id}`,
      slug: changes.slug ?? null,
      type: 'ab',
      variationGroupId: `${id}-vg`,
      variationGroupName: 'Group',
      variation: {
        id: `${id}-v1`,
        name: changes.variationName ?? 'Variation 1',
        reference: changes.reference ?? false,
        modifications: { type: 'FLAG', value },
      },
    }),
  ) as DecisionCampaign;

void describe('internedCampaignFlags (Node platform, decision-API mode)', () => {
  void test('two visitors given equal campaigns share one frozen list, equal to what campaignFlags builds', () => {
    const first = internedCampaignFlags(campaign('eq', { a: 'x', b: 2, c: true, d: null }));
    const second = internedCampaignFlags(campaign('eq', { a: 'x', b: 2, c: true, d: null }));
    assert.equal(second, first);
    assert.ok(Object.isFrozen(first) && first.every((flag) => Object.isFrozen(flag)));
    assert.deepEqual(first, campaignFlags(campaign('eq', { a: 'x', b: 2, c: true, d: null })));
  });

  void test('any field the flags carry that differs gives the visitor its own flags, with its own values', () => {
    const base = internedCampaignFlags(campaign('diff', { a: 'x', b: 2 }));
    const variants: Array<[string, DecisionCampaign]> = [
      ['a value', campaign('diff', { a: 'y', b: 2 })],
      ['a value type', campaign('diff', { a: 'x', b: '2' })],
      ['a key more', campaign('diff', { a: 'x', b: 2, c: 1 })],
      ['a key less', campaign('diff', { a: 'x' })],
      ['the key order', campaign('diff', { b: 2, a: 'x' })],
      ['the campaign name', campaign('diff', { a: 'x', b: 2 }, { name: 'Renamed' })],
      ['the variation name', campaign('diff', { a: 'x', b: 2 }, { variationName: 'Other' })],
      ['the reference flag', campaign('diff', { a: 'x', b: 2 }, { reference: true })],
      ['the slug', campaign('diff', { a: 'x', b: 2 }, { slug: 'promo' })],
    ];
    for (const [what, changed] of variants) {
      internedCampaignFlags(campaign('diff', { a: 'x', b: 2 })); // the base is the one remembered again
      const flags = internedCampaignFlags(changed);
      assert.notEqual(flags, base, what);
      assert.deepEqual(flags, campaignFlags(changed), what);
    }
    // The latest campaign is the one remembered: an equal one shares it.
    const renamed = internedCampaignFlags(campaign('diff', { a: 'x' }, { name: 'Renamed' }));
    assert.equal(internedCampaignFlags(campaign('diff', { a: 'x' }, { name: 'Renamed' })), renamed);
  });

  void test('object and array values stay each visitor’s own: changing one never reaches another visitor', () => {
    const one = internedCampaignFlags(campaign('obj', { config: { size: 1 }, list: [1, 2] }));
    const two = internedCampaignFlags(campaign('obj', { config: { size: 1 }, list: [1, 2] }));
    assert.notEqual(two, one);
    (one[0]?.value as { size: number }).size = 99;
    assert.deepEqual(two[0]?.value, { size: 1 });
  });

  void test('the same flags through buildFlags: the last campaign wins, as without sharing', () => {
    const campaigns = [campaign('w1', { k: 'first', only1: 1 }), campaign('w2', { k: 'second' })];
    const shared = buildFlags(campaigns, internedCampaignFlags);
    assert.deepEqual([...shared], [...buildFlags(campaigns)]);
    assert.equal(shared.get('k')?.value, 'second');
  });

  void test('bounded: past 4 096 campaigns the table starts again, and earlier campaigns still get their flags', () => {
    const early = internedCampaignFlags(campaign('bound-0', { a: 1 }));
    for (let i = 1; i <= 4_096; i++) internedCampaignFlags(campaign(`bound-${i}`, { a: i }));
    const again = internedCampaignFlags(campaign('bound-0', { a: 1 }));
    assert.notEqual(again, early, 'forgotten: built anew');
    assert.deepEqual(again, early);
  });
});

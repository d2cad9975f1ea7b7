// A bucketing visitor's flags over the file's key slots (src/engine/flag-slots.ts): the same flags, in the
// same order, as buildFlags' Map, for every visitor of the 50-campaign bench file and for crafted campaigns.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { benchVisitors } from '../../bench/visitors.js';
import { FlagSlots } from '../../src/engine/flag-slots.js';
import { buildFlags, compileFile, evaluate, type EngineVisitor } from '../../src/engine/index.js';
import type { BucketingFile, DecisionCampaign, JsonValue } from '../../src/protocol/index.js';

const file = JSON.parse(
  readFileSync(new URL('../../bench/fixtures/engine-50x2x3.json', import.meta.url), 'utf8'),
) as BucketingFile;

const campaign = (id: string, value: Record<string, JsonValue>): DecisionCampaign =>
  Object.freeze({
    id,
    name: id,
    slug: null,
    type: 'ab',
    variationGroupId: `${id}-vg`,
    variationGroupName: 'g',
    variation: Object.freeze({
      id: `${id}-v`,
      name: 'v',
      reference: false,
      modifications: Object.freeze({ type: 'FLAG', value: Object.freeze(value) }),
    }),
  });

/** Everything a ReadonlyMap gives, for comparing two of them. */
const view = (flags: ReadonlyMap<string, unknown>, keys: readonly string[]) => {
  const each: Array<[string, unknown]> = [];
  flags.forEach((value, key, map) => {
    assert.equal(map, flags, 'forEach passes the map itself');
    each.push([key, value]);
  });
  return {
    entries: [...flags],
    size: flags.size,
    keys: [...flags.keys()],
    values: [...flags.values()],
    each,
    got: keys.map((key) => [flags.get(key), flags.has(key)]),
  };
};

void describe('FlagSlots', () => {
  void test('every visitor of the bench file gets buildFlags’ flags: same entries, order, size, reads', () => {
    const compiled = compileFile(file);
    const slots = new FlagSlots();
    const people = benchVisitors();
    let checked = 0;
    for (let i = 0; i < 2_000; i++) {
      const person = people[i % people.length] as EngineVisitor;
      const { campaigns } = evaluate(
        compiled,
        { ...person, id: `slots-${i}` },
        { exposeAllKeys: true },
      ).decision;
      const expected = buildFlags(campaigns);
      const keys = [...new Set([...slots.keys, ...expected.keys(), 'missing', '__proto__'])];
      assert.deepEqual(view(slots.build(campaigns), keys), view(expected, keys), `visitor ${i}`);
      checked += expected.size;
    }
    assert.ok(checked > 2_000 * 20, `${checked} flags compared`);
  });

  void test('a null value never replaces a non-null one; a later non-null one wins; order is first use', () => {
    const slots = new FlagSlots();
    const campaigns = [
      campaign('a', { k: null, j: 1 }),
      campaign('b', { k: 'x', j: null }),
      campaign('c', { k: null, n: null }),
      campaign('d', { n: 'later', j: 2 }),
    ];
    const flags = slots.build(campaigns);
    assert.deepEqual(
      [...flags].map(([key, flag]) => [key, flag.value, flag.metadata.campaignId]),
      [
        ['k', 'x', 'b'],
        ['j', 2, 'd'],
        ['n', 'later', 'd'],
      ],
    );
    assert.deepEqual([...flags], [...buildFlags(campaigns)]);
  });

  void test('a snapshot built before a key was learnt does not hold it; a campaign not frozen is read each time', () => {
    const slots = new FlagSlots();
    const before = slots.build([campaign('first', { a: 1 })]);
    const after = slots.build([campaign('second', { b: 2 })]);
    assert.equal(before.get('b'), undefined);
    assert.equal(before.has('b'), false);
    assert.equal(after.get('b')?.value, 2);
    assert.equal(after.get('a'), undefined);
    const open: DecisionCampaign = { ...campaign('open', { c: 1 }) };
    assert.equal(slots.build([open]).get('c')?.value, 1);
    open.variation = { ...open.variation, modifications: { type: 'FLAG', value: { c: 2 } } };
    assert.equal(slots.build([open]).get('c')?.value, 2, 'read again, not remembered');
  });

  void test('past 512 keys in a file, visitors get a Map with the same flags', () => {
    const slots = new FlagSlots();
    const many = Array.from({ length: 600 }, (_, i) => campaign(`many-${i}`, { [`key${i}`]: i }));
    const small = slots.build(many.slice(0, 10));
    assert.ok(!(small instanceof Map));
    const flags = slots.build(many);
    assert.ok(!(flags instanceof Map), 'the table had 10 keys when this build began');
    const past = slots.build(many);
    assert.ok(past instanceof Map);
    assert.deepEqual([...past], [...flags]);
    assert.equal(past.size, 600);
  });
});

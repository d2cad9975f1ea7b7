// The flags grid's draft (flag-rows.ts) keeps the wire as it is (PROTOCOL.md §9): a stored campaign opened and
// saved unchanged sends every variation's modifications.value as stored, values of every type, null (not set on
// purpose) and keys a variation leaves out included; the rows are the group's keys in the order they first appear.
import { assert } from '@open-wc/testing';
import type { JsonValue, RemoteCampaign } from '../../../src/protocol/index.js';
import { draftOf, draftToBody } from '../../../server/console/src/campaigns/campaign-draft.js';
import { campaignOf } from '../console-fixture.js';
import type { BodyGroups } from './draft-harness.js';

const STORED: Array<Record<string, JsonValue>> = [
  { title: 'Sale', price: 10, on: true, layout: { columns: 2, tags: ['a', 'b'] }, banner: null },
  { price: 12.5, title: '', on: false, layout: { columns: 3, tags: [] }, extra: [1, 2] },
  { title: 'Deal', price: 9, banner: null },
];

const campaignWith = (values: ReadonlyArray<Record<string, JsonValue>>): RemoteCampaign => {
  const base = campaignOf();
  const [group] = base.variation_groups;
  if (group === undefined) throw new Error('the fixture has a group');
  return {
    ...base,
    variation_groups: [
      {
        ...group,
        variations: values.map((value, k) => ({
          id: `v-${k}`,
          name: `Arm ${k}`,
          reference: k === 0,
          allocation: 30,
          modifications: { type: 'FLAG', value },
        })),
      },
    ],
  };
};

describe('the flags grid draft', () => {
  it('sends every stored value back as it was, nulls and left-out keys included', () => {
    const draft = draftOf(campaignWith(STORED), 0);
    assert.deepEqual(
      draft.groups[0]?.flags.map((row) => [row.key, row.type]),
      [
        ['title', 'string'],
        ['price', 'number'],
        ['on', 'boolean'],
        ['layout', 'json'],
        ['banner', 'string'],
        ['extra', 'json'],
      ],
    );
    const { body, issues } = draftToBody(draft, false);
    assert.deepEqual([...issues.keys()], []);
    const sent = (body.variation_groups as unknown as BodyGroups)[0]?.variations.map(
      (v) => v.modifications.value,
    );
    assert.deepEqual(sent, STORED);
    assert.deepEqual(
      draft.groups[0]?.variations.map((v) => v.cells.map((c) => c.state)),
      [
        ['value', 'value', 'value', 'value', 'unset', 'missing'],
        ['value', 'value', 'value', 'value', 'missing', 'value'],
        ['value', 'value', 'missing', 'missing', 'unset', 'missing'],
      ],
    );
  });

  it('edits a key stored with two types as JSON, each value as it was, and names the one-type rule', () => {
    // Stored before the rule (a string here, a number there): nothing is lost, and the save says what to change.
    const draft = draftOf(campaignWith([{ price: 10 }, { price: '12' }]), 0);
    assert.deepEqual(draft.groups[0]?.flags, [{ key: 'price', type: 'json' }]);
    assert.deepEqual(
      draft.groups[0]?.variations.map((v) => v.cells[0]?.text),
      ['10', '"12"'],
    );
    const { issues } = draftToBody(draft, false);
    assert.match(
      issues.get('variation_groups[0].variations[1].modifications.value.price')?.message ?? '',
      /is a string here but a number in variation 1: a flag has one type in a group/,
    );
  });
});

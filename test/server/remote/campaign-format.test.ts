// The remote control API's campaign format (PROTOCOL.md §13.5): the wire form of a stored campaign, the
// checks of create and patch bodies with the path of the first bad field, and the route schemas.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ErrorObject } from 'ajv';
import Fastify from 'fastify';
import { formatSchemaErrors } from '../../../server/src/http/schema-errors.js';
import { ANNOTATIONS, compileRequestSchema } from '../../../server/src/http/schema-validation.js';
import type { BucketingCampaign, RemoteCampaign } from '../../../src/protocol/index.js';
import { InputError } from '../../../server/src/errors.js';
import {
  campaignFromRemote,
  toRemoteCampaign,
  type CampaignInput,
} from '../../../server/src/remote/campaign-format.js';
import {
  campaignCreateBodySchema,
  campaignPageSchema,
  campaignPatchBodySchema,
  campaignToggleBodySchema,
  panicAnswerSchema,
  panicBodySchema,
} from '../../../server/src/remote/campaign-body-schemas.js';
import { remoteCampaignSchema } from '../../../server/src/remote/campaign-schemas.js';
import { errorBodySchema } from '../../../server/src/plugins/shared-schemas.js';
import type { CampaignRecord } from '../../../server/src/store/campaign-store.js';
import { FieldError } from '../../../server/src/validation/bucketing-campaigns.js';

/** A stored body with every field written, as campaignFromRemote writes it. */
const storedBody = (): BucketingCampaign => ({
  id: 'c1',
  name: 'Checkout',
  type: 'ab',
  slug: 'checkout',
  bucketRanges: [{ r: [0, 40] }, { r: [60, 100] }],
  variationGroups: [
    {
      id: 'vg1',
      name: 'Members',
      targeting: {
        targetingGroups: [
          {
            targetings: [
              { operator: 'EQUALS', key: 'plan', value: 'premium' },
              { operator: 'GREATER_THAN_OR_EQUALS', key: 'age', value: 18 },
            ],
          },
          { targetings: [{ operator: 'EQUALS', key: 'fs_users', value: ['alice', 'bob'] }] },
        ],
      },
      variations: [
        {
          id: 'v1',
          name: 'Original',
          reference: true,
          allocation: 50,
          modifications: { type: 'FLAG', value: { btnColor: null, size: 1 } },
        },
        {
          id: 'v2',
          name: 'Green',
          reference: false,
          allocation: 50,
          modifications: { type: 'FLAG', value: { btnColor: 'green', size: 2 } },
        },
      ],
    },
    {
      id: 'vg2',
      name: 'Everyone else',
      targeting: {
        targetingGroups: [{ targetings: [{ operator: 'EQUALS', key: 'fs_all_users', value: '' }] }],
      },
      variations: [
        {
          id: 'v3',
          name: 'Original',
          reference: true,
          allocation: 100,
          modifications: { type: 'JSON', value: { btnColor: 'blue', nested: { a: [1, 'x'] } } },
        },
      ],
    },
  ],
});

const record = (body: BucketingCampaign = storedBody()): CampaignRecord => ({
  id: body.id,
  position: 0,
  state: 'active',
  description: 'Does a green button sell more?',
  body,
  createdMs: Date.UTC(2026, 10, 22, 10, 0, 0),
  updatedMs: Date.UTC(2026, 10, 23, 9, 30, 15, 250),
  deletedMs: null,
});

/** A body as a test edits it: known lists typed, every other field open to any value. */
interface WireRule {
  [field: string]: unknown;
}
interface WireVariation {
  [field: string]: unknown;
  modifications: { [field: string]: unknown; value: Record<string, unknown> };
}
interface WireGroup {
  [field: string]: unknown;
  targeting: { [field: string]: unknown; targeting_groups: Array<{ targetings: WireRule[] }> };
  variations: WireVariation[];
}
interface WireBody {
  [field: string]: unknown;
  variation_groups: WireGroup[];
}

/** A valid create body in the API's form, without ids. */
const createBody = (): WireBody => ({
  name: 'Checkout',
  type: 'ab',
  variation_groups: [
    {
      name: 'Everyone',
      targeting: {
        targeting_groups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: '' }] }],
      },
      variations: [
        {
          name: 'Original',
          reference: true,
          allocation: 50,
          modifications: { type: 'FLAG', value: { btnColor: null } },
        },
        { name: 'Green', allocation: 50, modifications: { type: 'FLAG', value: { btnColor: 'green' } } },
      ],
    },
  ],
});

/** The item at `i`, which the test knows is there. */
const nth = <T>(list: readonly T[], i: number): T => {
  const item = list[i];
  assert.ok(item !== undefined, `no item ${i}`);
  return item;
};

/** A deep copy of `value` with `edit` applied: bad cases are written as small edits of a good body. */
const edited = <T>(value: T, edit: (copy: T) => void): T => {
  const copy = structuredClone(value);
  edit(copy);
  return copy;
};

const refusal = (run: () => unknown): FieldError => {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof InputError, 'an InputError (400 invalid_body)');
    assert.ok(error instanceof FieldError);
    return error;
  }
  return assert.fail('accepted');
};

const allIds = (campaign: BucketingCampaign): string[] => [
  campaign.id,
  ...campaign.variationGroups.flatMap((g) => [g.id, ...g.variations.map((v) => v.id)]),
];

const GENERATED = /^[a-z2-7]{20}$/;

void describe('toRemoteCampaign', () => {
  void it('writes the snake_case form of §13.5 with ISO times', () => {
    const remote = toRemoteCampaign(record());
    assert.deepEqual(nth(nth(remote.variation_groups, 0).targeting.targeting_groups, 0), {
      targetings: [
        { key: 'plan', operator: 'EQUALS', value: 'premium' },
        { key: 'age', operator: 'GREATER_THAN_OR_EQUALS', value: 18 },
      ],
    });
    assert.deepEqual(
      { ...remote, variation_groups: remote.variation_groups.map((g) => g.id) },
      {
        id: 'c1',
        name: 'Checkout',
        description: 'Does a green button sell more?',
        type: 'ab',
        slug: 'checkout',
        state: 'active',
        variation_groups: ['vg1', 'vg2'],
        bucket_ranges: [
          [0, 40],
          [60, 100],
        ],
        // Stored without analysis settings (PROTOCOL.md §14.6): read with the defaults.
        analysis: { primary_goal: null, method: 'sequential', alpha: 0.05, expected_visitors: 5000 },
        created_at: '2026-11-22T10:00:00.000Z',
        updated_at: '2026-11-23T09:30:15.250Z',
      },
    );
    assert.deepEqual(nth(nth(remote.variation_groups, 0).variations, 1), {
      id: 'v2',
      name: 'Green',
      reference: false,
      allocation: 50,
      modifications: { type: 'FLAG', value: { btnColor: 'green', size: 2 } },
    });
  });

  void it('fills what a bucketing file may leave out: slug null, full traffic, reference false, allocation 0', () => {
    const sparse: BucketingCampaign = {
      id: 'c9',
      name: 'Banner',
      type: 'toggle',
      variationGroups: [
        {
          id: 'vg9',
          name: 'All',
          variations: [{ id: 'v9', name: 'On', modifications: { type: 'FLAG', value: { banner: true } } }],
        },
      ],
    };
    const remote = toRemoteCampaign({ ...record(sparse), state: 'paused' });
    assert.equal(remote.slug, null);
    assert.equal(remote.state, 'paused');
    assert.deepEqual(remote.bucket_ranges, [[0, 100]]);
    assert.deepEqual(remote.variation_groups[0], {
      id: 'vg9',
      name: 'All',
      targeting: { targeting_groups: [] },
      variations: [
        {
          id: 'v9',
          name: 'On',
          reference: false,
          allocation: 0,
          modifications: { type: 'FLAG', value: { banner: true } },
        },
      ],
    });
  });
});

void describe('campaignFromRemote: round trip and ids', () => {
  void it('record → remote → create body gives the same campaign, description and state', () => {
    const stored = record();
    const wire = JSON.parse(JSON.stringify(toRemoteCampaign(stored))) as unknown;
    const input = campaignFromRemote(wire);
    assert.deepEqual(input, {
      campaign: storedBody(),
      description: stored.description,
      state: 'active',
    } satisfies CampaignInput);
  });

  void it('a campaign read with GET and sent back as a PATCH changes nothing', () => {
    const stored = record();
    const input = campaignFromRemote(toRemoteCampaign(stored), stored);
    assert.deepEqual(input, { campaign: storedBody(), description: stored.description });
  });

  void it('generates unique ids for the campaign, groups and variations left without one', () => {
    const first = campaignFromRemote(createBody()).campaign;
    const second = campaignFromRemote(createBody()).campaign;
    const ids = [...allIds(first), ...allIds(second)];
    assert.equal(ids.length, 8);
    for (const id of ids) assert.match(id, GENERATED);
    assert.equal(new Set(ids).size, ids.length);
  });

  void it('keeps the ids given and generates only the missing ones', () => {
    const body = edited(createBody(), (b) => {
      b.id = 'my-campaign';
      nth(nth(b.variation_groups, 0).variations, 1).id = 'green_1';
    });
    const campaign = campaignFromRemote(body).campaign;
    assert.equal(campaign.id, 'my-campaign');
    const made = nth(campaign.variationGroups, 0);
    assert.equal(nth(made.variations, 1).id, 'green_1');
    assert.match(made.id, GENERATED);
    assert.match(nth(made.variations, 0).id, GENERATED);
    const again = nth(campaignFromRemote(body).campaign.variationGroups, 0);
    assert.equal(nth(again.variations, 1).id, 'green_1');
  });

  void it('normalises a create body: defaults written, camelCase body, no position', () => {
    const input = campaignFromRemote(createBody());
    assert.equal(input.description, '');
    assert.equal(input.state, undefined);
    assert.equal(input.position, undefined);
    assert.equal(input.campaign.slug, null);
    assert.deepEqual(input.campaign.bucketRanges, [{ r: [0, 100] }]);
    assert.deepEqual(
      nth(input.campaign.variationGroups, 0).variations.map((v) => [v.reference, v.allocation]),
      [
        [true, 50],
        [false, 50],
      ],
    );
    assert.deepEqual(nth(input.campaign.variationGroups, 0).targeting, {
      targetingGroups: [{ targetings: [{ operator: 'EQUALS', key: 'fs_all_users', value: '' }] }],
    });
  });

  void it('ignores created_at and updated_at', () => {
    const { created_at: _created, updated_at: _updated, ...rest } = toRemoteCampaign(record());
    const body = { ...rest, created_at: '1999-01-01T00:00:00Z', updated_at: 'whenever' };
    assert.deepEqual(campaignFromRemote(body), campaignFromRemote(rest));
  });
});

void describe('campaignFromRemote: patch', () => {
  void it('an empty patch keeps everything', () => {
    const stored = record();
    assert.deepEqual(campaignFromRemote({}, stored), {
      campaign: storedBody(),
      description: stored.description,
    });
  });

  void it('a field given replaces that field only', () => {
    const stored = record();
    const input = campaignFromRemote(
      { name: 'Checkout v2', description: '', type: 'perso', slug: null },
      stored,
    );
    assert.deepEqual(input, {
      campaign: { ...storedBody(), name: 'Checkout v2', type: 'perso', slug: null },
      description: '',
    });
  });

  void it('a list given replaces the whole list; new groups and variations get ids', () => {
    const stored = record();
    const input = campaignFromRemote(
      {
        bucket_ranges: [[10, 20]],
        variation_groups: [
          {
            id: 'vg2',
            name: 'Only group',
            targeting: { targeting_groups: [] },
            variations: [
              { id: 'v3', name: 'Kept id', reference: true, modifications: { type: 'FLAG', value: {} } },
              { name: 'New', allocation: 10, modifications: { type: 'FLAG', value: { x: 1 } } },
            ],
          },
          {
            name: 'New group',
            targeting: { targeting_groups: [] },
            variations: [{ name: 'N', reference: true, modifications: { type: 'FLAG', value: {} } }],
          },
        ],
      },
      stored,
    );
    assert.deepEqual(input.campaign.bucketRanges, [{ r: [10, 20] }]);
    const groups = input.campaign.variationGroups;
    assert.deepEqual(
      groups.map((g) => g.variations.length),
      [2, 1],
    );
    const [kept, added] = [nth(groups, 0), nth(groups, 1)];
    assert.equal(kept.id, 'vg2');
    assert.equal(nth(kept.variations, 0).id, 'v3');
    for (const id of [nth(kept.variations, 1).id, added.id, nth(added.variations, 0).id])
      assert.match(id, GENERATED);
    assert.equal(input.campaign.name, 'Checkout');
    assert.equal(input.campaign.id, 'c1');
  });

  void it('returns a position, accepts the current id and state, and shares nothing with the record', () => {
    const stored = record();
    const input = campaignFromRemote({ id: 'c1', state: 'active', position: 3 }, stored);
    assert.equal(input.position, 3);
    assert.equal(input.state, undefined);
    const group = input.campaign.variationGroups[0];
    assert.ok(group !== undefined);
    group.name = 'changed';
    assert.equal(nth(stored.body.variationGroups, 0).name, 'Members');
  });

  void it('does not re-check stored fields it does not replace (they were accepted by the import)', () => {
    const lenient = edited(storedBody(), (b) => {
      b.name = '';
      nth(nth(b.variationGroups, 1).variations, 0).reference = false;
    });
    const input = campaignFromRemote({ description: 'renamed later' }, record(lenient));
    assert.deepEqual(input.campaign, lenient);
  });
});

/** [what, body, path, reason pattern, existing record for a patch]. */
type BadCase = [string, unknown, string, RegExp, CampaignRecord?];

const group = (edit: (g: WireGroup) => void): WireBody =>
  edited(createBody(), (b) => edit(nth(b.variation_groups, 0)));
const variation = (k: number, edit: (v: WireVariation) => void): WireBody =>
  group((g) => edit(nth(g.variations, k)));
const rule = (edit: (t: WireRule) => void): WireBody =>
  group((g) => edit(nth(nth(g.targeting.targeting_groups, 0).targetings, 0)));
const RULE = 'variation_groups[0].targeting.targeting_groups[0].targetings[0]';
const V0 = 'variation_groups[0].variations[0]';
const V1 = 'variation_groups[0].variations[1]';

const BAD: BadCase[] = [
  ['not an object', [createBody()], '(body)', /JSON object/],
  ['unknown field', { ...createBody(), color: 'red' }, 'color', /not a known field.*variation_groups/],
  ['camelCase field', { ...createBody(), bucketRanges: [] }, 'bucketRanges', /spells it bucket_ranges/],
  ['name missing', { ...createBody(), name: undefined }, 'name', /required/],
  ['name empty', { ...createBody(), name: '' }, 'name', /empty/],
  ['name too long', { ...createBody(), name: 'n'.repeat(257) }, 'name', /at most 256/],
  ['name with U+0000', { ...createBody(), name: 'a\u0000b' }, 'name', /U\+0000/],
  ['name not a string', { ...createBody(), name: 7 }, 'name', /string/],
  ['type unknown', { ...createBody(), type: 'multivariate' }, 'type', /ab, toggle, deployment, perso/],
  ['type missing', { ...createBody(), type: undefined }, 'type', /required/],
  ['id malformed', { ...createBody(), id: 'bad id!' }, 'id', /1-64 characters/],
  ['id too long', { ...createBody(), id: 'i'.repeat(65) }, 'id', /1-64 characters/],
  ['id null', { ...createBody(), id: null }, 'id', /1-64 characters/],
  ['slug empty', { ...createBody(), slug: '' }, 'slug', /empty/],
  ['slug too long', { ...createBody(), slug: 's'.repeat(257) }, 'slug', /at most 256/],
  ['slug a number', { ...createBody(), slug: 5 }, 'slug', /string/],
  ['description too long', { ...createBody(), description: 'd'.repeat(10_001) }, 'description', /10000/],
  ['state unknown', { ...createBody(), state: 'stopped' }, 'state', /active, paused, interrupted/],
  ['position on create', { ...createBody(), position: 0 }, 'position', /PATCH only/],
  ['created_at a number', { ...createBody(), created_at: 0 }, 'created_at', /read-only/],
  ['no variation group', { ...createBody(), variation_groups: [] }, 'variation_groups', /non-empty/],
  ['groups not a list', { ...createBody(), variation_groups: {} }, 'variation_groups', /non-empty/],
  ['group not an object', { ...createBody(), variation_groups: [1] }, 'variation_groups[0]', /object/],
  ['group unknown field', group((g) => (g.color = 1)), 'variation_groups[0].color', /not a known/],
  ['group name empty', group((g) => (g.name = '')), 'variation_groups[0].name', /empty/],
  [
    'group without targeting',
    group((g) => Reflect.deleteProperty(g, 'targeting')),
    'variation_groups[0].targeting',
    /required/,
  ],
  [
    'targeting groups not a list',
    group((g) => Object.assign(g, { targeting: { targeting_groups: 'all' } })),
    'variation_groups[0].targeting.targeting_groups',
    /array/,
  ],
  [
    'camelCase targeting groups',
    group((g) => Object.assign(g, { targeting: { targetingGroups: [] } })),
    'variation_groups[0].targeting.targetingGroups',
    /spells it targeting_groups/,
  ],
  [
    'unknown operator',
    rule((t) => (t.operator = 'LIKE')),
    `${RULE}.operator`,
    /"LIKE" is not a known operator/,
  ],
  ['targeting key empty', rule((t) => (t.key = '')), `${RULE}.key`, /empty/],
  ['targeting key not a string', rule((t) => (t.key = 3)), `${RULE}.key`, /string/],
  ['targeting value missing', rule((t) => delete t.value), `${RULE}.value`, /required/],
  ['targeting unknown field', rule((t) => (t.values = [])), `${RULE}.values`, /not a known/],
  ['variations empty', group((g) => (g.variations = [])), 'variation_groups[0].variations', /non-empty/],
  ['variation name missing', variation(0, (v) => delete v.name), `${V0}.name`, /required/],
  [
    'allocation fractional',
    variation(1, (v) => (v.allocation = 1.5)),
    `${V1}.allocation`,
    /integer from 0 to 100/,
  ],
  [
    'allocation a string',
    variation(1, (v) => (v.allocation = '50')),
    `${V1}.allocation`,
    /integer from 0 to 100/,
  ],
  [
    'allocation over 100',
    variation(1, (v) => (v.allocation = 101)),
    `${V1}.allocation`,
    /integer from 0 to 100/,
  ],
  [
    'allocation negative',
    variation(1, (v) => (v.allocation = -1)),
    `${V1}.allocation`,
    /integer from 0 to 100/,
  ],
  [
    'allocation null',
    variation(1, (v) => (v.allocation = null)),
    `${V1}.allocation`,
    /integer from 0 to 100/,
  ],
  [
    'allocations over 100',
    variation(1, (v) => (v.allocation = 51)),
    'variation_groups[0].variations',
    /sum to 101, more than 100/,
  ],
  [
    'no reference',
    variation(0, (v) => (v.reference = false)),
    'variation_groups[0].variations',
    /exactly one reference variation \(found 0\)/,
  ],
  [
    'two references',
    variation(1, (v) => (v.reference = true)),
    'variation_groups[0].variations',
    /exactly one reference variation \(found 2\)/,
  ],
  ['reference not a boolean', variation(1, (v) => (v.reference = 'no')), `${V1}.reference`, /true or false/],
  [
    'flag type differs in a group',
    group((g) => {
      nth(g.variations, 0).modifications.value = { btnColor: null, size: 'big' };
      nth(g.variations, 1).modifications.value = { btnColor: 'green', size: 2 };
    }),
    `${V1}.modifications.value.size`,
    /number here but a string in variations\[0\]: a flag has one type in a group/,
  ],
  [
    'flag type differs, key that needs quoting',
    group((g) => {
      nth(g.variations, 0).modifications.value = { 'btn color': 'red' };
      nth(g.variations, 1).modifications.value = { 'btn color': true };
    }),
    `${V1}.modifications.value["btn color"]`,
    /boolean here but a string in variations\[0\]/,
  ],
  [
    'flag key empty',
    variation(0, (v) => (v.modifications.value = { '': 1 })),
    `${V0}.modifications.value[""]`,
    /empty/,
  ],
  [
    'modifications value a list',
    variation(0, (v) => Object.assign(v.modifications, { value: [] })),
    `${V0}.modifications.value`,
    /must be an object \{flag key: value\}/,
  ],
  [
    'modifications type empty',
    variation(0, (v) => (v.modifications.type = '')),
    `${V0}.modifications.type`,
    /empty/,
  ],
  [
    'lone surrogate in a flag value',
    variation(1, (v) => (v.modifications.value = { btnColor: ['ok', 'x\uD800'] })),
    `${V1}.modifications.value.btnColor[1]`,
    /lone surrogate/,
  ],
  [
    'group id used by a variation',
    group((g) => {
      g.id = 'g';
      nth(g.variations, 0).id = 'g';
    }),
    `${V0}.id`,
    /"g" is used twice in the campaign/,
  ],
  [
    'duplicate ids',
    edited(createBody(), (b) => {
      b.id = 'same';
      nth(b.variation_groups, 0).id = 'same';
    }),
    'variation_groups[0].id',
    /"same" is used twice in the campaign/,
  ],
  ['bucket ranges empty', { ...createBody(), bucket_ranges: [] }, 'bucket_ranges', /1-100 ranges/],
  ['bucket ranges not a list', { ...createBody(), bucket_ranges: 'all' }, 'bucket_ranges', /ranges/],
  [
    'bucket range reversed',
    {
      ...createBody(),
      bucket_ranges: [
        [0, 10],
        [50, 10],
      ],
    },
    'bucket_ranges[1]',
    /from < to/,
  ],
  ['bucket range over 100', { ...createBody(), bucket_ranges: [[0, 101]] }, 'bucket_ranges[0]', /≤ 100/],
  [
    'bucket range object',
    { ...createBody(), bucket_ranges: [{ r: [0, 100] }] },
    'bucket_ranges[0]',
    /\[from, to\]/,
  ],
  ['patch: another id', { id: 'c2' }, 'id', /read-only.*"c1"/, record()],
  ['patch: state change', { state: 'paused' }, 'state', /toggle/, record()],
  ['patch: position negative', { position: -1 }, 'position', /integer from 0/, record()],
  ['patch: position fractional', { position: 1.5 }, 'position', /integer from 0/, record()],
  ['patch: name null', { name: null }, 'name', /string/, record()],
  [
    'patch: groups replaced by bad ones',
    { variation_groups: [{ name: 'G', targeting: { targeting_groups: [] }, variations: [{ name: 'V' }] }] },
    'variation_groups[0].variations[0].modifications',
    /"type"/,
    record(),
  ],
  ['patch: unknown field', { variationGroups: [] }, 'variationGroups', /variation_groups/, record()],
];

void describe('campaignFromRemote: refusals name the field', () => {
  void it('accepts the good bodies the bad cases are made from', () => {
    assert.equal(campaignFromRemote(createBody()).campaign.name, 'Checkout');
    assert.equal(campaignFromRemote({}, record()).campaign.id, 'c1');
  });

  void it('checks the texts inside JSON values: keys, and depth bounded', () => {
    const badKey = variation(1, (v) => (v.modifications.value = { btnColor: { 'a\u0000': 1 } }));
    const keyError = refusal(() => campaignFromRemote(badKey));
    assert.equal(keyError.path, `${V1}.modifications.value.btnColor.a\u0000`);
    assert.match(keyError.reason, /must not hold U\+0000.* \(in its key\)/);
    let deep: unknown = 'x';
    for (let i = 0; i < 70; i++) deep = [deep];
    const tooDeep = rule((t) => (t.value = deep));
    const depthError = refusal(() => campaignFromRemote(tooDeep));
    assert.equal(depthError.path, `${RULE}.value${'[0]'.repeat(64)}`);
    assert.match(depthError.reason, /deeper than 64 levels/);
  });

  for (const [what, body, path, reason, existing] of BAD) {
    void it(`${what} → ${path}`, () => {
      // undefined fields stand for absent ones, as in a parsed JSON body.
      const parsed = JSON.parse(JSON.stringify(body)) as unknown;
      const error = refusal(() => campaignFromRemote(parsed, existing));
      assert.equal(error.path, path, error.message);
      assert.ok(error.message.startsWith(`${path} `), error.message);
      assert.match(error.reason, reason);
    });
  }
});

type Schema = Record<string, unknown> & { examples: readonly unknown[] };

const SCHEMAS: Record<string, Schema> = {
  remoteCampaignSchema,
  campaignCreateBodySchema,
  campaignPatchBodySchema,
  campaignToggleBodySchema,
  panicBodySchema,
  panicAnswerSchema,
  campaignPageSchema,
  errorBodySchema,
};

/** Every object schema below the root of `schema`, with its path. */
const subSchemas = (schema: unknown, path = ''): Array<[string, Record<string, unknown>]> => {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return [];
  const found: Array<[string, Record<string, unknown>]> = [];
  const s = schema as Record<string, unknown>;
  for (const [key, child] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) {
    found.push([`${path}.${key}`, child as Record<string, unknown>], ...subSchemas(child, `${path}.${key}`));
  }
  if (s.items !== undefined) found.push(...subSchemas(s.items, `${path}[]`));
  return found;
};

void describe('campaign schemas', () => {
  void it('each has a realistic example and no $ref', () => {
    for (const [name, schema] of Object.entries(SCHEMAS)) {
      assert.ok(schema.examples.length > 0, name);
      assert.doesNotMatch(JSON.stringify(schema), /"\$ref"/, name);
    }
  });

  void it('the examples pass campaignFromRemote', () => {
    const [created] = campaignCreateBodySchema.examples;
    const input = campaignFromRemote(created);
    assert.equal(input.state, 'paused');
    assert.equal(nth(input.campaign.variationGroups, 0).variations.length, 2);
    const [answer] = remoteCampaignSchema.examples;
    const stored = campaignFromRemote(answer);
    assert.equal(stored.campaign.id, 'c1');
    const [patch] = campaignPatchBodySchema.examples;
    assert.equal(campaignFromRemote(patch, record()).position, 0);
    const [page] = campaignPageSchema.examples;
    for (const item of page.items) campaignFromRemote(item);
  });

  void it('the answer example has exactly the fields of §13.5, and toRemoteCampaign writes those', () => {
    const documented = [...remoteCampaignSchema.required].sort();
    const [answer] = remoteCampaignSchema.examples;
    assert.deepEqual(Object.keys(answer).sort(), documented);
    // Beside them, the routes add the read-only compatibility warnings, which need the whole environment.
    assert.deepEqual(
      Object.keys(remoteCampaignSchema.properties).sort(),
      [...documented, 'compatibility'].sort(),
    );
    assert.deepEqual(Object.keys(toRemoteCampaign(record())).sort(), documented);
  });

  void it("the request bodies of a campaign state each field's rules: typed, none unknown", () => {
    assert.deepEqual([...campaignCreateBodySchema.required].sort(), ['name', 'type', 'variation_groups']);
    for (const schema of [campaignCreateBodySchema, campaignPatchBodySchema]) {
      assert.equal(schema.additionalProperties, false);
      for (const [path, child] of subSchemas(schema)) {
        // Read-only fields sent back from a GET are ignored whatever they hold; `position` is refused on create.
        if (/^\.(compatibility|position)$/.test(path) && !('type' in child)) continue;
        assert.ok('type' in child || 'x-storable-keys' in child, `${path} states its type`);
        if (child.type === 'object' && 'properties' in child)
          assert.equal(child.additionalProperties, false, `${path} refuses unknown fields`);
      }
    }
    const known = Object.keys(campaignPatchBodySchema.properties).sort();
    const error = refusal(() => campaignFromRemote({ bogus: 1 }, record()));
    for (const field of known) assert.match(error.reason, new RegExp(`\\b${field}\\b`));
  });

  void it('work as fastify route schemas: answers validate, bodies are not coerced, answers serialise whole', async (t) => {
    // The app's validator and refusal wording (http/schema-validation.ts, http/schema-errors.ts).
    const app = Fastify({
      schemaErrorFormatter: (errors, part) => formatSchemaErrors(errors as unknown as ErrorObject[], part),
    });
    app.setValidatorCompiler(compileRequestSchema);
    t.after(() => app.close());
    // Answers are checked as fastify's default Ajv reads them (with formats: `date-time`), as a client would,
    // our keywords being annotations to it.
    const plain = Fastify({ ajv: { customOptions: { keywords: [...ANNOTATIONS] } } });
    t.after(() => plain.close());
    let sent: RemoteCampaign | undefined;
    const answers: Array<[string, Schema]> = [
      ['campaign', remoteCampaignSchema],
      ['page', campaignPageSchema],
      ['error', errorBodySchema],
      ['toggle', campaignToggleBodySchema],
      ['panic', panicBodySchema],
      ['panic-answer', panicAnswerSchema],
    ];
    for (const [name, schema] of answers) {
      plain.post(`/check/${name}`, { schema: { body: schema } }, () => ({ ok: true }));
    }
    app.post(
      '/campaigns',
      {
        schema: {
          body: campaignCreateBodySchema,
          response: { 201: remoteCampaignSchema, 400: errorBodySchema },
        },
      },
      async (request, reply) => {
        try {
          const input = campaignFromRemote(request.body);
          sent = toRemoteCampaign({ ...record(input.campaign), description: input.description });
          return await reply.code(201).send(sent);
        } catch (error) {
          if (!(error instanceof FieldError)) throw error;
          return reply.code(400).send({
            message: error.message,
            code: 'invalid_body',
            details: [{ path: error.path, message: error.reason }],
          });
        }
      },
    );
    app.get('/campaign', { schema: { response: { 200: remoteCampaignSchema } } }, () =>
      toRemoteCampaign({ ...record(), description: '' }),
    );
    for (const [name, schema] of answers) {
      for (const example of schema.examples) {
        const answer = await plain.inject({ method: 'POST', url: `/check/${name}`, body: example as object });
        assert.equal(answer.statusCode, 200, `${name}: ${answer.body}`);
      }
    }
    const stored = await app.inject({ method: 'GET', url: '/campaign' });
    assert.deepEqual(stored.json(), toRemoteCampaign({ ...record(), description: '' }));
    const missing = await plain.inject({ method: 'POST', url: '/check/campaign', body: { id: 'c1' } });
    assert.equal(missing.statusCode, 400);
    const toggle = await plain.inject({ method: 'POST', url: '/check/toggle', body: { state: 'stopped' } });
    assert.equal(toggle.statusCode, 400);

    const [example] = campaignCreateBodySchema.examples;
    const created = await app.inject({ method: 'POST', url: '/campaigns', body: example });
    assert.equal(created.statusCode, 201, created.body);
    // fastify's serializer drops what the answer schema does not list: every field must come through.
    assert.deepEqual(created.json(), sent);
    assert.deepEqual(
      Object.keys(created.json<RemoteCampaign>()).sort(),
      [...remoteCampaignSchema.required].sort(),
    );

    const coerced = edited(structuredClone(example) as unknown as WireBody, (b) => {
      nth(nth(b.variation_groups, 0).variations, 1).allocation = '50';
    });
    const refused = await app.inject({ method: 'POST', url: '/campaigns', body: coerced });
    assert.equal(refused.statusCode, 400);
    assert.deepEqual(refused.json<{ details: unknown }>().details, [
      { path: 'variation_groups[0].variations[1].allocation', message: 'must be an integer from 0 to 100' },
    ]);
    const extra = await app.inject({
      method: 'POST',
      url: '/campaigns',
      body: { ...example, colour: 'red' },
    });
    assert.equal(extra.statusCode, 400);
    assert.match(extra.body, /colour: is not a known field/);
  });
});

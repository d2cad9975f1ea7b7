// The JSON Schema of a variation group in the remote control API's campaign bodies (PROTOCOL.md §13.5): its
// targeting and its variations, every field's rules stated (campaign-body-schemas.ts explains what is left
// to campaignFromRemote).
import { TARGETING_OPERATORS } from 'feature-ts/protocol';
import { ID_SCHEMA, TEXT_LIMITS } from '../validation/campaign-rules.js';

/** A text field of 1-`max` characters (`min` 0 allows '') that the store can keep. */
export const text = (max: number, min = 1) =>
  ({ type: 'string', minLength: min, maxLength: max, 'x-storable': true }) as const;

/** One targeting rule: a context key, an operator, a value (any JSON; its size is bounded by its operator). */
const targetingRuleSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['key', 'operator', 'value'],
  'x-rule': 'must be an object {"key", "operator", "value"}',
  properties: {
    key: { ...text(TEXT_LIMITS.key), description: 'A context key; fs_all_users matches everyone.' },
    operator: {
      type: 'string',
      enum: TARGETING_OPERATORS,
      'x-rule': `{value} is not a known operator; known: ${TARGETING_OPERATORS.join(', ')}`,
    },
    value: {
      'x-storable-keys': true,
      'x-if-missing': 'any JSON value (EXISTS and NOT_EXISTS ignore it)',
      description: 'Any JSON value; a list matches any (or, for NOT_*, every) item.',
    },
  },
} as const;

/** A variation: a share of its group's visitors and the flag values they get. */
const variationBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'modifications'],
  properties: {
    id: { ...ID_SCHEMA, description: 'Generated when left out.' },
    name: text(TEXT_LIMITS.name),
    reference: {
      type: 'boolean',
      description: 'false when left out; exactly one variation of a group is the reference.',
    },
    allocation: {
      type: 'integer',
      minimum: 0,
      maximum: 100,
      description:
        "Percent of the group's visitors, 0 when left out; a group's allocations sum to at most 100.",
    },
    modifications: {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'value'],
      'x-rule': 'must be {"type": string, "value": {flag key: value}}',
      'x-if-missing': '{"type": "FLAG", "value": {flag key: value}}',
      properties: {
        type: { ...text(TEXT_LIMITS.modificationsType), examples: ['FLAG'] },
        value: {
          type: 'object',
          propertyNames: { minLength: 1, maxLength: TEXT_LIMITS.key },
          'x-storable-keys': true,
          'x-rule': 'must be an object {flag key: value}',
          description:
            'Flag key → any JSON value; null means "this variation does not set the key". A key has one value type in a group.',
        },
      },
    },
  },
} as const;

/** A variation group: who it targets and its variations. */
export const variationGroupBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'targeting', 'variations'],
  properties: {
    id: { ...ID_SCHEMA, description: 'Generated when left out.' },
    name: text(TEXT_LIMITS.name),
    targeting: {
      type: 'object',
      additionalProperties: false,
      required: ['targeting_groups'],
      'x-rule': 'must be an object {"targeting_groups": [...]}',
      'x-if-missing': '{"targeting_groups": [{"targetings": [...]}]} (key fs_all_users targets everyone)',
      description: 'The group matches when any targeting group matches (PROTOCOL.md §7).',
      properties: {
        targeting_groups: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['targetings'],
            'x-rule': 'must be an object {"targetings": [...]}',
            description: 'Matches when all of its targetings match.',
            properties: { targetings: { type: 'array', items: targetingRuleSchema } },
          },
        },
      },
    },
    variations: { type: 'array', minItems: 1, items: variationBodySchema },
  },
} as const;

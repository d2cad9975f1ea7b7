// The JSON Schema of a bucketing-format file given to `feature-server import` or the operator import route
// (PROTOCOL.md §6): the shape the server serves, camelCase. Looser than the remote control API's bodies, so
// every file that imported before still does: fields it does not know are kept, names may be empty, a group's
// targeting may be left out (that group never matches, §7), and a null allocation counts as 0.
import { CAMPAIGN_TYPES, TARGETING_OPERATORS } from 'feature-ts/protocol';
import { analysisBodySchema } from './analysis-body-schema.js';
import { ID_SCHEMA as ID } from './campaign-rules.js';

const targetingSchema = {
  type: 'object',
  required: ['targetingGroups'],
  properties: {
    targetingGroups: {
      type: 'array',
      items: {
        type: 'object',
        required: ['targetings'],
        properties: {
          targetings: {
            type: 'array',
            items: {
              type: 'object',
              required: ['key', 'operator'],
              properties: {
                key: { type: 'string' },
                operator: {
                  type: 'string',
                  enum: TARGETING_OPERATORS,
                  'x-rule': '{value} is not a known operator',
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

const variationSchema = {
  type: 'object',
  required: ['id', 'name', 'modifications'],
  properties: {
    id: ID,
    name: { type: 'string' },
    allocation: {
      type: ['integer', 'null'],
      minimum: 0,
      maximum: 100,
      'x-rule': 'must be an integer from 0 to 100',
    },
    modifications: {
      type: 'object',
      required: ['type', 'value'],
      'x-rule': 'must be {"type": string, "value": {flag key: value}}',
      properties: { type: { type: 'string' }, value: { type: 'object' } },
    },
  },
} as const;

const campaignSchema = {
  type: 'object',
  required: ['id', 'name', 'type', 'variationGroups'],
  properties: {
    id: ID,
    name: { type: 'string' },
    type: { type: 'string', enum: CAMPAIGN_TYPES, 'x-rule': `must be one of ${CAMPAIGN_TYPES.join(', ')}` },
    slug: { type: ['string', 'null'] },
    bucketRanges: {
      type: 'array',
      'x-rule': 'must be an array of {"r": [from, to]} with percents 0-100',
      items: {
        type: 'object',
        required: ['r'],
        'x-rule': 'must be {"r": [from, to]} with percents 0-100',
        properties: {
          r: {
            type: 'array',
            minItems: 2,
            maxItems: 2,
            'x-rule': 'must be [from, to] with percents 0-100',
            items: { type: 'number', minimum: 0, maximum: 100, 'x-rule': 'must be a percent from 0 to 100' },
          },
        },
      },
    },
    variationGroups: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'name', 'variations'],
        properties: {
          id: ID,
          name: { type: 'string' },
          targeting: targetingSchema,
          variations: { type: 'array', minItems: 1, items: variationSchema },
        },
      },
    },
    analysis: analysisBodySchema,
  },
} as const;

/** A bucketing-format file: `{"campaigns": […]}` (other fields, such as `panic`, are the file's own). */
export const bucketingFileSchema = {
  title: 'Bucketing file (import)',
  type: 'object',
  required: ['campaigns'],
  'x-rule': 'must be a bucketing-format file: {"campaigns": […]}',
  properties: {
    campaigns: {
      type: 'array',
      items: campaignSchema,
      'x-rule': 'must be an array (a bucketing-format file: {"campaigns": […]})',
    },
  },
} as const;

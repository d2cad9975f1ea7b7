// JSON Schemas of the remote control API's campaign bodies (PROTOCOL.md §13.5), for fastify's route schemas
// and the OpenAPI 3.1 document. Each is self-contained (no $ref) and uses only keywords that mean the same in
// draft-07 (fastify's Ajv) and 2020-12 (OpenAPI 3.1): no tuple `items`, no `$schema`.
//
// Answers are typed in full: they drive fastify's serializer, which drops what a schema does not list. The
// request bodies are campaign-body-schemas.ts's.
import { ANALYSIS_DEFAULTS, ANALYSIS_LIMITS, CAMPAIGN_TYPES } from 'feature-ts/protocol';
import {
  ANALYSIS_METHODS,
  MAX_GOAL_NAME_LENGTH,
  PRIMARY_GOAL_TYPES,
} from '../validation/analysis-body-schema.js';
import { CAMPAIGN_STATES } from '../validation/campaign-rules.js';

const ID = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } as const;

const TIME = {
  type: 'string',
  format: 'date-time',
  description: 'ISO 8601 UTC time, set by the server.',
} as const;

export const remoteCampaignExample = {
  id: 'c1',
  name: 'Checkout',
  description: 'Does a green button sell more?',
  type: 'ab',
  slug: 'checkout',
  state: 'active',
  variation_groups: [
    {
      id: 'vg1',
      name: 'Members',
      targeting: {
        targeting_groups: [{ targetings: [{ key: 'plan', operator: 'EQUALS', value: 'premium' }] }],
      },
      variations: [
        {
          id: 'v1',
          name: 'Original',
          reference: true,
          allocation: 50,
          modifications: { type: 'FLAG', value: { btnColor: null } },
        },
        {
          id: 'v2',
          name: 'Green',
          reference: false,
          allocation: 50,
          modifications: { type: 'FLAG', value: { btnColor: 'green' } },
        },
      ],
    },
  ],
  bucket_ranges: [[0, 100]],
  analysis: {
    primary_goal: { type: 'event', name: 'add_to_cart' },
    method: 'sequential',
    alpha: 0.05,
    expected_visitors: 5000,
  },
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
} as const;

const variationSchema = {
  type: 'object',
  required: ['id', 'name', 'reference', 'allocation', 'modifications'],
  properties: {
    id: ID,
    name: { type: 'string' },
    reference: { type: 'boolean', description: 'Exactly one variation of a group is the reference.' },
    allocation: {
      type: 'integer',
      minimum: 0,
      maximum: 100,
      description: "Percent of the group's visitors; a group's allocations sum to at most 100.",
    },
    modifications: {
      type: 'object',
      required: ['type', 'value'],
      properties: {
        type: { type: 'string', examples: ['FLAG'] },
        value: {
          type: 'object',
          additionalProperties: true,
          description:
            'Flag key → any JSON value; null means "this variation does not set the key". A key has one value type in a group.',
        },
      },
    },
  },
} as const;

const variationGroupSchema = {
  type: 'object',
  required: ['id', 'name', 'targeting', 'variations'],
  properties: {
    id: ID,
    name: { type: 'string' },
    targeting: {
      type: 'object',
      required: ['targeting_groups'],
      description: 'The group matches when any targeting group matches (PROTOCOL.md §7).',
      properties: {
        targeting_groups: {
          type: 'array',
          items: {
            type: 'object',
            required: ['targetings'],
            description: 'Matches when all of its targetings match.',
            properties: {
              targetings: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['key', 'operator', 'value'],
                  properties: {
                    key: { type: 'string', description: 'A context key; fs_all_users matches everyone.' },
                    operator: { type: 'string', examples: ['EQUALS', 'GREATER_THAN', 'SEMVER_LOWER_THAN'] },
                    value: { description: 'Any JSON value; a list matches any (or, for NOT_*, every) item.' },
                  },
                },
              },
            },
          },
        },
      },
    },
    variations: { type: 'array', minItems: 1, items: variationSchema },
  },
} as const;

/** The analysis settings of a campaign as answered (PROTOCOL.md §14.6): every field, defaults filled in. */
export const analysisSchema = {
  type: 'object',
  required: ['primary_goal', 'method', 'alpha', 'expected_visitors'],
  description:
    'How the report decides its verdicts (PROTOCOL.md §14.6). Fields never set show their defaults (a campaign created before these settings existed reads with them).',
  properties: {
    primary_goal: {
      type: ['object', 'null'],
      required: ['type', 'name'],
      description:
        "The goal the verdicts are drawn on: an event's action or a transaction's affiliation. Every other goal is exploratory (figures, no verdict). null (the default): no verdict.",
      properties: {
        type: { type: 'string', enum: PRIMARY_GOAL_TYPES },
        name: { type: 'string', minLength: 1, maxLength: MAX_GOAL_NAME_LENGTH },
      },
    },
    method: {
      type: 'string',
      enum: ANALYSIS_METHODS,
      description: `sequential (the default): figures valid however often the report is read (§14.7). fixed: valid only when read once, at a sample size fixed in advance (§14.5).`,
    },
    alpha: {
      type: 'number',
      minimum: ANALYSIS_LIMITS.minAlpha,
      maximum: ANALYSIS_LIMITS.maxAlpha,
      description: `The false-positive rate accepted; default ${ANALYSIS_DEFAULTS.alpha}.`,
    },
    expected_visitors: {
      type: 'integer',
      minimum: ANALYSIS_LIMITS.minExpectedVisitors,
      maximum: ANALYSIS_LIMITS.maxExpectedVisitors,
      description: `The group's total visitors at which a decision is expected (the sequential tuning); default ${ANALYSIS_DEFAULTS.expected_visitors}.`,
    },
  },
} as const;

/** A campaign as the remote control API answers it (§13.5). */
export const remoteCampaignSchema = {
  title: 'Campaign',
  description: 'A campaign in the remote control API (snake_case).',
  type: 'object',
  required: [
    'id',
    'name',
    'description',
    'type',
    'slug',
    'state',
    'variation_groups',
    'bucket_ranges',
    'analysis',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: ID,
    name: { type: 'string' },
    description: { type: 'string' },
    type: { type: 'string', enum: CAMPAIGN_TYPES },
    slug: { type: ['string', 'null'] },
    state: {
      type: 'string',
      enum: CAMPAIGN_STATES,
      description: 'paused and interrupted campaigns are left out of decisions; interrupted is final.',
    },
    variation_groups: {
      type: 'array',
      items: variationGroupSchema,
      description: 'In order: a visitor gets the first group whose targeting matches.',
    },
    bucket_ranges: {
      type: 'array',
      items: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'number', minimum: 0, maximum: 100 } },
      description: "The campaign's share of traffic: percent ranges [from, to), to excluded.",
    },
    analysis: analysisSchema,
    created_at: TIME,
    updated_at: TIME,
    compatibility: {
      type: 'array',
      description:
        "Read-only (ignored in bodies): what the platform's own SDKs would evaluate differently in this campaign (empty: nothing).",
      items: {
        type: 'object',
        required: ['code', 'modes', 'path', 'message'],
        properties: {
          code: { type: 'string' },
          modes: { type: 'array', items: { type: 'string', enum: ['bucketing', 'decision_api'] } },
          path: { type: 'string' },
          message: { type: 'string' },
        },
      },
    },
  },
  examples: [remoteCampaignExample],
} as const;

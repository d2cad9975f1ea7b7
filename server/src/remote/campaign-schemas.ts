// JSON Schemas of the remote control API's campaign bodies (PROTOCOL.md §13.5), for fastify's route schemas
// and the OpenAPI 3.1 document. Each is self-contained (no $ref) and uses only keywords that mean the same in
// draft-07 (fastify's Ajv) and 2020-12 (OpenAPI 3.1): no tuple `items`, no `$schema`.
//
// The request bodies of a campaign are described, not enforced: fastify's Ajv coerces types ("50" → 50)
// and silently removes fields under `additionalProperties: false`, which would hide the mistakes that
// campaignFromRemote names by path (`variation_groups[0].variations[1].allocation`). So those schemas only
// say `type: object` and describe each field in words; answers are typed in full (they also drive fastify's
// serializer, which drops what a schema does not list).
import { ANALYSIS_DEFAULTS, ANALYSIS_LIMITS, CAMPAIGN_TYPES, ERROR_CODES } from 'feature-ts/protocol';
import {
  ANALYSIS_METHODS,
  MAX_GOAL_NAME_LENGTH,
  PRIMARY_GOAL_TYPES,
} from '../validation/analysis-settings.js';
import { CAMPAIGN_STATES, MAX_POSITION } from './campaign-format.js';

const ID = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } as const;

const TIME = {
  type: 'string',
  format: 'date-time',
  description: 'ISO 8601 UTC time, set by the server.',
} as const;

const remoteCampaignExample = {
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

// The fields of a create or patch body, in words (see the header: the rules are campaignFromRemote's).
const bodyFields = {
  id: {
    description:
      'Id (1-64 characters of [A-Za-z0-9_-]), unique in the environment; generated when left out. Read-only on PATCH.',
  },
  name: { description: 'Text, 1-256 characters.' },
  description: { description: "Text, 0-10 000 characters; '' when left out." },
  type: { description: 'One of ab, toggle, deployment, perso.' },
  slug: { description: 'Text, 1-256 characters, unique in the environment; or null.' },
  state: {
    description:
      'One of active, paused, interrupted. On PATCH only the current state (change it with the toggle route).',
  },
  variation_groups: {
    description:
      'Non-empty list of {id?, name, targeting: {targeting_groups}, variations: [{id?, name, reference?, allocation?, modifications}]}, as in a campaign answer; ids left out are generated. Given on PATCH, it replaces the whole list.',
  },
  bucket_ranges: {
    description: 'List of [from, to] percents, 0 ≤ from < to ≤ 100; [[0, 100]] when left out.',
  },
  analysis: {
    description: `The report's settings (PROTOCOL.md §14.6): {primary_goal: {type: ${PRIMARY_GOAL_TYPES.join('|')}, name: 1-${MAX_GOAL_NAME_LENGTH} characters} or null, method: ${ANALYSIS_METHODS.join('|')}, alpha: ${ANALYSIS_LIMITS.minAlpha}-${ANALYSIS_LIMITS.maxAlpha}, expected_visitors: integer ${ANALYSIS_LIMITS.minExpectedVisitors}-${ANALYSIS_LIMITS.maxExpectedVisitors}}; every field optional, fields left out take the defaults (${JSON.stringify(ANALYSIS_DEFAULTS)}). On PATCH the fields given replace the stored ones and the others are kept; null resets them all. Unknown fields are refused. Never changes a stored count.`,
  },
  created_at: { description: 'Read-only: ignored (a campaign read with GET can be sent back).' },
  updated_at: { description: 'Read-only: ignored.' },
} as const;

/** The body of `POST …/campaigns`: a campaign without its server-set fields; unknown fields are refused. */
export const campaignCreateBodySchema = {
  title: 'Campaign (create)',
  description:
    'A new campaign; it goes last. Required: name, type, variation_groups. Unknown fields are refused (400 naming them).',
  type: 'object',
  properties: bodyFields,
  examples: [
    {
      name: 'Checkout',
      description: 'Does a green button sell more?',
      type: 'ab',
      slug: 'checkout',
      state: 'paused',
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
            {
              name: 'Green',
              allocation: 50,
              modifications: { type: 'FLAG', value: { btnColor: 'green' } },
            },
          ],
        },
      ],
    },
  ],
} as const;

/** The body of `PATCH …/campaigns/{id}`: the fields to replace, and `position` to move the campaign. */
export const campaignPatchBodySchema = {
  title: 'Campaign (patch)',
  description:
    'Fields given replace the stored ones (a list given replaces the whole list); fields left out are kept.',
  type: 'object',
  properties: {
    ...bodyFields,
    position: {
      description: `Integer 0-${MAX_POSITION}: the campaign's place in the stored order (0 is first; past the end is last).`,
    },
  },
  examples: [
    { name: 'Checkout (winter)', bucket_ranges: [[0, 50]], position: 0 },
    { analysis: { primary_goal: { type: 'transaction', name: 'Purchase' }, alpha: 0.01 } },
  ],
} as const;

/** The body of `PATCH …/campaigns/{id}/toggle`. */
export const campaignToggleBodySchema = {
  title: 'Campaign state',
  type: 'object',
  required: ['state'],
  properties: {
    state: {
      type: 'string',
      enum: CAMPAIGN_STATES,
      description: 'interrupted is final: toggling an interrupted campaign answers 409.',
    },
  },
  examples: [{ state: 'paused' }],
} as const;

/** The body of `PATCH …/panic`. */
export const panicBodySchema = {
  title: 'Panic',
  type: 'object',
  required: ['panic'],
  properties: {
    panic: {
      type: 'string',
      enum: ['on', 'off'],
      description: 'on: every SDK of the environment serves default values and sends nothing.',
    },
  },
  examples: [{ panic: 'on' }],
} as const;

/** The answer of `PATCH …/panic`: the state now. */
export const panicAnswerSchema = {
  ...panicBodySchema,
  title: 'Panic state',
  examples: [{ panic: 'off' }],
} as const;

/** The answer of `GET …/campaigns?_page=&_max_per_page=`: one page of campaigns in stored order. */
export const campaignPageSchema = {
  title: 'Page of campaigns',
  type: 'object',
  required: ['items', 'current_items_count', 'current_page', 'total_count', 'items_per_page', 'last_page'],
  properties: {
    items: { type: 'array', items: remoteCampaignSchema },
    current_items_count: { type: 'integer', minimum: 0 },
    current_page: { type: 'integer', minimum: 1 },
    total_count: { type: 'integer', minimum: 0 },
    items_per_page: { type: 'integer', minimum: 1, maximum: 100 },
    last_page: { type: 'integer', minimum: 1 },
  },
  examples: [
    {
      items: [remoteCampaignExample],
      current_items_count: 1,
      current_page: 1,
      total_count: 1,
      items_per_page: 10,
      last_page: 1,
    },
  ],
} as const;

/** An error answer (§2.4): what is wrong and what to change, a stable code, field details when known. */
export const errorBodySchema = {
  title: 'Error',
  type: 'object',
  required: ['message', 'code'],
  properties: {
    message: { type: 'string' },
    code: { type: 'string', enum: ERROR_CODES },
    details: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: { path: { type: 'string' }, message: { type: 'string' } },
      },
    },
    requestId: { type: 'string', description: 'Only on 500: the id under which the server logged it.' },
  },
  examples: [
    {
      message: 'variation_groups[0].variations[1].allocation: must be an integer from 0 to 100',
      code: 'invalid_body',
      details: [
        {
          path: 'variation_groups[0].variations[1].allocation',
          message: 'must be an integer from 0 to 100',
        },
      ],
    },
  ],
} as const;

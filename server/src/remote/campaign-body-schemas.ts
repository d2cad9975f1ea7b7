// JSON Schemas of the remote control API's campaign request bodies (PROTOCOL.md §13.5): create, update, toggle
// and panic, and the page a list answers. They say every rule of one field: the routes check requests
// against them (http/schema-validation.ts), and campaignFromRemote checks bodies with them too (the CLI's
// edits come through it). What no one field can say stays in campaignFromRemote: allocations summing to at
// most 100, one reference per group, one value type per flag key, ids unique in the campaign, a range's from
// below its to, a targeting value's size by its operator, and the PATCH-only fields' relation to the stored
// campaign.
import { CAMPAIGN_TYPES } from 'feature-ts/protocol';
import {
  CAMPAIGN_STATES,
  MAX_BUCKET_RANGES,
  MAX_POSITION,
  TEXT_LIMITS,
  ID_SCHEMA,
} from '../validation/campaign-rules.js';
import { remoteCampaignExample, remoteCampaignSchema } from './campaign-schemas.js';
import { text, variationGroupBodySchema } from './variation-group-body-schema.js';
import { analysisBodySchema } from '../validation/analysis-body-schema.js';

/** The fields of a create or patch body. */
const bodyFields = {
  id: {
    ...ID_SCHEMA,
    description:
      'Unique in the environment; generated when left out. Read-only on PATCH (send the same or leave it out).',
  },
  name: text(TEXT_LIMITS.name),
  description: { ...text(TEXT_LIMITS.description, 0), description: "'' when left out." },
  type: {
    type: 'string',
    enum: CAMPAIGN_TYPES,
    'x-rule': `must be one of ${CAMPAIGN_TYPES.join(', ')}`,
  },
  slug: {
    type: ['string', 'null'],
    minLength: 1,
    maxLength: TEXT_LIMITS.slug,
    'x-storable': true,
    description: 'Unique in the environment; or null.',
  },
  state: {
    type: 'string',
    enum: CAMPAIGN_STATES,
    'x-rule': `must be one of ${CAMPAIGN_STATES.join(', ')}`,
    description: 'On PATCH only the current state (change it with the toggle route).',
  },
  variation_groups: {
    type: 'array',
    minItems: 1,
    items: variationGroupBodySchema,
    'x-rule': 'must be a non-empty array of variation groups',
    description:
      'In order: a visitor gets the first group whose targeting matches. Given on PATCH, it replaces the whole list.',
  },
  bucket_ranges: {
    type: 'array',
    minItems: 1,
    maxItems: MAX_BUCKET_RANGES,
    'x-rule': `must be a list of 1-${MAX_BUCKET_RANGES} ranges [from, to] (percents of traffic)`,
    items: {
      type: 'array',
      minItems: 2,
      maxItems: 2,
      items: { type: 'number' },
      'x-rule': 'must be [from, to] with 0 ≤ from < to ≤ 100 (to excluded)',
    },
    description:
      "The campaign's share of traffic: percent ranges [from, to), 0 ≤ from < to ≤ 100; [[0, 100]] when left out.",
  },
  analysis: analysisBodySchema,
  created_at: { type: 'string', 'x-rule': 'is read-only and ignored, but must be a string when sent' },
  updated_at: { type: 'string', 'x-rule': 'is read-only and ignored, but must be a string when sent' },
  compatibility: { description: 'Read-only: ignored (a campaign read with GET can be sent back whole).' },
} as const;

/** The body of `POST …/campaigns`: a campaign without its server-set fields; unknown fields are refused. */
export const campaignCreateBodySchema = {
  title: 'Campaign (create)',
  description:
    'A new campaign; it goes last. Unknown fields are refused (400 naming them); a campaign read with GET can be sent back whole.',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'type', 'variation_groups'],
  'x-rule': 'must be a JSON object (a campaign)',
  properties: {
    ...bodyFields,
    position: { not: {}, 'x-rule': 'is for PATCH only: a new campaign goes last; move it afterwards' },
  },
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
  additionalProperties: false,
  'x-rule': 'must be a JSON object (the fields to change)',
  properties: {
    ...bodyFields,
    position: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_POSITION,
      'x-rule': `must be an integer from 0 (first) to ${MAX_POSITION}; past the end means last`,
      description: "The campaign's place in the stored order (0 is first; past the end is last).",
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
      'x-rule': `must be one of ${CAMPAIGN_STATES.join(', ')}`,
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
      'x-rule': 'must be "on" or "off"',
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

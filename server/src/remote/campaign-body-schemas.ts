// JSON Schemas of the remote control API's campaign request bodies (PROTOCOL.md §13.5): create, update, toggle
// and panic, and the page a list answers. The routes check requests against them (http/schema-validation.ts);
// campaignFromRemote then checks what JSON Schema cannot say, naming the field by its path.
import { ANALYSIS_DEFAULTS, ANALYSIS_LIMITS } from 'feature-ts/protocol';
import {
  ANALYSIS_METHODS,
  MAX_GOAL_NAME_LENGTH,
  PRIMARY_GOAL_TYPES,
} from '../validation/analysis-settings.js';
import { CAMPAIGN_STATES, MAX_POSITION } from './campaign-format.js';
import { remoteCampaignExample, remoteCampaignSchema } from './campaign-schemas.js';

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

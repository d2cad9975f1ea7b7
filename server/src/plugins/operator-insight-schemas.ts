// Schemas of the operator's insight routes (operator-insights.ts): the live traffic of an environment
// (no-store) and the daily series of a campaign report (revalidated with its ETag), both read-only. Their
// queries are checked and read (integers from their text) by these schemas, their answers serialized by them.
import type { DailySeries, TrafficAnswer } from 'feature-ts/protocol';
import { errors } from '../errors.js';
import { operatorRoute } from './operator-route-schemas.js';
import { variationGroupsOf } from './report-schemas.js';
import {
  EXAMPLE,
  errorAnswer,
  errorResponse,
  pathParameters,
  reportAnswerHeaders,
  reportConditionalHeaders,
  reportNotModifiedResponse,
} from './shared-schemas.js';

const NO_STORE = { 'Cache-Control': { type: 'string', description: '`no-store`' } } as const;
const TIME = { type: 'string', format: 'date-time' } as const;
const SEQ = { type: 'integer', minimum: 0 } as const;
const NULLABLE_TEXT = { type: ['string', 'null'] } as const;

const unknownEnvironment = errorResponse(
  'No environment has this id.',
  errorAnswer(errors.unknownEnvironment('nope')),
);

const activationItemSchema = {
  type: 'object',
  required: [
    'kind',
    'seq',
    'received_at',
    'created_at',
    'visitor_id',
    'anonymous_id',
    'campaign_id',
    'variation_group_id',
    'variation_id',
    'hid',
  ],
  properties: {
    kind: { const: 'activation' },
    seq: SEQ,
    received_at: TIME,
    created_at: { ...TIME, description: 'Received time − qt (§14.4).' },
    visitor_id: { type: 'string', description: '`vid`.' },
    anonymous_id: { ...NULLABLE_TEXT, description: '`aid`.' },
    campaign_id: { type: 'string' },
    variation_group_id: { type: 'string', description: '`caid`.' },
    variation_id: { type: 'string', description: '`vaid`.' },
    hid: { ...NULLABLE_TEXT, description: 'The idempotency id, when sent.' },
  },
} as const;

const hitItemSchema = {
  type: 'object',
  required: [
    'kind',
    'seq',
    'received_at',
    'created_at',
    'type',
    'visitor_id',
    'customer_id',
    'goal',
    'revenue',
    'hid',
    'body',
  ],
  properties: {
    kind: { const: 'hit' },
    seq: SEQ,
    received_at: TIME,
    created_at: { ...TIME, description: 'Received time − qt (§14.4).' },
    type: { type: 'string', description: '`t`: EVENT, TRANSACTION, PAGEVIEW, …' },
    visitor_id: { type: 'string', description: '`vid`.' },
    customer_id: { ...NULLABLE_TEXT, description: '`cuid`.' },
    goal: { ...NULLABLE_TEXT, description: 'The EVENT action or TRANSACTION affiliation (§14.3).' },
    revenue: { type: ['number', 'null'], description: 'A TRANSACTION’s `tr`.' },
    hid: { ...NULLABLE_TEXT, description: 'The idempotency id, when sent.' },
    // Free-form: the answer is serialized from this schema, which would drop keys it does not list.
    body: { type: 'object', additionalProperties: true, description: 'The hit as stored.' },
  },
} as const;

const trafficExample = {
  items: [
    {
      kind: 'hit',
      seq: 1042,
      received_at: EXAMPLE.time,
      created_at: '2026-11-22T09:59:59.990Z',
      type: 'EVENT',
      visitor_id: 'anon-7',
      customer_id: null,
      goal: 'add_to_cart',
      revenue: null,
      hid: '77aa0c52-1b6e-4d8f-a2c4-9e3f5b7d1a60',
      body: {
        t: 'EVENT',
        ea: 'add_to_cart',
        ec: 'Action Tracking',
        el: 'btn',
        ev: 3,
        qt: 10,
        hid: '77aa0c52-1b6e-4d8f-a2c4-9e3f5b7d1a60',
        vid: 'anon-7',
        cuid: null,
      },
    },
    {
      kind: 'activation',
      seq: 311,
      received_at: '2026-11-22T09:59:58.000Z',
      created_at: '2026-11-22T09:59:57.880Z',
      visitor_id: 'user-42',
      anonymous_id: 'anon-7',
      campaign_id: 'c1',
      variation_group_id: 'vg1',
      variation_id: 'v2',
      hid: '9b1d4e2a-6c3f-4a57-8e90-1f2d3c4b5a69',
    },
  ],
  cursor: { activation: 311, hit: 1042 },
} satisfies TrafficAnswer;

const cursorParameter = (what: string) =>
  ({
    type: 'integer',
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    default: 0,
    description: `Only ${what} with a higher seq: the cursor's \`${what === 'activations' ? 'activation' : 'hit'}\` of the previous answer.`,
  }) as const;

const seriesExample = {
  campaign_id: 'c1',
  days: ['2026-11-21', '2026-11-22'],
  variation_groups: [
    {
      id: 'vg1',
      variations: [
        {
          id: 'v1',
          name: 'Original',
          reference: true,
          visits: [610, 590],
          conversions: { add_to_cart: [70, 60] },
          transactions: { Purchase: [0, 0] },
        },
        {
          id: 'v2',
          name: 'Green',
          reference: false,
          visits: [600, 580],
          conversions: { add_to_cart: [85, 75] },
          transactions: { Purchase: [22, 18] },
        },
      ],
    },
  ],
} satisfies DailySeries;

const perDay = (description: string) =>
  ({ type: 'array', items: { type: 'integer', minimum: 0 }, description }) as const;

/** One variation's daily series. */
const VARIATION_SERIES = {
  type: 'object',
  required: ['id', 'name', 'reference', 'visits', 'conversions', 'transactions'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    reference: { type: 'boolean' },
    visits: perDay('Visits (§14.1) per day.'),
    conversions: {
      type: 'object',
      description: 'Event goals by action: conversions per day; every goal of the report.',
      additionalProperties: perDay('Conversions per day.'),
    },
    transactions: {
      type: 'object',
      description: 'Transaction goals by affiliation: conversions per day.',
      additionalProperties: perDay('Conversions per day.'),
    },
  },
} as const;

/** The insight routes' options (their schemas, documentation only), by route. */
export const operatorInsightRoutes = {
  traffic: operatorRoute({
    summary: "Watch an environment's traffic",
    description:
      "The newest accepted activations and hits of the environment, merged newest first by received time, for debugging an integration. Poll with the answer's `cursor` as `after_activation` and `after_hit` to get only what is new; when more is new than `limit`, the newest are answered and the older skipped.",
    params: pathParameters('envId'),
    querystring: {
      type: 'object',
      properties: {
        after_activation: cursorParameter('activations'),
        after_hit: cursorParameter('hits'),
        visitor: {
          type: 'string',
          minLength: 1,
          maxLength: 256,
          'x-storable': true,
          description: "Only this visitor's rows: an activation's vid or aid, a hit's vid or cuid (exact).",
          examples: ['anon-7'],
        },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: 200,
          default: 50,
          description: 'At most this many rows, both kinds together.',
        },
      },
    },
    response: {
      200: {
        type: 'object',
        required: ['items', 'cursor'],
        properties: {
          items: { type: 'array', items: { oneOf: [activationItemSchema, hitItemSchema] } },
          cursor: {
            type: 'object',
            required: ['activation', 'hit'],
            description:
              "The environment's highest activation and hit seq when read (or the given after value, when higher).",
            properties: { activation: SEQ, hit: SEQ },
          },
        },
        description: 'The rows, newest first, and the cursor of the next poll.',
        headers: NO_STORE,
        examples: [trafficExample],
      },
      400: errorResponse(
        'A query parameter is wrong, named in the answer.',
        errorAnswer(errors.invalidBody('limit', 'must be a whole number from 1 to 200')),
      ),
      404: unknownEnvironment,
    },
  }),
  days: operatorRoute({
    summary: "Get a campaign report's daily series",
    description:
      "Visits and conversions of each variation per UTC day, from the first exposure's day to today (the last 90 days at most), for a chart. Counted as in the report (§14.1, §14.4): a visit on its activation's created day, a conversion on its hit's created day; each series sums to the report's figure while every row is inside the days shown. Conditional (ETag, If-None-Match → 304), like the report; the ETag also changes at midnight UTC, when the days shown do.",
    params: pathParameters('envId', 'campaignId'),
    headers: reportConditionalHeaders,
    response: {
      200: {
        title: 'Daily series',
        type: 'object',
        required: ['campaign_id', 'days', 'variation_groups'],
        properties: {
          campaign_id: { type: 'string' },
          days: {
            type: 'array',
            items: { type: 'string', format: 'date' },
            description: 'UTC days, oldest first; empty before the first exposure.',
          },
          variation_groups: variationGroupsOf(VARIATION_SERIES),
        },
        description: 'One number per day in every series.',
        headers: reportAnswerHeaders,
        examples: [seriesExample],
      },
      304: reportNotModifiedResponse,
      404: errorResponse(
        'No environment, or no campaign with this id.',
        errorAnswer(errors.unknownEnvironment('nope')),
        errorAnswer(errors.notFound('GET', 'campaign nope')),
      ),
    },
  }),
} as const;

// The campaign report's schema (PROTOCOL.md §14.5), for the OpenAPI document: the answer of the remote
// control report route and, in a list, of the operator reports route.
import type { CampaignReport } from 'feature-ts/protocol';
import { EXAMPLE } from './shared-schemas.js';

const nullableNumber = (description: string) => ({ type: ['number', 'null'], description }) as const;

const goalProperties = {
  conversions: { type: 'integer', minimum: 0, description: 'Hits of this goal attributed to the variation.' },
  visitors: { type: 'integer', minimum: 0, description: 'Converting visitors (unique persons).' },
  rate: { type: 'number', minimum: 0, maximum: 1, description: 'Converting visitors / visitors.' },
  uplift: nullableNumber('rate / reference rate − 1; null for the reference or when its rate is 0.'),
  p_value: nullableNumber('Two-sided two-proportion z-test (pooled); null for the reference.'),
  ci95: {
    type: ['array', 'null'],
    minItems: 2,
    maxItems: 2,
    items: { type: 'number' },
    description: 'Wald 95 % interval of the rate difference; null for the reference.',
  },
} as const;

const goalRequired = ['conversions', 'visitors', 'rate', 'uplift', 'p_value', 'ci95'] as const;

const reportExample = {
  campaign_id: 'c1',
  generated_at: EXAMPLE.time,
  variation_groups: [
    {
      id: 'vg1',
      variations: [
        {
          id: 'v1',
          name: 'Original',
          reference: true,
          visits: 1200,
          visitors: 1000,
          events: {
            add_to_cart: {
              conversions: 130,
              visitors: 100,
              rate: 0.1,
              uplift: null,
              p_value: null,
              ci95: null,
            },
          },
          transactions: {
            Purchase: {
              conversions: 0,
              visitors: 0,
              rate: 0,
              revenue: 0,
              uplift: null,
              p_value: null,
              ci95: null,
            },
          },
        },
        {
          id: 'v2',
          name: 'Green',
          reference: false,
          visits: 1180,
          visitors: 990,
          events: {
            add_to_cart: {
              conversions: 160,
              visitors: 125,
              rate: 0.12626262626262627,
              uplift: 0.26262626262626254,
              p_value: 0.06434612717580569,
              ci95: [-0.0015546919457432376, 0.05407994447099577],
            },
          },
          transactions: {
            Purchase: {
              conversions: 40,
              visitors: 38,
              rate: 0.03838383838383838,
              revenue: 812.5,
              uplift: null,
              p_value: 3.962880821920555e-10,
              ci95: [0.026416279538269957, 0.050351397229406805],
            },
          },
        },
      ],
    },
  ],
} satisfies CampaignReport;

/** The variation groups of a report-shaped answer: `[{ id, variations: [variation, …] }]`. */
export const variationGroupsOf = <V extends object>(variation: V) =>
  ({
    type: 'array',
    items: {
      type: 'object',
      required: ['id', 'variations'],
      properties: { id: { type: 'string' }, variations: { type: 'array', items: variation } },
    },
  }) as const;

/** One variation's row of a report. */
const VARIATION_REPORT = {
  type: 'object',
  required: ['id', 'name', 'reference', 'visits', 'visitors', 'events', 'transactions'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    reference: { type: 'boolean' },
    visits: { type: 'integer', minimum: 0, description: 'Accepted activations (§14.1).' },
    visitors: { type: 'integer', minimum: 0, description: 'Unique persons exposed (§14.2).' },
    events: {
      type: 'object',
      description: 'Event goals by action; every goal seen in the campaign, zeros where none.',
      additionalProperties: {
        type: 'object',
        required: goalRequired,
        properties: goalProperties,
      },
    },
    transactions: {
      type: 'object',
      description: 'Transaction goals by affiliation, with the revenue sum.',
      additionalProperties: {
        type: 'object',
        required: [...goalRequired, 'revenue'],
        properties: { ...goalProperties, revenue: { type: 'number', minimum: 0 } },
      },
    },
  },
} as const;

/** A campaign report (§14.5): visits, visitors and goals per variation, with the statistics. */
export const campaignReportSchema = {
  title: 'Campaign report',
  type: 'object',
  required: ['campaign_id', 'generated_at', 'variation_groups'],
  properties: {
    campaign_id: { type: 'string' },
    generated_at: { type: 'string', format: 'date-time' },
    variation_groups: variationGroupsOf(VARIATION_REPORT),
  },
  examples: [reportExample],
} as const;

// The campaign report's schema (PROTOCOL.md §14.5-§14.8), for the OpenAPI document: the answer of the remote
// control report route and, in a list, of the operator reports route.
import { VERDICTS, type CampaignReport } from 'feature-ts/protocol';
import { EXAMPLE } from './shared-schemas.js';

const nullableNumber = (description: string) => ({ type: ['number', 'null'], description }) as const;

const goalProperties = {
  conversions: { type: 'integer', minimum: 0, description: 'Hits of this goal attributed to the variation.' },
  visitors: { type: 'integer', minimum: 0, description: 'Converting visitors (unique persons).' },
  rate: { type: 'number', minimum: 0, maximum: 1, description: 'Converting visitors / visitors.' },
  uplift: nullableNumber('rate / reference rate − 1; null for the reference or when its rate is 0.'),
  p_value: nullableNumber(
    'Fixed-horizon: two-sided two-proportion z-test (pooled), valid only when read once at a sample size fixed in advance; null for the reference.',
  ),
  ci95: {
    type: ['array', 'null'],
    minItems: 2,
    maxItems: 2,
    items: { type: 'number' },
    description:
      'Fixed-horizon, as p_value: Wald 95 % interval of the rate difference; null for the reference.',
  },
  sequential: {
    type: 'object',
    required: ['p_value', 'interval', 'adjusted_p_value'],
    description:
      'Always-valid figures (§14.7): valid however often the report is read. Nulls for the reference and where p_value is null.',
    properties: {
      p_value: nullableNumber('The e-value p-value of the normal-mixture confidence sequence.'),
      interval: {
        type: ['array', 'null'],
        minItems: 2,
        maxItems: 2,
        items: { type: 'number' },
        description: "The confidence sequence of the rate difference at the campaign's alpha.",
      },
      adjusted_p_value: nullableNumber(
        "p_value with Holm's adjustment across the group's non-reference variations.",
      ),
    },
  },
  verdict: {
    type: 'string',
    enum: [...VERDICTS],
    description:
      'Decided by the server (§14.8): reference, exploratory (not the primary goal), sample_ratio_mismatch, not_enough_data, better, worse or inconclusive.',
  },
} as const;

const goalRequired = [
  'conversions',
  'visitors',
  'rate',
  'uplift',
  'p_value',
  'ci95',
  'sequential',
  'verdict',
] as const;

const REFERENCE_FIGURES = {
  uplift: null,
  p_value: null,
  ci95: null,
  sequential: { p_value: null, interval: null, adjusted_p_value: null },
  verdict: 'reference',
} as const;

const reportExample = {
  campaign_id: 'c1',
  generated_at: EXAMPLE.time,
  analysis: { primary_goal: null, method: 'sequential', alpha: 0.05, expected_visitors: 5000 },
  variation_groups: [
    {
      id: 'vg1',
      srm: { p_value: 0.822626644543654, mismatch: false, expected: [995, 995], observed: [1000, 990] },
      variations: [
        {
          id: 'v1',
          name: 'Original',
          reference: true,
          visits: 1200,
          visitors: 1000,
          events: {
            add_to_cart: { conversions: 130, visitors: 100, rate: 0.1, ...REFERENCE_FIGURES },
          },
          transactions: {
            Purchase: { conversions: 0, visitors: 0, rate: 0, revenue: 0, ...REFERENCE_FIGURES },
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
              sequential: {
                p_value: 0.555571161271904,
                interval: [-0.018087740342799554, 0.07061299286805207],
                adjusted_p_value: 0.555571161271904,
              },
              verdict: 'exploratory',
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
              sequential: {
                p_value: 6.193543572269224e-7,
                interval: [0.019303436089224926, 0.05746424067845184],
                adjusted_p_value: 6.193543572269224e-7,
              },
              verdict: 'exploratory',
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

const SAMPLE_RATIO = {
  type: ['object', 'null'],
  required: ['p_value', 'mismatch', 'expected', 'observed'],
  description:
    "Pearson's chi-square of the visitors per allocated variation against the allocations (§14.8); mismatch below 0.001. Null below 2 allocated variations or 100 visitors.",
  properties: {
    p_value: { type: 'number', minimum: 0, maximum: 1 },
    mismatch: {
      type: 'boolean',
      description: 'The split is broken: no verdict of the group can be trusted.',
    },
    expected: { type: 'array', items: { type: 'number' } },
    observed: { type: 'array', items: { type: 'integer', minimum: 0 } },
  },
} as const;

const ANALYSIS = {
  type: 'object',
  required: ['primary_goal', 'method', 'alpha', 'expected_visitors'],
  description: 'The analysis settings in force (§14.6), defaults filled in.',
  properties: {
    primary_goal: {
      type: ['object', 'null'],
      required: ['type', 'name'],
      properties: { type: { type: 'string', enum: ['event', 'transaction'] }, name: { type: 'string' } },
    },
    method: { type: 'string', enum: ['sequential', 'fixed'] },
    alpha: { type: 'number' },
    expected_visitors: { type: 'integer' },
  },
} as const;

/** A campaign report (§14.5-§14.8): visits, visitors and goals per variation, with the statistics and verdicts. */
export const campaignReportSchema = {
  title: 'Campaign report',
  type: 'object',
  required: ['campaign_id', 'generated_at', 'analysis', 'variation_groups'],
  properties: {
    campaign_id: { type: 'string' },
    generated_at: { type: 'string', format: 'date-time' },
    analysis: ANALYSIS,
    variation_groups: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'srm', 'variations'],
        properties: {
          id: { type: 'string' },
          srm: SAMPLE_RATIO,
          variations: { type: 'array', items: VARIATION_REPORT },
        },
      },
    },
  },
  examples: [reportExample],
} as const;

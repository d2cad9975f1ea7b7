// The terminal table of `feature-server report`: one row per variation and goal, a variation without goals
// still listed, figures rounded for display only. The report is PROTOCOL.md §14.5's example body.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { CampaignReport } from '../../../src/protocol/index.js';
import { reportTable } from '../../../server/src/cli/report-table.js';

const example: CampaignReport = {
  campaign_id: 'c1',
  generated_at: '2026-11-22T00:00:00.000Z',
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
        { id: 'v3', name: '', reference: false, visits: 0, visitors: 0, events: {}, transactions: {} },
      ],
    },
  ],
};

const cells = (table: string): string[][] => table.split('\n').map((line) => line.split(/ {2,}/));

void it('lists one row per variation and goal, rounded for display', () => {
  const rows = cells(reportTable([example]));
  assert.deepEqual(rows[0], [
    'campaign',
    'group',
    'variation',
    'visits',
    'visitors',
    'goal',
    'conv.',
    'conv. visitors',
    'rate',
    'uplift',
    'p-value',
    'CI95 (diff)',
    'revenue',
  ]);
  assert.deepEqual(rows.slice(1), [
    ['c1', 'vg1', 'Original (ref)', '1200', '1000', 'add_to_cart', '130', '100', '10.00 %', '-', '-', '-'],
    [
      'c1',
      'vg1',
      'Original (ref)',
      '1200',
      '1000',
      'Purchase (tx)',
      '0',
      '0',
      '0.00 %',
      '-',
      '-',
      '-',
      '0.00',
    ],
    [
      'c1',
      'vg1',
      'Green',
      '1180',
      '990',
      'add_to_cart',
      '160',
      '125',
      '12.63 %',
      '26.26 %',
      '0.0643',
      '[-0.16 %, 5.41 %]',
    ],
    [
      'c1',
      'vg1',
      'Green',
      '1180',
      '990',
      'Purchase (tx)',
      '40',
      '38',
      '3.84 %',
      '-',
      '3.96e-10',
      '[2.64 %, 5.04 %]',
      '812.50',
    ],
    // A variation without goals (and without a name) keeps its row, its id standing for the name.
    ['c1', 'vg1', 'v3', '0', '0', '-'],
  ]);
});

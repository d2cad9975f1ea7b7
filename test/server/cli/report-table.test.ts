// The terminal table of `feature-server report`: the analysis in force first, one row per variation and goal
// with the server's verdict (a variation without goals still listed), each group's sample-ratio line after;
// figures rounded for display only. The report is PROTOCOL.md §14.5's example body with §14.7-§14.8's figures
// (test/fixtures/report-statistics.json's first two cases).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { CampaignReport, GoalFigures } from '../../../src/protocol/index.js';
import { reportTable } from '../../../server/src/cli/report-table.js';

const reference = {
  uplift: null,
  p_value: null,
  ci95: null,
  sequential: { p_value: null, interval: null, adjusted_p_value: null },
  verdict: 'reference',
} satisfies Partial<GoalFigures>;

const example = (method: 'sequential' | 'fixed', mismatch = false): CampaignReport => ({
  campaign_id: 'c1',
  generated_at: '2026-11-22T00:00:00.000Z',
  analysis: {
    primary_goal: { type: 'event', name: 'add_to_cart' },
    method,
    alpha: 0.05,
    expected_visitors: 5000,
  },
  variation_groups: [
    {
      id: 'vg1',
      srm: {
        p_value: mismatch ? 1e-9 : 0.822626644543654,
        mismatch,
        expected: [995, 995],
        observed: [1000, 990],
      },
      variations: [
        {
          id: 'v1',
          name: 'Original',
          reference: true,
          visits: 1200,
          visitors: 1000,
          events: { add_to_cart: { conversions: 130, visitors: 100, rate: 0.1, ...reference } },
          transactions: { Purchase: { conversions: 0, visitors: 0, rate: 0, revenue: 0, ...reference } },
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
              verdict: mismatch ? 'sample_ratio_mismatch' : 'inconclusive',
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
        { id: 'v3', name: '', reference: false, visits: 0, visitors: 0, events: {}, transactions: {} },
      ],
    },
  ],
});

const cells = (line: string): string[] => line.split(/ {2,}/);

void it('says how the verdicts are drawn, then one row per variation and goal with its verdict', () => {
  const lines = reportTable([example('sequential')]).split('\n');
  assert.equal(
    lines[0],
    'c1: sequential (valid however often you look), alpha 0.05, tuned for 5000 visitors; primary goal event:add_to_cart, other goals exploratory',
  );
  const start = lines.findIndex((l) => l.startsWith('campaign'));
  assert.deepEqual(cells(lines[start] ?? ''), [
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
    'interval (diff)',
    'verdict',
    'revenue',
  ]);
  assert.deepEqual(lines.slice(start + 1, start + 6).map(cells), [
    [
      'c1',
      'vg1',
      'Original (ref)',
      '1200',
      '1000',
      'add_to_cart',
      '130',
      '100',
      '10.00 %',
      '-',
      '-',
      '-',
      'reference',
    ],
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
      'reference',
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
      '0.5556',
      '[-1.81 %, 7.06 %]',
      'inconclusive',
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
      '6.19e-7',
      '[1.93 %, 5.75 %]',
      'exploratory',
      '812.50',
    ],
    ['c1', 'vg1', 'v3', '0', '0', '-'],
  ]);
  assert.equal(
    lines.at(-1),
    'c1 vg1: sample ratio ok (p 0.8226): visitors 1000 / 990, expected 995.0 / 995.0',
  );
});

void it('with the fixed method, shows the fixed-horizon figures and says they are valid only when read once', () => {
  const lines = reportTable([example('fixed')]).split('\n');
  assert.match(
    lines[0] ?? '',
    /fixed horizon \(valid only when read once, at a sample size fixed in advance\)/,
  );
  const green = lines.find((l) => l.includes('Green') && l.includes('add_to_cart')) ?? '';
  assert.deepEqual(cells(green).slice(10, 12), ['0.0643', '[-0.16 %, 5.41 %]']);
});

void it('a mismatched split gets a line that says no verdict can be trusted, and what usually causes it', () => {
  const table = reportTable([example('sequential', true)]);
  assert.match(
    table,
    /c1 vg1: SAMPLE RATIO MISMATCH \(p 1\.00e-9\): visitors 1000 \/ 990, expected 995\.0 \/ 995\.0\. No verdict/,
  );
  assert.match(table, /sample ratio mismatch/);
});

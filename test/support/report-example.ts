// PROTOCOL.md §14.5's example report with the figures of §14.7-§14.8 (test/fixtures/report-statistics.json's
// first two cases; the sample-ratio p-value by mpmath), and a variation without goals: what the CLI table and the
// console's CSV are tested on.
import type { CampaignReport, GoalFigures } from '../../src/protocol/index.js';

/** A reference variation's comparison figures: none, and the verdict `reference`. */
export const REFERENCE_FIGURES = {
  uplift: null,
  p_value: null,
  ci95: null,
  sequential: { p_value: null, interval: null, adjusted_p_value: null },
  verdict: 'reference',
} satisfies Partial<GoalFigures>;

/** The example, under `method`; with `mismatch`, its split is broken and the primary goal's verdict says so. */
export const exampleReport = (
  method: 'sequential' | 'fixed' = 'sequential',
  mismatch = false,
): CampaignReport => ({
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
          events: { add_to_cart: { conversions: 130, visitors: 100, rate: 0.1, ...REFERENCE_FIGURES } },
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

// The terminal table of `feature-server report`: the analysis in force first, one row per variation and goal
// with the server's verdict (a variation without goals still listed), each group's sample-ratio line after;
// figures rounded for display only; campaigns, groups and variations by name, by id where they have none. The
// report is test/support/report-example.ts.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { reportTable } from '../../../server/src/cli/report-table.js';
import type { CampaignReport, RemoteCampaign } from '../../../src/protocol/index.js';
import { exampleReport } from '../../support/report-example.js';

const cells = (line: string): string[] => line.split(/ {2,}/);

void it('says how the verdicts are drawn, then one row per variation and goal with its verdict', () => {
  const lines = reportTable([exampleReport('sequential')]).split('\n');
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
    'interval of the difference (points)',
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
      '-1.81 to +7.06',
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
      '+1.93 to +5.75',
      'exploratory',
      '812.50',
    ],
    ['c1', 'vg1', 'v3', '0', '0', '-'],
  ]);
  assert.equal(
    lines.at(-1),
    'c1, group vg1: sample ratio ok (p 0.8226): visitors 1000 / 990, expected 995.0 / 995.0',
  );
});

void it('with the fixed method, shows the fixed-horizon figures and says they are valid only when read once', () => {
  const lines = reportTable([exampleReport('fixed')]).split('\n');
  assert.match(
    lines[0] ?? '',
    /fixed horizon \(valid only when read once, at a sample size fixed in advance\)/,
  );
  const green = lines.find((l) => l.includes('Green') && l.includes('add_to_cart')) ?? '';
  assert.deepEqual(cells(green).slice(10, 12), ['0.0643', '-0.16 to +5.41']);
});

void it('a mismatched split gets a line that says no verdict can be trusted, and what usually causes it', () => {
  const table = reportTable([exampleReport('sequential', true)]);
  assert.match(
    table,
    /c1, group vg1: SAMPLE RATIO MISMATCH \(p 1\.00e-9\): visitors 1000 \/ 990, expected 995\.0 \/ 995\.0\. No verdict/,
  );
  assert.match(table, /sample ratio mismatch/);
});

/** The example's campaign as a campaign list gives it: named, its group named `group`. */
const listedCampaign = (report: CampaignReport, group: string): RemoteCampaign => ({
  id: report.campaign_id,
  name: 'Checkout button',
  description: '',
  type: 'ab',
  slug: 'checkout',
  state: 'active',
  variation_groups: report.variation_groups.map((g) => ({
    id: g.id,
    name: group,
    targeting: {
      targeting_groups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: '' }] }],
    },
    variations: g.variations.map((v) => ({
      id: v.id,
      name: v.name,
      reference: v.reference,
      allocation: 50,
      modifications: { type: 'JSON', value: {} },
    })),
  })),
  bucket_ranges: [[0, 100]],
  analysis: report.analysis,
  created_at: '2026-11-22T00:00:00.000Z',
  updated_at: '2026-11-22T00:00:00.000Z',
});

void it('names the campaign, group and variation as listed, and by id what has no name', () => {
  const report = exampleReport('sequential');
  const lines = reportTable([report], [listedCampaign(report, 'Everyone')]).split('\n');
  assert.match(lines[0] ?? '', /^Checkout button: sequential /);
  const start = lines.findIndex((l) => l.startsWith('campaign'));
  assert.deepEqual(
    lines.slice(start + 1, start + 6).map((line) => cells(line).slice(0, 3)),
    [
      ['Checkout button', 'Everyone', 'Original (ref)'],
      ['Checkout button', 'Everyone', 'Original (ref)'],
      ['Checkout button', 'Everyone', 'Green'],
      ['Checkout button', 'Everyone', 'Green'],
      // Variation v3 has no name.
      ['Checkout button', 'Everyone', 'v3'],
    ],
  );
  assert.match(lines.at(-1) ?? '', /^Checkout button, group Everyone: sample ratio ok/);

  // A group without a name, and a campaign the list leaves out (deleted: its report stays readable): ids.
  const unnamedGroup = reportTable([report], [listedCampaign(report, '')]).split('\n');
  assert.deepEqual(cells(unnamedGroup.find((l) => l.includes('Green')) ?? '').slice(0, 3), [
    'Checkout button',
    'vg1',
    'Green',
  ]);
  const deleted = reportTable([report], []).split('\n');
  assert.deepEqual(cells(deleted.find((l) => l.includes('Green')) ?? '').slice(0, 3), ['c1', 'vg1', 'Green']);
  assert.match(deleted[0] ?? '', /^c1: sequential /);
});

void it('says "points" in the interval header, as the console does, and signs the bounds', () => {
  const table = reportTable([exampleReport('fixed')]);
  const header = table.split('\n').find((l) => l.startsWith('campaign')) ?? '';
  assert.ok(cells(header).includes('interval of the difference (points)'), header);
  // The difference of rates in percentage points, not percent: 12.63 % against 10.00 %, its interval in points.
  assert.doesNotMatch(table, /\[-?\d/);
});

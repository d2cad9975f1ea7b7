// The terminal table of `feature-server report`: the analysis in force first, one row per variation and goal
// with the server's verdict (a variation without goals still listed), each group's sample-ratio line after;
// figures rounded for display only. The report is test/support/report-example.ts.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { reportTable } from '../../../server/src/cli/report-table.js';
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
  const lines = reportTable([exampleReport('fixed')]).split('\n');
  assert.match(
    lines[0] ?? '',
    /fixed horizon \(valid only when read once, at a sample size fixed in advance\)/,
  );
  const green = lines.find((l) => l.includes('Green') && l.includes('add_to_cart')) ?? '';
  assert.deepEqual(cells(green).slice(10, 12), ['0.0643', '[-0.16 %, 5.41 %]']);
});

void it('a mismatched split gets a line that says no verdict can be trusted, and what usually causes it', () => {
  const table = reportTable([exampleReport('sequential', true)]);
  assert.match(
    table,
    /c1 vg1: SAMPLE RATIO MISMATCH \(p 1\.00e-9\): visitors 1000 \/ 990, expected 995\.0 \/ 995\.0\. No verdict/,
  );
  assert.match(table, /sample ratio mismatch/);
});

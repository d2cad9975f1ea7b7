// The report's CSV download (issue 30): RFC 4180 (CRLF, quoting), one row per group × variation × goal with
// every figure unrounded, nulls empty, names from users guarded against spreadsheet formulas. The report is
// PROTOCOL.md §14.5's example body with §14.7-§14.8's figures (as test/server/cli/report-table.test.ts), a
// variation without goals, and a second group without a sample-ratio test whose names need quoting or guarding.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { CampaignReport } from '../../../src/protocol/index.js';
import {
  REPORT_CSV_COLUMNS,
  reportCsv,
  reportCsvFileName,
} from '../../../server/console/src/report/report-csv.js';
import { REFERENCE_FIGURES, exampleReport } from '../../support/report-example.js';

const reference = REFERENCE_FIGURES;

const base = exampleReport();
const example: CampaignReport = {
  ...base,
  variation_groups: [
    ...base.variation_groups,
    {
      id: 'vg2',
      srm: null,
      variations: [
        {
          id: 'w1',
          name: '=HYPERLINK("http://evil.example","click")',
          reference: true,
          visits: 3,
          visitors: 2,
          events: {
            '+cmd|calc': { conversions: 1, visitors: 1, rate: 0.5, ...reference },
            '-2 drop, "big"': { conversions: 0, visitors: 0, rate: 0, ...reference },
          },
          transactions: {},
        },
        {
          id: 'w2',
          name: 'two\r\nlines',
          reference: false,
          visits: 1,
          visitors: 1,
          events: {},
          transactions: {
            '@SUM(A1)': {
              conversions: 2,
              visitors: 1,
              rate: 1,
              revenue: -12.25,
              uplift: null,
              p_value: null,
              ci95: null,
              sequential: { p_value: null, interval: null, adjusted_p_value: null },
              verdict: 'not_enough_data',
            },
            '\tTab': {
              conversions: 0,
              visitors: 0,
              rate: 0,
              revenue: 0,
              uplift: null,
              p_value: null,
              ci95: null,
              sequential: { p_value: null, interval: null, adjusted_p_value: null },
              verdict: 'not_enough_data',
            },
          },
        },
      ],
    },
  ],
};

/** An independent RFC 4180 reader: records end with CRLF; quoted fields may hold anything, "" is a quote. */
const parse = (csv: string): string[][] => {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let i = 0;
  while (i < csv.length) {
    if (csv[i] === '"' && cell === '') {
      i += 1;
      for (;;) {
        const close = csv.indexOf('"', i);
        assert.ok(close >= 0, 'an unterminated quoted field');
        cell += csv.slice(i, close);
        i = close + 1;
        if (csv[i] !== '"') break;
        cell += '"';
        i += 1;
      }
      assert.ok([',', '\r'].includes(csv[i] ?? ''), `a quoted field ends at a separator (at ${i})`);
    } else if (csv[i] === ',') {
      record.push(cell);
      cell = '';
      i += 1;
    } else if (csv.startsWith('\r\n', i)) {
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
      i += 2;
    } else {
      assert.ok(!['"', '\r', '\n'].includes(csv[i] ?? ''), `a bare quote, CR or LF at ${i}`);
      cell += csv[i] ?? '';
      i += 1;
    }
  }
  assert.equal(cell + record.join(''), '', 'the last record ends with CRLF');
  return records;
};

const rows = (csv: string): Record<string, string>[] => {
  const [header, ...body] = parse(csv);
  return body.map((r) => {
    assert.equal(r.length, header?.length);
    return Object.fromEntries((header ?? []).map((name, i) => [name, r[i] ?? '']));
  });
};

/** A number cell read back, or null for an empty one. */
const num = (cell: string | undefined): number | null => (cell === '' ? null : Number(cell));

void it('starts with a header and gives one row per group × variation × goal, a goal-less variation once', () => {
  const csv = reportCsv(example);
  assert.ok(csv.startsWith(`${REPORT_CSV_COLUMNS.join(',')}\r\n`));
  assert.deepEqual(REPORT_CSV_COLUMNS, [
    'campaign_id',
    'generated_at',
    'method',
    'alpha',
    'expected_visitors',
    'primary_goal',
    'group_id',
    'group_name',
    'srm_p_value',
    'srm_mismatch',
    'variation_id',
    'variation_name',
    'reference',
    'visits',
    'visitors',
    'goal_type',
    'goal',
    'conversions',
    'converting_visitors',
    'rate',
    'revenue',
    'uplift',
    'p_value',
    'ci95_low',
    'ci95_high',
    'sequential_p_value',
    'sequential_low',
    'sequential_high',
    'adjusted_p_value',
    'verdict',
  ]);
  assert.ok(csv.endsWith('\r\n'));
  assert.doesNotMatch(csv, /[^\r]\n|\r(?!\n)/, 'every line ends with CRLF, a CR or an LF alone never');
  const body = rows(csv);
  // vg1: v1 × 2 goals, v2 × 2 goals, v3 without goals; vg2: w1 × 2 events, w2 × 2 transactions.
  assert.equal(body.length, 9);
  assert.deepEqual(
    body.map((r) => [r.group_id, r.variation_id, r.goal_type, r.goal]),
    [
      ['vg1', 'v1', 'event', 'add_to_cart'],
      ['vg1', 'v1', 'transaction', 'Purchase'],
      ['vg1', 'v2', 'event', 'add_to_cart'],
      ['vg1', 'v2', 'transaction', 'Purchase'],
      ['vg1', 'v3', '', ''],
      ['vg2', 'w1', 'event', "'+cmd|calc"],
      ['vg2', 'w1', 'event', `'-2 drop, "big"`],
      ['vg2', 'w2', 'transaction', "'@SUM(A1)"],
      ['vg2', 'w2', 'transaction', "'\tTab"],
    ],
  );
  const v3 = body[4] ?? {};
  for (const column of REPORT_CSV_COLUMNS.slice(REPORT_CSV_COLUMNS.indexOf('goal_type')))
    assert.equal(v3[column], '', `${column} is empty for a variation without goals`);
  assert.deepEqual([v3.variation_name, v3.reference, v3.visits, v3.visitors], ['', 'false', '0', '0']);
});

void it('quotes fields with commas, quotes, CR or LF (quotes doubled) and guards text cells against formulas', () => {
  const csv = reportCsv(example);
  assert.ok(csv.includes(`,"'=HYPERLINK(""http://evil.example"",""click"")",true,3,2,event,'+cmd|calc,`));
  assert.ok(csv.includes(`,"'-2 drop, ""big""",`));
  assert.ok(csv.includes(`,"two\r\nlines",false,1,1,transaction,'@SUM(A1),2,1,1,-12.25,`));
  assert.ok(csv.includes(`,transaction,'\tTab,`));
  const body = rows(csv);
  assert.equal(body[5]?.variation_name, `'=HYPERLINK("http://evil.example","click")`);
  assert.equal(body[7]?.variation_name, 'two\r\nlines', 'a name that starts with a letter is not guarded');
  // Numbers are figures, never guarded: a negative one stays a number.
  assert.equal(body[2]?.ci95_low, '-0.0015546919457432376');
  assert.equal(body[7].revenue, '-12.25');
});

void it('writes nulls as empty cells: the reference, revenue of events, a group without a sample-ratio test', () => {
  const body = rows(reportCsv(example));
  const v1 = body[0] ?? {};
  for (const column of [
    'revenue',
    'uplift',
    'p_value',
    'ci95_low',
    'ci95_high',
    'sequential_p_value',
    'sequential_low',
    'sequential_high',
    'adjusted_p_value',
  ])
    assert.equal(v1[column], '', column);
  assert.equal(v1.verdict, 'reference');
  assert.equal(body[1]?.revenue, '0', 'a transaction with no revenue has 0, not an empty cell');
  assert.equal(body[3]?.uplift, '', 'a null uplift');
  for (const r of body.slice(5))
    assert.deepEqual([r.srm_p_value, r.srm_mismatch, r.group_name], ['', '', '']);
  const noPrimary = rows(reportCsv({ ...example, analysis: { ...example.analysis, primary_goal: null } }));
  assert.equal(noPrimary[0]?.primary_goal, '');
});

void it('gives every figure back exactly when the CSV is parsed', () => {
  const labels: Record<string, string> = { vg1: 'Members, premium', vg2: '-Everyone' };
  const body = rows(reportCsv(example, (id) => labels[id] ?? id));
  let at = 0;
  for (const group of example.variation_groups)
    for (const variation of group.variations) {
      const goals = [
        ...Object.entries(variation.events).map(([name, f]) => ['event', name, f] as const),
        ...Object.entries(variation.transactions).map(([name, f]) => ['transaction', name, f] as const),
      ];
      for (const [type, name, f] of goals.length === 0 ? [[null, null, null] as const] : goals) {
        const r = body[at++] ?? assert.fail('a missing row');
        assert.deepEqual(
          {
            campaign: [r.campaign_id, r.generated_at, r.method, num(r.alpha), num(r.expected_visitors)],
            primary: r.primary_goal,
            group: [r.group_id, r.group_name, num(r.srm_p_value), r.srm_mismatch],
            variation: [r.variation_id, r.variation_name, r.reference, num(r.visits), num(r.visitors)],
            goal: [r.goal_type || null, r.goal || null],
          },
          {
            campaign: ['c1', '2026-11-22T00:00:00.000Z', 'sequential', 0.05, 5000],
            primary: 'event:add_to_cart',
            group: [
              group.id,
              `${group.id === 'vg2' ? "'" : ''}${labels[group.id] ?? ''}`,
              group.srm?.p_value ?? null,
              group.srm === null ? '' : String(group.srm.mismatch),
            ],
            variation: [
              variation.id,
              /^[=+\-@\t\r]/.test(variation.name) ? `'${variation.name}` : variation.name,
              String(variation.reference),
              variation.visits,
              variation.visitors,
            ],
            goal: [type, name === null ? null : /^[=+\-@\t\r]/.test(name) ? `'${name}` : name],
          },
        );
        assert.deepEqual(
          [
            num(r.conversions),
            num(r.converting_visitors),
            num(r.rate),
            num(r.revenue),
            num(r.uplift),
            num(r.p_value),
            num(r.ci95_low),
            num(r.ci95_high),
            num(r.sequential_p_value),
            num(r.sequential_low),
            num(r.sequential_high),
            num(r.adjusted_p_value),
            r.verdict || null,
          ],
          f === null
            ? Array(13).fill(null)
            : [
                f.conversions,
                f.visitors,
                f.rate,
                'revenue' in f ? f.revenue : null,
                f.uplift,
                f.p_value,
                f.ci95?.[0] ?? null,
                f.ci95?.[1] ?? null,
                f.sequential.p_value,
                f.sequential.interval?.[0] ?? null,
                f.sequential.interval?.[1] ?? null,
                f.sequential.adjusted_p_value,
                f.verdict,
              ],
          `${group.id} ${variation.id} ${type ?? '(no goal)'} ${name ?? ''}`,
        );
      }
    }
  assert.equal(at, body.length);
});

void it('names the file after the campaign and the day the report was generated', () => {
  assert.equal(reportCsvFileName(example), 'report-c1-2026-11-22.csv');
  assert.equal(
    reportCsvFileName({ ...example, campaign_id: 'a/b c', generated_at: '2026-01-02T23:59:59Z' }),
    'report-a_b_c-2026-01-02.csv',
  );
});

// The readable form of a campaign report for the terminal (`feature-server report` without --json): the
// analysis in force, one row per variation and goal with the server's verdict, and each group's sample-ratio
// line; numbers rounded for display only. The p-value and interval shown are the ones the verdict is drawn
// from: the always-valid (sequential, Holm-adjusted) figures unless the campaign's method is `fixed`.
import type { CampaignReport, GoalFigures, SampleRatio } from 'feature-ts/protocol';

const pct = (n: number | null): string => (n === null ? '-' : `${(n * 100).toFixed(2)} %`);
const p = (n: number | null): string => (n === null ? '-' : n < 0.0001 ? n.toExponential(2) : n.toFixed(4));
const interval = (c: [number, number] | null): string => (c === null ? '-' : `[${pct(c[0])}, ${pct(c[1])}]`);

/** The line that says how the verdicts were drawn. */
const analysisLine = (report: CampaignReport): string => {
  const { primary_goal: goal, method, alpha, expected_visitors: expected } = report.analysis;
  const how =
    method === 'sequential'
      ? `sequential (valid however often you look), alpha ${alpha}, tuned for ${expected} visitors`
      : `fixed horizon (valid only when read once, at a sample size fixed in advance), alpha ${alpha}`;
  const primary =
    goal === null
      ? 'no primary goal: every goal is exploratory (set one with campaign update --primary-goal)'
      : `primary goal ${goal.type}:${goal.name}, other goals exploratory`;
  return `${report.campaign_id}: ${how}; ${primary}`;
};

/** A group's sample-ratio line. */
const srmLine = (campaign: string, group: string, srm: SampleRatio | null): string => {
  if (srm === null)
    return `${campaign} ${group}: sample ratio not tested (under 2 allocated variations or 100 visitors)`;
  const observed = srm.observed.join(' / ');
  const expected = srm.expected.map((e) => e.toFixed(1)).join(' / ');
  return srm.mismatch
    ? `${campaign} ${group}: SAMPLE RATIO MISMATCH (p ${p(srm.p_value)}): visitors ${observed}, expected ${expected}. No verdict of this group can be trusted: look for redirects, bots or caching that lose visitors in one variation.`
    : `${campaign} ${group}: sample ratio ok (p ${p(srm.p_value)}): visitors ${observed}, expected ${expected}`;
};

/** Renders reports as a text table, with the analysis line before it and the sample-ratio lines after. */
export const reportTable = (reports: readonly CampaignReport[]): string => {
  const rows: string[][] = [
    [
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
    ],
  ];
  const after: string[] = [];
  for (const report of reports) {
    const sequential = report.analysis.method === 'sequential';
    for (const group of report.variation_groups) {
      after.push(srmLine(report.campaign_id, group.id, group.srm));
      for (const v of group.variations) {
        const name = `${v.name || v.id}${v.reference ? ' (ref)' : ''}`;
        const goals: Array<[string, GoalFigures, string]> = [
          ...Object.entries(v.events).map(([goal, f]): [string, GoalFigures, string] => [goal, f, '']),
          ...Object.entries(v.transactions).map(([goal, f]): [string, GoalFigures, string] => [
            `${goal} (tx)`,
            f,
            f.revenue.toFixed(2),
          ]),
        ];
        const variation = [report.campaign_id, group.id, name, String(v.visits), String(v.visitors)];
        if (goals.length === 0) rows.push([...variation, '-', '', '', '', '', '', '', '', '']);
        for (const [goal, f, revenue] of goals) {
          rows.push([
            ...variation,
            goal,
            String(f.conversions),
            String(f.visitors),
            pct(f.rate),
            pct(f.uplift),
            p(sequential ? f.sequential.adjusted_p_value : f.p_value),
            interval(sequential ? f.sequential.interval : f.ci95),
            f.verdict.replaceAll('_', ' '),
            revenue,
          ]);
        }
      }
    }
  }
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  const table = rows.map((r) =>
    r
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd(),
  );
  return [...reports.map(analysisLine), '', ...table, '', ...after].join('\n');
};

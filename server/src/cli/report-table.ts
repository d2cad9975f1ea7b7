// The readable form of a campaign report for the terminal (`feature-server report` without --json): one row
// per variation and goal, numbers rounded for display only.
import type { CampaignReport, GoalFigures } from 'feature-ts/protocol';

const pct = (n: number | null): string => (n === null ? '-' : `${(n * 100).toFixed(2)} %`);
const p = (n: number | null): string => (n === null ? '-' : n < 0.0001 ? n.toExponential(2) : n.toFixed(4));
const ci = (c: [number, number] | null): string => (c === null ? '-' : `[${pct(c[0])}, ${pct(c[1])}]`);

/** Renders reports as a text table. */
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
      'CI95 (diff)',
      'revenue',
    ],
  ];
  for (const report of reports) {
    for (const group of report.variation_groups) {
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
        if (goals.length === 0) rows.push([...variation, '-', '', '', '', '', '', '', '']);
        for (const [goal, f, revenue] of goals) {
          rows.push([
            ...variation,
            goal,
            String(f.conversions),
            String(f.visitors),
            pct(f.rate),
            pct(f.uplift),
            p(f.p_value),
            ci(f.ci95),
            revenue,
          ]);
        }
      }
    }
  }
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
};

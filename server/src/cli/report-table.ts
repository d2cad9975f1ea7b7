// The readable form of a campaign report for the terminal (`feature-server report` without --json): the
// analysis in force, one row per variation and goal with the server's verdict, and each group's sample-ratio
// line; numbers rounded for display only. The p-value and interval shown are the ones the verdict is drawn
// from: the always-valid (sequential, Holm-adjusted) figures unless the campaign's method is `fixed`.
// Campaigns, groups and variations are named as the console names them: by name, by id where they have none
// (a group or variation named "", a deleted campaign, which campaign lists leave out).
import type { CampaignReport, GoalFigures, RemoteCampaign, SampleRatio } from 'feature-ts/protocol';

const pct = (n: number | null): string => (n === null ? '-' : `${(n * 100).toFixed(2)} %`);
const p = (n: number | null): string => (n === null ? '-' : n < 0.0001 ? n.toExponential(2) : n.toFixed(4));
/** A difference of rates in percentage points, signed as the console signs it: 0.0177 → "+1.77", 0 → "0.00". */
const points = (n: number): string => {
  const text = Math.abs(n * 100).toFixed(2);
  return `${Number(text) === 0 ? '' : n < 0 ? '-' : '+'}${text}`;
};
/** An interval of the difference, in points as its header says (the console's form): "-1.81 to +7.06". */
const interval = (c: [number, number] | null): string =>
  c === null ? '-' : `${points(c[0])} to ${points(c[1])}`;

/** The interval column's header: the console's words for it. */
export const INTERVAL_HEADER = 'interval of the difference (points)';

/** A name, or the id where there is none. */
const label = (name: string | undefined, id: string): string =>
  name === undefined || name === '' ? id : name;

/** How the table names a report's campaign and groups, from the campaigns as listed. */
interface Labels {
  campaign(report: CampaignReport): string;
  group(report: CampaignReport, groupId: string): string;
}

const labelsOf = (campaigns: readonly RemoteCampaign[]): Labels => {
  const byId = new Map(campaigns.map((campaign) => [campaign.id, campaign]));
  return {
    campaign: (report) => label(byId.get(report.campaign_id)?.name, report.campaign_id),
    group: (report, groupId) =>
      label(
        byId.get(report.campaign_id)?.variation_groups.find((group) => group.id === groupId)?.name,
        groupId,
      ),
  };
};

/** The line that says how the verdicts were drawn. */
const analysisLine = (report: CampaignReport, campaign: string): string => {
  const { primary_goal: goal, method, alpha, expected_visitors: expected } = report.analysis;
  const how =
    method === 'sequential'
      ? `sequential (valid however often you look), alpha ${alpha}, tuned for ${expected} visitors`
      : `fixed horizon (valid only when read once, at a sample size fixed in advance), alpha ${alpha}`;
  const primary =
    goal === null
      ? 'no primary goal: every goal is exploratory (set one with campaign update --primary-goal)'
      : `primary goal ${goal.type}:${goal.name}, other goals exploratory`;
  return `${campaign}: ${how}; ${primary}`;
};

/** A group's sample-ratio line. */
const srmLine = (campaign: string, group: string, srm: SampleRatio | null): string => {
  const which = `${campaign}, group ${group}`;
  if (srm === null) return `${which}: sample ratio not tested (under 2 allocated variations or 100 visitors)`;
  const observed = srm.observed.join(' / ');
  const expected = srm.expected.map((e) => e.toFixed(1)).join(' / ');
  return srm.mismatch
    ? `${which}: SAMPLE RATIO MISMATCH (p ${p(srm.p_value)}): visitors ${observed}, expected ${expected}. No verdict of this group can be trusted: look for redirects, bots or caching that lose visitors in one variation.`
    : `${which}: sample ratio ok (p ${p(srm.p_value)}): visitors ${observed}, expected ${expected}`;
};

/**
 * Renders reports as a text table, with the analysis line before it and the sample-ratio lines after;
 * `campaigns` (the environment's, as listed) give the campaigns' and groups' names.
 */
export const reportTable = (
  reports: readonly CampaignReport[],
  campaigns: readonly RemoteCampaign[] = [],
): string => {
  const labels = labelsOf(campaigns);
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
      INTERVAL_HEADER,
      'verdict',
      'revenue',
    ],
  ];
  const after: string[] = [];
  for (const report of reports) {
    const sequential = report.analysis.method === 'sequential';
    const campaign = labels.campaign(report);
    for (const group of report.variation_groups) {
      const groupName = labels.group(report, group.id);
      after.push(srmLine(campaign, groupName, group.srm));
      for (const v of group.variations) {
        const name = `${label(v.name, v.id)}${v.reference ? ' (ref)' : ''}`;
        const goals: Array<[string, GoalFigures, string]> = [
          ...Object.entries(v.events).map(([goal, f]): [string, GoalFigures, string] => [goal, f, '']),
          ...Object.entries(v.transactions).map(([goal, f]): [string, GoalFigures, string] => [
            `${goal} (tx)`,
            f,
            f.revenue.toFixed(2),
          ]),
        ];
        const variation = [campaign, groupName, name, String(v.visits), String(v.visitors)];
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
  return [...reports.map((r) => analysisLine(r, labels.campaign(r))), '', ...table, '', ...after].join('\n');
};

// A campaign report as CSV (issue 30): one row per variation group × variation × goal (events, then
// transactions) with every figure of PROTOCOL.md §14.5-§14.8, numbers unrounded as the API gives them
// (`String(n)`, so parsing a cell back gives the same number), nulls as empty cells. A variation without goals
// still gets one row, its goal columns empty. RFC 4180: CRLF line ends; a field that holds a comma, a quote, a
// CR or an LF is quoted, its quotes doubled. Names come from users, so a text cell that a spreadsheet would read
// as a formula (starting with =, +, -, @, a tab or a CR) gets a leading apostrophe; numbers never do.
// Plain TypeScript without lit, so Node tests import it as it is.
import type { GoalFigures, TransactionGoalFigures } from 'feature-ts/protocol';
import type { CampaignReport, VariationReport } from '../types.js';

/** The columns, in order. */
export const REPORT_CSV_COLUMNS = [
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
] as const;

type Column = (typeof REPORT_CSV_COLUMNS)[number];
type Cell = string | number | boolean | null;

/** A cell's text: numbers as `String(n)`, booleans as true/false, null as empty; text guarded against formulas. */
const text = (value: Cell): string => {
  if (value === null) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
};

/** A field as RFC 4180 writes it: quoted (quotes doubled) when it holds a comma, a quote, a CR or an LF. */
const field = (value: Cell): string => {
  const cell = text(value);
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
};

const line = (row: Partial<Record<Column, Cell>>): string =>
  REPORT_CSV_COLUMNS.map((column) => field(row[column] ?? null)).join(',');

const goalCells = (
  type: 'event' | 'transaction',
  name: string,
  figures: GoalFigures | TransactionGoalFigures,
): Partial<Record<Column, Cell>> => ({
  goal_type: type,
  goal: name,
  conversions: figures.conversions,
  converting_visitors: figures.visitors,
  rate: figures.rate,
  revenue: 'revenue' in figures ? figures.revenue : null,
  uplift: figures.uplift,
  p_value: figures.p_value,
  ci95_low: figures.ci95?.[0] ?? null,
  ci95_high: figures.ci95?.[1] ?? null,
  sequential_p_value: figures.sequential.p_value,
  sequential_low: figures.sequential.interval?.[0] ?? null,
  sequential_high: figures.sequential.interval?.[1] ?? null,
  adjusted_p_value: figures.sequential.adjusted_p_value,
  verdict: figures.verdict,
});

const goalRows = (variation: VariationReport): Partial<Record<Column, Cell>>[] => {
  const rows = [
    ...Object.entries(variation.events).map(([name, figures]) => goalCells('event', name, figures)),
    ...Object.entries(variation.transactions).map(([name, figures]) =>
      goalCells('transaction', name, figures),
    ),
  ];
  return rows.length === 0 ? [{}] : rows;
};

/**
 * The report as RFC 4180 CSV: a header row, then one row per variation group × variation × goal.
 * @param groupLabel - a group's display name for the `group_name` column (empty cells without it).
 */
export const reportCsv = (report: CampaignReport, groupLabel?: (groupId: string) => string): string => {
  const { analysis } = report;
  const primary = analysis.primary_goal;
  const campaign: Partial<Record<Column, Cell>> = {
    campaign_id: report.campaign_id,
    generated_at: report.generated_at,
    method: analysis.method,
    alpha: analysis.alpha,
    expected_visitors: analysis.expected_visitors,
    primary_goal: primary === null ? null : `${primary.type}:${primary.name}`,
  };
  const lines = [REPORT_CSV_COLUMNS.join(',')];
  for (const group of report.variation_groups) {
    const groupCells: Partial<Record<Column, Cell>> = {
      group_id: group.id,
      group_name: groupLabel?.(group.id) ?? null,
      srm_p_value: group.srm?.p_value ?? null,
      srm_mismatch: group.srm?.mismatch ?? null,
    };
    for (const variation of group.variations) {
      const variationCells: Partial<Record<Column, Cell>> = {
        variation_id: variation.id,
        variation_name: variation.name,
        reference: variation.reference,
        visits: variation.visits,
        visitors: variation.visitors,
      };
      for (const goal of goalRows(variation))
        lines.push(line({ ...campaign, ...groupCells, ...variationCells, ...goal }));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
};

/** The download's file name: `report-<campaign>-<YYYY-MM-DD>.csv`, the date the report was generated. */
export const reportCsvFileName = (report: CampaignReport): string => {
  const date = /^\d{4}-\d{2}-\d{2}/.exec(report.generated_at)?.[0] ?? new Date().toISOString().slice(0, 10);
  const campaign = report.campaign_id.replace(/[^A-Za-z0-9._-]+/g, '_');
  return `report-${campaign}-${date}.csv`;
};

// Pure helpers of the report screen: which goals a report has, the figures of one goal, number formats, and the
// plain-language wording of the verdict the server decided (§14.8; the console decides none itself). The
// statistics come from the server (docs/report-statistics.md): `uplift` is relative (p₂/p₁ − 1), intervals are
// of the ABSOLUTE difference p₂ − p₁ (0.01 = one percentage point); the sequential ones stay valid however often
// the report is read, the fixed-horizon `ci95` and `p_value` only when read once. The wording keeps them apart.
import type { AnalysisSettings, GoalFigures } from 'feature-ts/protocol';
import type { CampaignReport, VariationReport } from '../types.js';

/** A goal of the report: an event action or a transaction affiliation (kept apart, as the server does). */
export interface GoalKey {
  kind: 'event' | 'transaction';
  name: string;
}

/** One variation group of a report. */
export type ReportGroup = CampaignReport['variation_groups'][number];

/** The `<select>` value of a goal. */
export const goalValue = (goal: GoalKey): string => `${goal.kind}:${goal.name}`;

/** The goal of a `<select>` value, or null for an unknown one. */
export const parseGoal = (value: string): GoalKey | null => {
  const at = value.indexOf(':');
  const kind = value.slice(0, at);
  if (kind !== 'event' && kind !== 'transaction') return null;
  return { kind, name: value.slice(at + 1) };
};

/** Every goal found in the report: events first, then transactions, each sorted by name. */
export const reportGoals = (report: CampaignReport): GoalKey[] => {
  const events = new Set<string>();
  const transactions = new Set<string>();
  for (const group of report.variation_groups)
    for (const variation of group.variations) {
      for (const name of Object.keys(variation.events)) events.add(name);
      for (const name of Object.keys(variation.transactions)) transactions.add(name);
    }
  const sorted = (names: Set<string>) => [...names].sort((a, b) => a.localeCompare(b));
  return [
    ...sorted(events).map((name): GoalKey => ({ kind: 'event', name })),
    ...sorted(transactions).map((name): GoalKey => ({ kind: 'transaction', name })),
  ];
};

/** A goal's figures for a variation, with revenue for transactions (null: the goal is absent there). */
export const goalFigures = (
  variation: VariationReport,
  goal: GoalKey,
): (GoalFigures & { revenue: number | null }) | null => {
  if (goal.kind === 'event') {
    const figures = variation.events[goal.name];
    return figures === undefined ? null : { ...figures, revenue: null };
  }
  return variation.transactions[goal.name] ?? null;
};

/** A variation's name for people: its name, else its id (a variation known only from stored exposures). */
export const variationLabel = (variation: { id: string; name: string }): string =>
  variation.name === '' ? variation.id : variation.name;

const MINUS = '\u2212';
const NBSP = '\u00a0';

/** A rate as a percentage: 0.1234 → "12.3 %". */
export const percent = (value: number, digits = 1): string =>
  `${(value * 100).toFixed(digits).replace('-', MINUS)}${NBSP}%`;

/** A signed relative change: 0.25 → "+25 %", −0.1 → "−10 %". */
export const signedPercent = (value: number, digits = 0): string => {
  const text = Math.abs(value * 100).toFixed(digits);
  const sign = Number(text) === 0 ? '' : value < 0 ? MINUS : '+';
  return `${sign}${text}${NBSP}%`;
};

/** A signed difference of rates in percentage points: 0.0177 → "+1.8 points". */
export const signedPoints = (value: number, digits = 1): string => {
  const text = Math.abs(value * 100).toFixed(digits);
  const sign = Number(text) === 0 ? '' : value < 0 ? MINUS : '+';
  return `${sign}${text}`;
};

/** The 95 % interval of the difference in points: "−0.4 to +16.3 points". */
export const intervalPoints = (ci: readonly [number, number]): string =>
  `${signedPoints(ci[0])} to ${signedPoints(ci[1])} points`;

/** The 95 % interval of the difference for a table whose header says "points": "−0.4 to +16.3". */
export const intervalCell = (ci: readonly [number, number]): string =>
  `${signedPoints(ci[0])} to ${signedPoints(ci[1])}`;

/** A p-value as the verdicts show it: two significant digits, "< 0.001" below. */
export const pValueText = (p: number): string => (p < 0.001 ? '< 0.001' : `= ${Number(p.toPrecision(2))}`);

/** A p-value for the table: four decimals, as the CLI prints it. */
export const pValueCell = (p: number): string => (p < 0.0001 ? '< 0.0001' : p.toFixed(4));

/** "1 visitor", "2 visitors". */
const visitorCount = (n: number): string => `${n} visitor${n === 1 ? '' : 's'}`;

/** What a verdict concludes, for styling and tests: the server's verdict (§14.8), in the console's words. */
export type VerdictKind =
  'no-reference' | 'not-enough' | 'better' | 'worse' | 'inconclusive' | 'exploratory' | 'mismatch';

/** A verdict: its kind and its sentence. */
export interface Verdict {
  kind: VerdictKind;
  text: string;
}

/** How the report's verdicts were drawn, in one sentence a visitor of the console can act on. */
export const methodSentence = (analysis: AnalysisSettings): string =>
  analysis.method === 'sequential'
    ? `Sequential test at ${percent(analysis.alpha, 1)} risk: you may look as often as you like, the verdict stays valid. It needs more visitors than a test read once, and says so by staying undecided.`
    : `Fixed-horizon test at ${percent(analysis.alpha, 1)} risk: valid only when read once, at the sample size decided before starting. Looking early and stopping at the first "better" makes false winners likely.`;

/**
 * The verdict for `variation` on one goal, worded from the server's (§14.8): the console, the CLI and the
 * remote control API say the same thing. The interval shown is the one the verdict is drawn from.
 */
export const verdict = (
  variation: VariationReport,
  reference: VariationReport | null,
  goal: GoalKey,
  analysis: AnalysisSettings,
): Verdict => {
  const name = variationLabel(variation);
  if (reference === null)
    return { kind: 'no-reference', text: `${name}: this group has no reference variation to compare with.` };
  const refName = variationLabel(reference);
  const mine = goalFigures(variation, goal);
  const theirs = goalFigures(reference, goal);
  if (mine === null || theirs === null)
    return { kind: 'not-enough', text: `${name}: no figures for this goal yet. Keep the test running.` };
  const sequential = analysis.method === 'sequential';
  const interval = sequential ? mine.sequential.interval : mine.ci95;
  const p = sequential ? mine.sequential.adjusted_p_value : mine.p_value;
  const rates =
    interval === null
      ? `${percent(mine.rate)} against ${percent(theirs.rate)}`
      : `${percent(mine.rate)} against ${percent(theirs.rate)}: ${signedPoints(mine.rate - theirs.rate)} points, ${sequential ? 'always-valid' : '95' + NBSP + '%'} interval of the difference ${intervalPoints(interval)}`;
  const pText = p === null ? '' : `, p ${pValueText(p)}`;
  switch (mine.verdict) {
    case 'reference':
      return { kind: 'no-reference', text: `${name} is the reference.` };
    case 'exploratory':
      return {
        kind: 'exploratory',
        text: `${name}: ${rates}${pText}. Exploratory: this is not the campaign's primary goal, so no verdict is drawn from it.`,
      };
    case 'sample_ratio_mismatch':
      return {
        kind: 'mismatch',
        text: `${name}: no verdict while the split is broken (see the warning above).`,
      };
    case 'not_enough_data':
      return {
        kind: 'not-enough',
        text: `${name}: not enough data yet (${name}: ${visitorCount(variation.visitors)}, ${mine.visitors} converted; ${refName}: ${visitorCount(reference.visitors)}, ${theirs.visitors} converted). A verdict needs 100 visitors on each side, of whom 10 converted and 10 did not. Keep the test running.`,
      };
    case 'better':
    case 'worse':
      return {
        kind: mine.verdict,
        text: `${name} converts ${mine.verdict} than ${refName} (${rates}${pText}).`,
      };
    default:
      return {
        kind: 'inconclusive',
        text: `${name}: no difference shown yet (${rates}${pText}). Keep the test running.`,
      };
  }
};

/** The reference variation of a group, if any. */
export const referenceOf = (group: ReportGroup): VariationReport | null =>
  group.variations.find((variation) => variation.reference) ?? null;

/** Total visits of a report (0: nothing has arrived yet). */
export const totalVisits = (report: CampaignReport): number =>
  report.variation_groups.reduce(
    (sum, group) => sum + group.variations.reduce((inner, variation) => inner + variation.visits, 0),
    0,
  );

/** The report's figures without its generation time, to tell whether a refresh changed anything. */
export const reportFingerprint = (report: CampaignReport): string => JSON.stringify(report.variation_groups);

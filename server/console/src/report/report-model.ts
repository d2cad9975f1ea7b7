// Pure helpers of the report screen: which goals a report has, the figures of one goal, number formats, and the
// plain-language verdict per variation. The statistics themselves come from the server (docs/report-statistics.md):
// `uplift` is relative (p₂/p₁ − 1), `ci95` is the Wald 95 % interval of the ABSOLUTE difference p₂ − p₁ (0.01 =
// one percentage point), and `p_value` is the pooled two-sided z-test. The wording keeps the two apart.
import type { GoalFigures } from 'feature-ts/protocol';
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

/** The threshold of "significant": a two-sided test at the 5 % level. */
export const SIGNIFICANCE = 0.05;
/** Fewer visitors than this in either variation: not enough data yet. */
export const MIN_VISITORS = 30;
/**
 * Fewer converting (or non-converting) visitors than this in either variation: not enough data yet. The test and
 * the interval rest on a normal approximation that, as a rule of thumb, needs 10 of each (report-statistics.md).
 */
export const MIN_CONVERSIONS = 10;

/** The plain-language hint that explains the minimum above. */
/** "1 visitor", "2 visitors". */
const visitorCount = (n: number): string => `${n} visitor${n === 1 ? '' : 's'}`;

export const MINIMUM_HINT = `A comparison is shown once both the variation and the reference have at least ${MIN_VISITORS} visitors, of whom at least ${MIN_CONVERSIONS} converted and ${MIN_CONVERSIONS} did not: below that, the p-value and interval (a normal approximation) are not reliable.`;

/** What a verdict concludes, for styling and tests. */
export type VerdictKind = 'no-reference' | 'not-enough' | 'better' | 'worse' | 'inconclusive';

/** A verdict: its kind and its sentence. */
export interface Verdict {
  kind: VerdictKind;
  text: string;
}

const enough = (visitors: number, converting: number): boolean =>
  visitors >= MIN_VISITORS && converting >= MIN_CONVERSIONS && visitors - converting >= MIN_CONVERSIONS;

/** The verdict for `variation` against `reference` on one goal (both from the same group). */
export const verdict = (
  variation: VariationReport,
  reference: VariationReport | null,
  goal: GoalKey,
): Verdict => {
  const name = variationLabel(variation);
  if (reference === null)
    return { kind: 'no-reference', text: `${name}: this group has no reference variation to compare with.` };
  const refName = variationLabel(reference);
  const mine = goalFigures(variation, goal);
  const theirs = goalFigures(reference, goal);
  const converting = mine?.visitors ?? 0;
  const refConverting = theirs?.visitors ?? 0;
  if (
    mine === null ||
    theirs === null ||
    mine.uplift === null ||
    mine.p_value === null ||
    mine.ci95 === null ||
    !enough(variation.visitors, converting) ||
    !enough(reference.visitors, refConverting)
  )
    return {
      kind: 'not-enough',
      text: `${name}: not enough data yet (${name}: ${visitorCount(variation.visitors)}, ${converting} converted; ${refName}: ${visitorCount(reference.visitors)}, ${refConverting} converted). Keep the test running.`,
    };
  const rates = `${percent(mine.rate)} against ${percent(theirs.rate)}: ${signedPoints(mine.rate - theirs.rate)} points, 95${NBSP}% interval of the difference ${intervalPoints(mine.ci95)}`;
  const size = Math.abs(mine.uplift);
  const direction = mine.uplift > 0 ? 'better' : 'worse';
  // Small changes keep a decimal, so "0 %" is only said of a change that is really nil.
  const shown = signedPercent(size, size < 0.1 ? 1 : 0).replace('+', '');
  const change =
    shown === `0.0${NBSP}%`
      ? `${name} converts as well as ${refName}`
      : `${name} converts ${shown} ${direction} than ${refName}`;
  const p = `p ${pValueText(mine.p_value)}`;
  // The p-value (pooled error) and the interval (unpooled error) can disagree near the threshold: say so.
  const intervalExcludesZero = mine.ci95[0] > 0 || mine.ci95[1] < 0;
  const significant = mine.p_value < SIGNIFICANCE;
  const borderline =
    significant === intervalExcludesZero
      ? ''
      : ' Borderline: the p-value and the interval disagree, so treat it as not settled yet.';
  if (significant && mine.uplift !== 0)
    return {
      kind: mine.uplift > 0 ? 'better' : 'worse',
      text: `${change} (${rates}), significantly ${direction} (${p}).${borderline}`,
    };
  return {
    kind: 'inconclusive',
    text: `${change} (${rates}), not yet significant (${p}): keep the test running.${borderline}`,
  };
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

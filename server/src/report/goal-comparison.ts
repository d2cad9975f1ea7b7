// One variation group's comparisons on one goal (PROTOCOL.md §14.5, §14.7, §14.8), from counts alone: the
// report builds its figures with it, and the A/A and A/B simulations read verdicts through it, so what is
// tested under repeated looks is exactly what the report says.
import type { AnalysisSettings, SequentialFigures, Verdict } from 'feature-ts/protocol';
import { holmAdjusted } from './holm.js';
import { sequentialComparison } from './sequential.js';
import { twoProportionPValue, uplift, waldInterval95, type Proportion } from './statistics.js';
import { verdictOf } from './verdict.js';

/** What one variation's side of a goal compares to the reference: every figure but the counts. */
export interface GoalComparison {
  uplift: number | null;
  p_value: number | null;
  ci95: [number, number] | null;
  sequential: SequentialFigures;
  verdict: Verdict;
}

const NO_SEQUENTIAL: SequentialFigures = { p_value: null, interval: null, adjusted_p_value: null };

/**
 * The comparisons of a group's variations on one goal: `sides[i]` is variation i's converting visitors out of
 * its visitors, `reference` the reference's index (or -1 when the group has none). Holm's adjustment runs over
 * the group's non-reference variations.
 */
export const compareGoal = (
  sides: readonly Proportion[],
  reference: number,
  settings: AnalysisSettings,
  primary: boolean,
  sampleRatioMismatch: boolean,
): GoalComparison[] => {
  const referenceSide = sides[reference] ?? { successes: 0, trials: 0 };
  const compared = sides.map((_, i) => reference >= 0 && i !== reference);
  const sequential = sides.map((side, i) =>
    compared[i]
      ? sequentialComparison(referenceSide, side, settings.alpha, settings.expected_visitors)
      : { pValue: null, interval: null },
  );
  const adjusted = holmAdjusted(sequential.map((s) => s.pValue));
  const referenceRate = referenceSide.trials === 0 ? 0 : referenceSide.successes / referenceSide.trials;
  return sides.map((side, i): GoalComparison => {
    const isCompared = compared[i] === true;
    const fixedPValue = isCompared ? twoProportionPValue(referenceSide, side) : null;
    const adjustedSequentialPValue = isCompared ? (adjusted[i] ?? null) : null;
    const verdict = verdictOf({
      reference: i === reference,
      primary,
      sampleRatioMismatch,
      referenceSide,
      variationSide: side,
      fixedPValue,
      adjustedSequentialPValue,
      settings,
    });
    if (!isCompared) return { uplift: null, p_value: null, ci95: null, sequential: NO_SEQUENTIAL, verdict };
    const rate = side.trials === 0 ? 0 : side.successes / side.trials;
    return {
      uplift: uplift(rate, referenceRate),
      p_value: fixedPValue,
      ci95: waldInterval95(referenceSide, side),
      sequential: {
        p_value: sequential[i]?.pValue ?? null,
        interval: sequential[i]?.interval ?? null,
        adjusted_p_value: adjustedSequentialPValue,
      },
      verdict,
    };
  });
};

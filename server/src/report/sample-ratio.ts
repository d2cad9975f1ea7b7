// The sample-ratio test of PROTOCOL.md §14.8: Pearson's chi-square goodness of fit of the visitors each
// variation got against the split its allocations promise. A mismatch (a redirect that loses visitors in one
// arm, a bot, a cache that serves one variation) is the commonest way a real test goes wrong, and no verdict
// drawn from such a split can be trusted.
import type { SampleRatio } from 'feature-ts/protocol';
import { erfc } from './erfc.js';

/** Below this p-value the split is a mismatch (GrowthBook's threshold: at 0.05 half the alarms are false). */
export const SRM_THRESHOLD = 0.001;

/** Fewer visitors than this in a group: no test. */
export const SRM_MIN_VISITORS = 100;

/**
 * P(χ² ≥ x) with `df` degrees of freedom (a positive integer): the regularized upper incomplete gamma
 * Q(df/2, x/2), from its closed forms. For an integer a = df/2, Q(a, y) = e^−y Σ_{i<a} yⁱ/i!; for a half
 * integer, Q(1/2, y) = erfc(√y) and Q(a + 1, y) = Q(a, y) + yᵃ e^−y / Γ(a + 1). Every term is positive, so
 * the sums lose no precision to cancellation (a few ulps per term).
 */
export const chiSquareSurvival = (x: number, df: number): number => {
  if (!Number.isInteger(df) || df < 1)
    throw new RangeError(`degrees of freedom must be a positive integer, not ${df}`);
  if (!(x > 0)) return 1;
  const y = x / 2;
  if (df % 2 === 0) {
    // Σ_{i<a} yⁱ/i!, each term from the last.
    let term = 1;
    let sum = 1;
    for (let i = 1; i < df / 2; i++) {
      term *= y / i;
      sum += term;
    }
    return Math.min(1, Math.exp(-y) * sum);
  }
  // a = 1/2 first, then up by one: the added term yᵃ e^−y / Γ(a + 1), from a = 1/2 (√y e^−y / Γ(3/2)).
  let q = erfc(Math.sqrt(y));
  let term = (Math.sqrt(y) * Math.exp(-y)) / (Math.sqrt(Math.PI) / 2);
  for (let a = 0.5; a < df / 2; a++) {
    q += term;
    // yᵃ⁺¹ e^−y / Γ(a + 2) = (yᵃ e^−y / Γ(a + 1)) · y / (a + 1).
    term *= y / (a + 1);
  }
  return Math.min(1, q);
};

/**
 * The group's sample-ratio test: `visitors` and `allocations` per variation, in the same order. Variations
 * with allocation 0 are left out. Null below 2 allocated variations or {@link SRM_MIN_VISITORS} visitors.
 */
export const sampleRatio = (
  visitors: readonly number[],
  allocations: readonly number[],
): SampleRatio | null => {
  const kept = allocations.flatMap((allocation, i) => (allocation > 0 ? [i] : []));
  const observed = kept.map((i) => visitors[i] ?? 0);
  const total = observed.reduce((a, b) => a + b, 0);
  if (kept.length < 2 || total < SRM_MIN_VISITORS) return null;
  const weights = kept.map((i) => allocations[i] ?? 0);
  const sum = weights.reduce((a, b) => a + b, 0);
  const expected = weights.map((w) => (total * w) / sum);
  const chi2 = observed.reduce((acc, o, j) => {
    const e = expected[j] ?? 0;
    return acc + ((o - e) * (o - e)) / e;
  }, 0);
  const pValue = chiSquareSurvival(chi2, kept.length - 1);
  return { p_value: pValue, mismatch: pValue < SRM_THRESHOLD, expected, observed };
};

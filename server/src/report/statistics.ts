// The figures of PROTOCOL.md §14.5 that compare a variation with the reference: uplift, the two-sided
// two-proportion z-test with the pooled standard error, and the Wald 95 % interval of the rate difference
// with unpooled standard errors.
import { erfc } from './erfc.js';

/** Φ⁻¹(0.975), as §14.5 fixes it. */
export const Z_975 = 1.959963984540054;

/** One side of a comparison: converting visitors out of visitors. */
export interface Proportion {
  successes: number;
  trials: number;
}

/** rate / reference rate − 1, or null when the reference rate is 0. */
export const uplift = (rate: number, referenceRate: number): number | null =>
  referenceRate === 0 ? null : rate / referenceRate - 1;

/** Two-sided p-value of the pooled two-proportion z-test; null without visitors or with a zero SE. */
export const twoProportionPValue = (reference: Proportion, variation: Proportion): number | null => {
  if (reference.trials === 0 || variation.trials === 0) return null;
  const p1 = reference.successes / reference.trials;
  const p2 = variation.successes / variation.trials;
  const pooled = (reference.successes + variation.successes) / (reference.trials + variation.trials);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / reference.trials + 1 / variation.trials));
  if (!(se > 0)) return null;
  const z = (p2 - p1) / se;
  // 2 (1 − Φ(|z|)) = erfc(|z| / √2), computed without the cancellation of 1 − Φ.
  return erfc(Math.abs(z) / Math.SQRT2);
};

/** Wald 95 % interval of (variation rate − reference rate); null without visitors or with a zero SE. */
export const waldInterval95 = (reference: Proportion, variation: Proportion): [number, number] | null => {
  if (reference.trials === 0 || variation.trials === 0) return null;
  const p1 = reference.successes / reference.trials;
  const p2 = variation.successes / variation.trials;
  const se = Math.sqrt((p1 * (1 - p1)) / reference.trials + (p2 * (1 - p2)) / variation.trials);
  if (!(se > 0)) return null;
  const diff = p2 - p1;
  return [diff - Z_975 * se, diff + Z_975 * se];
};

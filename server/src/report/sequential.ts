// The always-valid figures of PROTOCOL.md §14.7: the normal-mixture confidence sequence of Howard et al. (2021,
// §3) for a difference of two rates, and its e-value p-value (Waudby-Smith et al. 2023, eq. 155). Unlike
// §14.5's z-test, they stay valid however often the report is read: the console reads it every few seconds.
import type { Proportion } from './statistics.js';

/** The mixture's tuning ρ² for `alpha` and the expected visitors `S` (the group's total at decision time). */
export const mixtureRho2 = (alpha: number, expectedVisitors: number): number =>
  (-2 * Math.log(alpha) + Math.log(1 - 2 * Math.log(alpha))) / expectedVisitors;

/** A comparison's always-valid p-value and interval of the rate difference; both null where §14.5's are. */
export interface SequentialComparison {
  pValue: number | null;
  interval: [number, number] | null;
}

/**
 * The confidence sequence and e-value p-value of (variation rate − reference rate), at level `alpha` with the
 * mixture tuned for `expectedVisitors`.
 */
export const sequentialComparison = (
  reference: Proportion,
  variation: Proportion,
  alpha: number,
  expectedVisitors: number,
): SequentialComparison => {
  if (reference.trials === 0 || variation.trials === 0) return { pValue: null, interval: null };
  const pr = reference.successes / reference.trials;
  const pv = variation.successes / variation.trials;
  const d = pv - pr;
  const v = (pr * (1 - pr)) / reference.trials + (pv * (1 - pv)) / variation.trials;
  if (!(v > 0)) return { pValue: null, interval: null };
  const n = reference.trials + variation.trials;
  const rho2 = mixtureRho2(alpha, expectedVisitors);
  const spread = n * rho2 + 1;
  const half =
    Math.sqrt(v * n) * Math.sqrt((2 * spread * Math.log(Math.sqrt(spread) / alpha)) / (n * n * rho2));
  // e = exp(ρ² (d² N / V) / (2 (Nρ² + 1))) / √(Nρ² + 1); p = min(1, 1/e), taken in logarithms so that a large
  // e-value does not overflow to Infinity before its inverse is taken.
  const logE = (rho2 * ((d * d * n) / v)) / (2 * spread) - 0.5 * Math.log(spread);
  return { pValue: Math.min(1, Math.exp(-logE)), interval: [d - half, d + half] };
};

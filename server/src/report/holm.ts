// Holm's step-down adjustment (PROTOCOL.md §14.7): a group with several non-reference variations makes several
// comparisons on a goal, and the chance that one of them crosses alpha by luck grows with their number.

/**
 * Holm-adjusted p-values, in the order given: sorted ascending, p_(i) becomes max over j ≤ i of
 * min(1, (m − j + 1) p_(j)). Nulls (no comparison) are left null and not counted in m.
 */
export const holmAdjusted = (pValues: ReadonlyArray<number | null>): Array<number | null> => {
  const present = pValues
    .map((p, index) => ({ p, index }))
    .filter((e): e is { p: number; index: number } => e.p !== null)
    .sort((a, b) => a.p - b.p);
  const m = present.length;
  const adjusted: Array<number | null> = pValues.map(() => null);
  let running = 0;
  present.forEach(({ p, index }, j) => {
    running = Math.max(running, Math.min(1, (m - j) * p));
    adjusted[index] = running;
  });
  return adjusted;
};

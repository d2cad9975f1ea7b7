// A variation added to a group: named after its place among the others ("Variation 2" after the original and
// "Variation 1"; the next free number when that name is taken), with no flag filled in yet, and an allocation
// that keeps the group's sum at 100 %: the share nobody has yet when there is one, else an even split of the
// group, so adding a variation to a full 50/50 test makes it 34/33/33 rather than 50/50/0 with nobody in it.
import { allocatedSum, blankVariation, type GroupDraft } from './campaign-draft.js';

/** The name a new variation of `group` gets. */
export const newVariationName = (group: GroupDraft): string => {
  const taken = new Set(group.variations.map((v) => v.name.trim()));
  let n = Math.max(1, group.variations.length);
  while (taken.has(`Variation ${n}`)) n += 1;
  return `Variation ${n}`;
};

/** Splits 100 % evenly over `count` variations, the first ones taking the leftover points. */
export const evenAllocations = (count: number): number[] =>
  Array.from({ length: count }, (_, k) => Math.floor(100 / count) + (k < 100 % count ? 1 : 0));

/**
 * Adds a variation to `group`; says how the allocations changed, for the group's status line (the text is
 * empty when only the new variation's allocation was chosen).
 */
export const addVariation = (group: GroupDraft): string => {
  const rest = 100 - allocatedSum(group);
  const first = group.variations.length === 0;
  const variation = blankVariation(newVariationName(group), first, 0, group.flags.length);
  group.variations.push(variation);
  if (rest > 0) {
    variation.allocation = String(rest);
    return '';
  }
  const shares = evenAllocations(group.variations.length);
  group.variations.forEach((v, k) => (v.allocation = String(shares[k] ?? 0)));
  return `“${variation.name}” was added and the allocations were split evenly (${shares.join(' / ')} %): change them as you need.`;
};

// What a refetch changed, for `feature-flags-change`: compared per key between two snapshots of the visitor's
// flags. A fetch builds new value objects even when nothing changed, so values compare by their JSON text.
import type { FlagsSnapshot } from '../core/index.js';

const state = (flags: FlagsSnapshot, key: string): string | undefined => {
  const flag = flags.get(key);
  return JSON.stringify(flag && [flag.value, flag.metadata.variationId]);
};

/** The keys of `before` and `after` whose value or variation differ, or that only one of them holds. */
export const changedKeys = (before: FlagsSnapshot, after: FlagsSnapshot): string[] =>
  [...new Set([...before.keys(), ...after.keys()])].filter((key) => state(before, key) !== state(after, key));

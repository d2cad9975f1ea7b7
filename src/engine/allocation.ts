// Allocation and assignment (PROTOCOL.md §8.2-§8.4): the variation walk, the campaign's bucket ranges and
// sticky assignments. The walk is turned into a 100-entry table once per variation group, so allocating a
// visitor is one hash and one array read.
import type { AssignmentHistory } from '../protocol/index.js';
import { murmur3, murmur3Resume, type Murmur3Prefix } from './murmur3.js';

/** What allocation needs of a variation group: see `compileFile`. */
export interface AllocationGroup {
  /** The variation group id. */
  readonly id: string;
  /** `murmur3Prefix(id)`: the group id's part of the allocation hash. */
  readonly hashPrefix: Murmur3Prefix;
  /** Bucket (0-99) → index of the variation the walk picks, or -1 (not allocated). */
  readonly table: Int32Array;
  /** Variation id → its index (the first, should ids repeat). */
  readonly indexById: ReadonlyMap<string, number>;
}

/** The allocation bucket of a visitor in a variation group: `murmur3(groupId + visitorId) % 100` (§8.1). */
export const allocationBucket = (groupId: string, visitorId: string): number =>
  murmur3(groupId + visitorId) % 100;

/**
 * The variation walk (§8.2): the index of the first variation whose running allocation sum exceeds `bucket`,
 * skipping absent or zero allocations; -1 when the sum stays at or under the bucket (not allocated).
 */
export const walkVariations = (allocations: readonly (number | undefined)[], bucket: number): number => {
  let sum = 0;
  for (let i = 0; i < allocations.length; i++) {
    const allocation = allocations[i] ?? 0;
    if (allocation === 0) continue;
    sum += allocation;
    if (bucket < sum) return i;
  }
  return -1;
};

/** The walk of every bucket 0-99 at once, for {@link AllocationGroup.table}. */
export const allocationTable = (allocations: readonly (number | undefined)[]): Int32Array => {
  const table = new Int32Array(100);
  for (let bucket = 0; bucket < 100; bucket++) table[bucket] = walkVariations(allocations, bucket);
  return table;
};

/**
 * Whether `bucket` (`murmur3(visitorId) % 100`) falls in one of a campaign's ranges `[from, to)` (§8.3).
 * `ranges` is flat: `[from0, to0, from1, to1, …]`.
 */
export const inBucketRanges = (ranges: readonly number[], bucket: number): boolean => {
  for (let i = 0; i + 1 < ranges.length; i += 2) {
    if (bucket >= (ranges[i] ?? 0) && bucket < (ranges[i + 1] ?? 0)) return true;
  }
  return false;
};

/**
 * The variation of a group a visitor gets (§8.2, §8.4): the one the history names (`stickyId`) if it still
 * exists, whatever the allocations are now; nothing if the history names one that no longer exists; else the
 * walk with the allocation id. Returns the variation's index, or -1 for nothing.
 */
export const assignVariation = (
  group: AllocationGroup,
  stickyId: string | undefined,
  allocationId: string,
): number => {
  if (stickyId !== undefined) return group.indexById.get(stickyId) ?? -1;
  return group.table[murmur3Resume(group.hashPrefix, allocationId) % 100] ?? -1;
};

/** The variation id a history names for a group; only own string entries count. */
export const stickyVariationId = (history: AssignmentHistory, groupId: string): string | undefined => {
  // An inherited member (a group called "constructor") is a function, never a string, so it is ignored.
  const id = (history as Record<string, unknown>)[groupId];
  return typeof id === 'string' ? id : undefined;
};

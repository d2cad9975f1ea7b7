import type { FlagsSnapshot } from 'feature-ts';

/**
 * The keys whose flag differs between two snapshots of a visitor's flags: added, removed, or given another
 * value or variation (what OpenFeature's `ConfigurationChanged` lists as `flagsChanged`). Values are compared
 * by their JSON: a refetch builds new objects for the same values.
 */
export const changedFlags = (before: FlagsSnapshot, after: FlagsSnapshot): string[] => {
  const changed: string[] = [];
  for (const [key, entry] of after) {
    const old = before.get(key);
    if (
      old === undefined ||
      old.metadata.variationId !== entry.metadata.variationId ||
      old.metadata.variationGroupId !== entry.metadata.variationGroupId ||
      (old.value !== entry.value && JSON.stringify(old.value) !== JSON.stringify(entry.value))
    )
      changed.push(key);
  }
  for (const key of before.keys()) if (!after.has(key)) changed.push(key);
  return changed;
};

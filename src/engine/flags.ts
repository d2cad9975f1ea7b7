// Flags from a decision (PROTOCOL.md §9.1, §9.2). Standalone on purpose: the SDK core imports this file
// statically in decision-API mode, where every byte counts, and the rest of the engine lazily.
import type { DecisionCampaign } from '../protocol/decision.js';
import type { FlagMetadata } from '../protocol/flag.js';
import type { JsonValue } from '../protocol/json.js';

/** One flag of a visitor: its key, its value (null: the assigned variation does not set it) and metadata. */
export interface ResolvedFlag {
  readonly key: string;
  readonly value: JsonValue;
  readonly metadata: Readonly<FlagMetadata>;
}

/**
 * Builds the flags of a decision's campaigns, in their order: each key of each variation's
 * `modifications.value` becomes a flag; the last campaign wins, except that a null value never replaces an
 * earlier non-null one. Null values (exposeAllKeys, §9.2) are flags too. A campaign without an object
 * `modifications.value` gives nothing. Keys are kept in a `Map`, so a key such as `__proto__` is only a key.
 */
export const buildFlags = (campaigns: readonly DecisionCampaign[]): Map<string, ResolvedFlag> => {
  const flags = new Map<string, ResolvedFlag>();
  for (const c of campaigns) {
    const value: unknown = c.variation.modifications.value;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    const metadata: Readonly<FlagMetadata> = Object.freeze({
      campaignId: c.id,
      campaignName: c.name,
      variationGroupId: c.variationGroupId,
      variationGroupName: c.variationGroupName,
      variationId: c.variation.id,
      variationName: c.variation.name,
      isReference: c.variation.reference,
      campaignType: c.type,
      slug: typeof c.slug === 'string' ? c.slug : '',
    });
    for (const [key, v] of Object.entries(value as Record<string, JsonValue>)) {
      const earlier = v === null ? flags.get(key) : undefined;
      if (earlier !== undefined && earlier.value !== null) continue;
      flags.set(key, { key, value: v, metadata });
    }
  }
  return flags;
};

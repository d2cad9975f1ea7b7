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
 * `flagsOf` gives one campaign's flags (bucketing mode passes one that reuses them across visitors).
 */
export const buildFlags = (
  campaigns: readonly DecisionCampaign[],
  flagsOf: (campaign: DecisionCampaign) => readonly ResolvedFlag[] = campaignFlags,
): Map<string, ResolvedFlag> => {
  const flags = new Map<string, ResolvedFlag>();
  for (const c of campaigns)
    for (const flag of flagsOf(c)) {
      const earlier = flag.value === null ? flags.get(flag.key) : undefined;
      if (earlier === undefined || earlier.value === null) flags.set(flag.key, flag);
    }
  return flags;
};

/** The flags one campaign sets, in its keys' order, with their metadata. */
export const campaignFlags = (c: DecisionCampaign): ResolvedFlag[] => {
  const value: unknown = c.variation.modifications.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
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
  return Object.entries(value as Record<string, JsonValue>).map(([key, v]) => ({ key, value: v, metadata }));
};

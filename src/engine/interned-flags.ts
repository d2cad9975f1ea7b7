// Flags of decision-API campaigns, shared by the visitors given the same campaign (the Node platform's, issue 18).
// Each decision is parsed from JSON, so two visitors in the same variation hold equal campaigns but never the
// same objects: without this, a server keeping visitors alive held one flag object per key and one metadata
// object per campaign for each of them (about 3.4 KB of a visitor's 6.1 with 50 flags).
import type { DecisionCampaign } from '../protocol/decision.js';
import type { JsonValue } from '../protocol/json.js';
import { campaignFlags, type ResolvedFlag } from './flags.js';

/** Campaigns remembered; past it the table starts again (older entries go, visitors keep their flags). */
const MAX_CAMPAIGNS = 4_096;

interface Known {
  readonly campaign: DecisionCampaign;
  readonly flags: readonly ResolvedFlag[];
}

let known = new Map<string, Known>();

/** True when a value can be handed to several visitors: a primitive nobody can change under another. */
const isPrimitive = (value: JsonValue): boolean => value === null || typeof value !== 'object';

/** True when `a` and `b` give the same flags: same ids, names, type, slug, reference and flag values. */
const sameCampaign = (a: DecisionCampaign, b: DecisionCampaign): boolean => {
  const va = a.variation;
  const vb = b.variation;
  if (
    a.name !== b.name ||
    a.slug !== b.slug ||
    a.type !== b.type ||
    a.variationGroupName !== b.variationGroupName ||
    va.name !== vb.name ||
    va.reference !== vb.reference
  )
    return false;
  const fa = va.modifications.value;
  const fb = vb.modifications.value;
  const keys = Object.keys(fa);
  if (keys.length !== Object.keys(fb).length) return false;
  // Same keys in the same order: the flags' order is part of what buildFlags gives.
  let index = 0;
  for (const key in fb) if (keys[index++] !== key || fa[key] !== fb[key]) return false;
  return true;
};

/**
 * One campaign's flags for `buildFlags`: the flags built for an equal campaign before, else new ones, kept for
 * the next visitor when every value is a primitive (an object or array value stays each visitor's own, so
 * changing it never reaches another visitor). Equal means every field the flags carry is equal.
 */
export const internedCampaignFlags = (campaign: DecisionCampaign): readonly ResolvedFlag[] => {
  const key = `${campaign.id}\n${campaign.variationGroupId}\n${campaign.variation.id}`;
  const held = known.get(key);
  if (held !== undefined && sameCampaign(held.campaign, campaign)) return held.flags;
  const flags = campaignFlags(campaign);
  if (!flags.every((flag) => isPrimitive(flag.value))) return flags;
  const shared = Object.freeze(flags.map((flag) => Object.freeze(flag)));
  if (known.size >= MAX_CAMPAIGNS) known = new Map();
  known.set(key, { campaign, flags: shared });
  return shared;
};

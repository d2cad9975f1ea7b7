// Flags of the engine's campaigns, built once per campaign rather than once per visitor (bucketing mode).
// Apart from engine/flags.ts, which the decision-API entry loads: only the bucketing chunk needs this.
import type { DecisionCampaign } from '../protocol/decision.js';
import { campaignFlags, type ResolvedFlag } from './flags.js';

// The engine's decisions share frozen campaign objects (one per variation of a compiled file, §3): their
// flags are the same for every visitor. Weak: a replaced bucketing file's campaigns go with it.
const shared = new WeakMap<DecisionCampaign, readonly ResolvedFlag[]>();

/**
 * One campaign's flags for `buildFlags`: shared by every visitor given the same frozen campaign object,
 * built each time for any other (nothing would tell a caller's later change to it).
 */
export const sharedCampaignFlags = (campaign: DecisionCampaign): readonly ResolvedFlag[] => {
  const known = shared.get(campaign);
  if (known !== undefined) return known;
  const flags = Object.freeze(campaignFlags(campaign).map((flag) => Object.freeze(flag)));
  const frozen =
    Object.isFrozen(campaign) &&
    Object.isFrozen(campaign.variation) &&
    Object.isFrozen(campaign.variation.modifications);
  if (frozen) shared.set(campaign, flags);
  return flags;
};

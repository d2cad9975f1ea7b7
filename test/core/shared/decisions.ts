// Decision answers in PROTOCOL.md §3's shape, written by hand. Pure data builders with no runtime imports, so
// Node tests and Chromium tests (through the shared suites) build the same answers.
import type { FlagMetadata } from '../../../src/core/public.js';
import type { Decision, DecisionCampaign, JsonValue } from '../../../src/protocol/index.js';

/** §9.3: "Empty metadata is all nine fields at their defaults, never {}", written from the spec. */
export const EMPTY_METADATA: FlagMetadata = {
  campaignId: '',
  campaignName: '',
  variationGroupId: '',
  variationGroupName: '',
  variationId: '',
  variationName: '',
  isReference: false,
  campaignType: '',
  slug: '',
};

/** One campaign of a decision answer. */
export const campaign = (
  id: string,
  vg: string,
  variation: string,
  flags: Record<string, JsonValue>,
  extra: Partial<Pick<DecisionCampaign, 'name' | 'slug' | 'type' | 'variationGroupName'>> & {
    reference?: boolean;
    variationName?: string;
  } = {},
): DecisionCampaign => ({
  id,
  name: extra.name ?? `${id} name`,
  slug: extra.slug === undefined ? null : extra.slug,
  type: extra.type ?? 'ab',
  variationGroupId: vg,
  variationGroupName: extra.variationGroupName ?? `${vg} name`,
  variation: {
    id: variation,
    name: extra.variationName ?? `${variation} name`,
    reference: extra.reference ?? false,
    modifications: { type: 'FLAG', value: flags },
  },
});

/** A decision with `enabledXPC` in its extras, as the double answers our SDK's query. */
export const decision = (visitorId: string, campaigns: DecisionCampaign[], xpc = false): Decision => ({
  visitorId,
  campaigns,
  extras: { accountSettings: { enabledXPC: xpc, enabled1V1T: false } },
});

/** The panic answer of PROTOCOL.md §3. */
export const panicDecision = (visitorId: string): Decision => ({ visitorId, campaigns: [], panic: true });

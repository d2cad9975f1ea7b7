// Campaigns for the elements' browser tests whose outcome is known without running the engine: one variation
// at 100 %, or PROTOCOL.md §15's allocation vectors; and the decision body the server gives for them.
import type { BucketingCampaign, Decision, JsonValue, TargetingGroup } from '../../src/protocol/index.js';

/** Targeting every visitor. */
export const EVERYONE: TargetingGroup[] = [
  { targetings: [{ operator: 'EQUALS', key: 'fs_all_users', value: '' }] },
];

/** A variation of `campaign()`. */
export interface VariationSpec {
  id: string;
  name: string;
  flags: Record<string, JsonValue>;
  allocation?: number;
  reference?: boolean;
}

/** A campaign with one variation group `${id}-vg` (targeting everyone unless given) and `variations`. */
export const campaign = (
  id: string,
  variations: VariationSpec[],
  targeting: TargetingGroup[] = EVERYONE,
  groupId = `${id}-vg`,
): BucketingCampaign => ({
  id,
  name: `Campaign ${id}`,
  type: 'ab',
  slug: id,
  variationGroups: [
    {
      id: groupId,
      name: 'Group',
      targeting: { targetingGroups: targeting },
      variations: variations.map((v) => ({
        id: v.id,
        name: v.name,
        reference: v.reference ?? false,
        ...(v.allocation === 0 ? {} : { allocation: v.allocation ?? 100 }),
        modifications: { type: 'FLAG', value: v.flags },
      })),
    },
  ],
});

/**
 * The checkout A/B test every visitor of which sees Green (`btnColor` = "green"): a reference at 0 % and
 * Green at 100 %, so the variation is known from the campaign alone.
 */
export const checkout = (): BucketingCampaign =>
  campaign('checkout', [
    { id: 'v-original', name: 'Original', reference: true, allocation: 0, flags: { btnColor: null } },
    { id: 'v-green', name: 'Green', allocation: 100, flags: { btnColor: 'green' } },
  ]);

/**
 * PROTOCOL.md §15: group `bs8r119sbs4016meiiii` is a reference with no allocation, then two variations of
 * 50 %; the table gives each listed visitor's variation ("variation50" 1 or 2).
 */
export const VECTOR_GROUP = 'bs8r119sbs4016meiiii';
/** Visitor ids of §15 whose variation50 is 1, and 2. */
export const VECTOR_VISITORS = {
  first: ['202072017183814142', '202072017183842202'],
  second: ['202072017233690230', '202072017183823773', '202072017183972690'],
} as const;

/** The §15 50/50 group as a campaign: `split` = "one" for variation50 1, "two" for 2. */
export const splitCampaign = (): BucketingCampaign =>
  campaign(
    'split',
    [
      { id: 'v-ref', name: 'Reference', reference: true, allocation: 0, flags: { split: null } },
      { id: 'v-one', name: 'One', allocation: 50, flags: { split: 'one' } },
      { id: 'v-two', name: 'Two', allocation: 50, flags: { split: 'two' } },
    ],
    EVERYONE,
    VECTOR_GROUP,
  );

/** The decision body the server gives every visitor of `c` when its variation `variationId` is theirs. */
export const decisionOf = (visitorId: string, c: BucketingCampaign, variationId: string): Decision => {
  const group = c.variationGroups[0];
  const variation = group?.variations.find((v) => v.id === variationId);
  if (group === undefined || variation === undefined) throw new Error(`no variation ${variationId}`);
  return {
    visitorId,
    campaigns: [
      {
        id: c.id,
        name: c.name,
        slug: c.slug ?? null,
        type: c.type,
        variationGroupId: group.id,
        variationGroupName: group.name,
        variation: {
          id: variation.id,
          name: variation.name,
          reference: variation.reference ?? false,
          modifications: { type: 'FLAG', value: variation.modifications.value },
        },
      },
    ],
  };
};

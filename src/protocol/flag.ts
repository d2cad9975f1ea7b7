/** Campaign metadata of a flag (SPEC.md `FlagMetadata`); every field defaults to "" (and false). */
export interface FlagMetadata {
  campaignId: string;
  campaignName: string;
  variationGroupId: string;
  variationGroupName: string;
  variationId: string;
  variationName: string;
  isReference: boolean;
  campaignType: string;
  /** "" when the campaign has no slug. */
  slug: string;
}

/** The empty metadata: all nine fields at their defaults, never `{}` (PROTOCOL.md §9.3). */
export const EMPTY_METADATA: Readonly<FlagMetadata> = Object.freeze({
  campaignId: '',
  campaignName: '',
  variationGroupId: '',
  variationGroupName: '',
  variationId: '',
  variationName: '',
  isReference: false,
  campaignType: '',
  slug: '',
});

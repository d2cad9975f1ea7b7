import type { AccountSettings, Modifications } from './decision.js';
import type { JsonValue } from './json.js';

/** Targeting operators (PROTOCOL.md §7). */
export const TARGETING_OPERATORS = [
  'EQUALS',
  'NOT_EQUALS',
  'CONTAINS',
  'NOT_CONTAINS',
  'STARTS_WITH',
  'ENDS_WITH',
  'GREATER_THAN',
  'LOWER_THAN',
  'GREATER_THAN_OR_EQUALS',
  'LOWER_THAN_OR_EQUALS',
  'EXISTS',
  'NOT_EXISTS',
  'SEMVER_EQUALS',
  'SEMVER_NOT_EQUALS',
  'SEMVER_GREATER_THAN',
  'SEMVER_LOWER_THAN',
  'SEMVER_GREATER_THAN_OR_EQUALS',
  'SEMVER_LOWER_THAN_OR_EQUALS',
] as const;

/** A targeting operator. */
export type TargetingOperator = (typeof TARGETING_OPERATORS)[number];

/** One targeting rule: a context key, an operator and a target value (or list of values). */
export interface Targeting {
  operator: string;
  key: string;
  value: JsonValue;
}

/** A targeting group matches when all of its targetings match. */
export interface TargetingGroup {
  targetings: Targeting[];
}

/** A variation group matches when any of its targeting groups matches. */
export interface VariationGroupTargeting {
  targetingGroups: TargetingGroup[];
}

/** A variation in the bucketing file. `allocation` is an integer percent; absent means 0. */
export interface BucketingVariation {
  id: string;
  name: string;
  reference?: boolean;
  allocation?: number;
  modifications: Modifications;
}

/** A variation group in the bucketing file. */
export interface BucketingVariationGroup {
  id: string;
  name: string;
  targeting?: VariationGroupTargeting;
  variations: BucketingVariation[];
}

/** A percent range `[from, to)` of traffic a campaign takes. */
export interface BucketRange {
  r: [number, number];
}

/** A campaign in the bucketing file (PROTOCOL.md §6). */
export interface BucketingCampaign {
  id: string;
  name: string;
  type: string;
  slug?: string | null;
  bucketRanges?: BucketRange[];
  variationGroups: BucketingVariationGroup[];
}

/** The bucketing file: `GET /cdn/{envId}/bucketing.json` (PROTOCOL.md §6). */
export interface BucketingFile {
  panic: boolean;
  campaigns: BucketingCampaign[];
  accountSettings?: AccountSettings;
}

/** The answer of `GET /cdn/{envId}/accountSettings.json`. */
export interface AccountSettingsFile {
  accountSettings: AccountSettings;
}

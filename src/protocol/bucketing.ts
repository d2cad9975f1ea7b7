import type { AccountSettings, Modifications } from './decision.js';
import type { JsonValue } from './json.js';
import type { AnalysisSettings } from './report.js';

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

/**
 * Limits on what a campaign may hold, so that a decision's cost stays bounded for every tenant (issue 29;
 * docs/http-api.md "Limits"). The server refuses a campaign past them with a 400 naming the field.
 */
export const CAMPAIGN_LIMITS = {
  /** Items in one targeting's list value: a beta list of 10 000 user ids fits. */
  maxListItems: 10_000,
  /** Characters (UTF-16 code units) of one string target, alone or in a list: a long URL fits. */
  maxTargetLength: 1024,
  /**
   * Characters of one SEMVER_* target: a version with a pre-release and a build of a full commit hash fits.
   * A comparison walks the pre-release identifiers: this bounds what each SEMVER rule may cost.
   */
  maxVersionTargetLength: 128,
  /** UTF-8 bytes of one campaign's JSON: 10 000 ids of 64 characters fit. */
  maxCampaignBytes: 1024 * 1024,
  /** Campaigns of one environment (deleted ones aside). */
  maxCampaignsPerEnvironment: 1000,
  /** UTF-8 bytes of all of an environment's campaigns: the bucketing file every SDK in bucketing mode loads. */
  maxEnvironmentBytes: 8 * 1024 * 1024,
  /**
   * Targetings (rules) of all of an environment's campaigns: a decision may evaluate every one, so this bounds
   * its cost (1 000 campaigns of 10 rules fit).
   */
  maxTargetingsPerEnvironment: 10_000,
  /**
   * Items of all of an environment's targeting lists: a decision may find each of a value's substrings among
   * them, so this bounds what a CONTAINS scan can visit (ten beta lists of 10 000 ids fit).
   */
  maxListItemsPerEnvironment: 100_000,
  /**
   * Characters of all of an environment's CONTAINS, NOT_CONTAINS, STARTS_WITH and ENDS_WITH targets, each
   * counting at least {@link PATTERN_ITEM_MIN_CHARACTERS}: the string automata a file compiles into grow with
   * them, and they are built on the main thread at every change (a list of 10 000 short ids fits).
   */
  maxPatternCharactersPerEnvironment: 100_000,
} as const;

/** What a CONTAINS/NOT_CONTAINS/STARTS_WITH/ENDS_WITH target counts at least toward its environment's total. */
export const PATTERN_ITEM_MIN_CHARACTERS = 8;

/** The operators whose string targets the engine compiles into automata. */
export const PATTERN_OPERATORS: readonly string[] = ['CONTAINS', 'NOT_CONTAINS', 'STARTS_WITH', 'ENDS_WITH'];

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
  /**
   * The campaign's analysis settings (PROTOCOL.md §14.6): only the fields that differ from the defaults
   * (`ANALYSIS_DEFAULTS`), each absent one taking its default, so a campaign stored without them reads with the
   * defaults. Kept in the stored body and in imports, never in the served bucketing file: SDKs do not use them.
   */
  analysis?: Partial<AnalysisSettings>;
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

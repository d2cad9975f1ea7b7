// A campaign's analysis settings (PROTOCOL.md §14.6): read from a create, patch or import body, stored as
// given, and read back with the defaults filled in.
//
// Decisions beyond PROTOCOL.md:
// - Only the fields that differ from ANALYSIS_DEFAULTS are stored (`Partial<AnalysisSettings>` in the
//   campaign's body; none: no `analysis` at all). So a campaign stored before §14.6 reads with the defaults
//   without any stored body changing, and a campaign read with GET (defaults filled in) and sent back whole
//   stores the very body it had, as every other field of the format does.
// - A patch's `analysis` merges field by field into the stored one (a field given replaces that field;
//   `primary_goal: null` clears the goal; `analysis: null` clears every field): one setting can change without
//   a read first (`feature-server campaign update ID --alpha 0.01`), and a whole `analysis` read with GET and
//   sent back replaces everything, as before.
// - Unknown fields under `analysis` are refused in both formats (the API's and the import's): `analysis` is
//   new, so no file that imported before carries one, and a misspelt setting kept silently would leave the
//   report on a default nobody chose.
// - The body's spelling is the wire's (snake_case) in both formats: the stored body is the import's form, and
//   one shape is read in one place.
import {
  ANALYSIS_DEFAULTS,
  ANALYSIS_LIMITS,
  RESERVED_ACTION_PREFIX,
  isJsonObject,
  type AnalysisMethod,
  type AnalysisSettings,
  type BucketingCampaign,
  type PrimaryGoal,
} from 'feature-ts/protocol';
import {
  ANALYSIS_METHODS,
  MAX_GOAL_NAME_LENGTH,
  PRIMARY_GOAL_TYPES,
  analysisBodySchema,
} from './analysis-body-schema.js';
import { fail } from './field-error.js';
import { schemaCheck } from './schema-check.js';
import { badString } from './fields.js';

/** The fields of `analysis`, in the wire's order. */
export const ANALYSIS_FIELDS = ['primary_goal', 'method', 'alpha', 'expected_visitors'] as const;

/** Analysis settings as stored: the fields given. */
export type StoredAnalysis = NonNullable<BucketingCampaign['analysis']>;

const isAlpha = (value: unknown): value is number =>
  typeof value === 'number' && value >= ANALYSIS_LIMITS.minAlpha && value <= ANALYSIS_LIMITS.maxAlpha;

const isExpectedVisitors = (value: unknown): value is number =>
  typeof value === 'number' &&
  Number.isInteger(value) &&
  value >= ANALYSIS_LIMITS.minExpectedVisitors &&
  value <= ANALYSIS_LIMITS.maxExpectedVisitors;

const isMethod = (value: unknown): value is AnalysisMethod =>
  (ANALYSIS_METHODS as readonly unknown[]).includes(value);

const isGoalType = (value: unknown): value is PrimaryGoal['type'] =>
  (PRIMARY_GOAL_TYPES as readonly unknown[]).includes(value);

/** Why `name` cannot be a goal of `type` beyond its schema (an event's reserved actions), or null. */
const reservedGoal = (type: PrimaryGoal['type'], name: string): string | null =>
  type === 'event' && name.startsWith(RESERVED_ACTION_PREFIX)
    ? `"${name}" is reserved: actions starting with ${RESERVED_ACTION_PREFIX} are never goals`
    : null;

/**
 * The fields of `settings` that differ from the defaults, in the wire's order (so that a body read back is the
 * same whatever order it was sent in); undefined when none does.
 */
const storable = (settings: StoredAnalysis): StoredAnalysis | undefined => {
  const stored: StoredAnalysis = {};
  for (const field of ANALYSIS_FIELDS) {
    const value = settings[field];
    if (value !== undefined && JSON.stringify(value) !== JSON.stringify(ANALYSIS_DEFAULTS[field]))
      Object.assign(stored, { [field]: value });
  }
  return Object.keys(stored).length === 0 ? undefined : stored;
};

const checkBody = schemaCheck(analysisBodySchema);

/**
 * Reads `analysis` at `path` of a body; returns the fields to store. On a patch, `stored` is the campaign's
 * stored settings: the fields given replace theirs, the others are kept. Returns the fields to store (those
 * that differ from the defaults), or undefined when none is left (null resets them all). Throws FieldError
 * naming the first bad field (`analysis.alpha`).
 */
export const checkAnalysis = (
  value: unknown,
  path: string,
  stored?: StoredAnalysis,
): StoredAnalysis | undefined => {
  checkBody(value, path);
  // Checked by the schema above: an object of the fields, or null.
  const given = value as StoredAnalysis | null;
  if (given === null) return undefined;
  const goal = given.primary_goal;
  const reserved = goal === undefined || goal === null ? null : reservedGoal(goal.type, goal.name);
  if (reserved !== null) fail(`${path}.primary_goal.name`, reserved);
  return storable({ ...structuredClone(stored ?? {}), ...structuredClone(given) });
};

/**
 * A campaign's analysis settings in force, every field written: the stored ones, defaults for the others. A
 * stored field that is not valid (a body written by hand into the store) reads as its default too, so that
 * reading never fails.
 */
export const analysisOf = (campaign: Pick<BucketingCampaign, 'analysis'>): AnalysisSettings => {
  const stored: Record<string, unknown> = isJsonObject(campaign.analysis) ? campaign.analysis : {};
  const goal = stored.primary_goal;
  const primaryGoal =
    isJsonObject(goal) &&
    isGoalType(goal.type) &&
    badString(goal.name, MAX_GOAL_NAME_LENGTH) === null &&
    reservedGoal(goal.type, goal.name as string) === null
      ? { type: goal.type, name: goal.name as string }
      : ANALYSIS_DEFAULTS.primary_goal;
  return {
    primary_goal: primaryGoal,
    method: isMethod(stored.method) ? stored.method : ANALYSIS_DEFAULTS.method,
    alpha: isAlpha(stored.alpha) ? stored.alpha : ANALYSIS_DEFAULTS.alpha,
    expected_visitors: isExpectedVisitors(stored.expected_visitors)
      ? stored.expected_visitors
      : ANALYSIS_DEFAULTS.expected_visitors,
  };
};

/** A campaign without its analysis settings: what the bucketing file serves (SDKs do not use them). */
export const withoutAnalysis = (campaign: BucketingCampaign): BucketingCampaign => {
  if (!Object.hasOwn(campaign, 'analysis')) return campaign;
  const served = { ...campaign };
  delete served.analysis;
  return served;
};

// The analysis settings of `feature-server campaign create|update` as options (PROTOCOL.md §14.6):
// `--primary-goal event:add_to_cart|transaction:Purchase|none`, `--method sequential|fixed`, `--alpha 0.05`,
// `--expected-visitors 20000`. They become the body's `analysis`, the fields given only (a patch keeps the
// others), so the server's rules apply whichever store the command goes to; the values are checked here
// first, so that a mistake is named by its option rather than by a field of a body the user never wrote.
import { ANALYSIS_LIMITS, isJsonObject } from 'feature-ts/protocol';
import { InputError } from '../errors.js';
import { ANALYSIS_METHODS, PRIMARY_GOAL_TYPES } from '../validation/analysis-body-schema.js';
import type { ParsedArgs } from './args.js';

/** The options, in the order usage text lists them. */
export const ANALYSIS_OPTIONS = ['primary-goal', 'method', 'alpha', 'expected-visitors'] as const;

/** The options' usage, for the commands' help and errors. */
export const ANALYSIS_USAGE =
  '[--primary-goal event:ACTION|transaction:AFFILIATION|none] [--method sequential|fixed] [--alpha 0.001-0.2] [--expected-visitors 100-100000000]';

const primaryGoal = (text: string): { type: string; name: string } | null => {
  if (text === 'none') return null;
  const colon = text.indexOf(':');
  const type = text.slice(0, colon);
  const name = text.slice(colon + 1);
  if (colon < 0 || !(PRIMARY_GOAL_TYPES as readonly string[]).includes(type) || name === '')
    throw new InputError(
      `--primary-goal must be event:ACTION (an event's action, e.g. event:add_to_cart), transaction:AFFILIATION (e.g. transaction:Purchase) or none (got "${text}").`,
    );
  return { type, name };
};

const method = (text: string): string => {
  if (!(ANALYSIS_METHODS as readonly string[]).includes(text))
    throw new InputError(
      `--method must be sequential (valid however often the report is read) or fixed (valid for one planned look) (got "${text}").`,
    );
  return text;
};

const alpha = (text: string): number => {
  const value = /^\d*\.?\d+(e-?\d+)?$/i.test(text) ? Number(text) : Number.NaN;
  if (!(value >= ANALYSIS_LIMITS.minAlpha && value <= ANALYSIS_LIMITS.maxAlpha))
    throw new InputError(
      `--alpha must be a number from ${ANALYSIS_LIMITS.minAlpha} to ${ANALYSIS_LIMITS.maxAlpha}, the false-positive rate accepted (0.05 is usual) (got "${text}").`,
    );
  return value;
};

const expectedVisitors = (text: string): number => {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= ANALYSIS_LIMITS.minExpectedVisitors && value <= ANALYSIS_LIMITS.maxExpectedVisitors))
    throw new InputError(
      `--expected-visitors must be a whole number from ${ANALYSIS_LIMITS.minExpectedVisitors} to ${ANALYSIS_LIMITS.maxExpectedVisitors}, the group's visitors at which a decision is expected (got "${text}").`,
    );
  return value;
};

/** The `analysis` fields the options give, or undefined when none is given. */
export const analysisOptions = (args: ParsedArgs): Record<string, unknown> | undefined => {
  const given = (name: (typeof ANALYSIS_OPTIONS)[number]): string | undefined => args.options.get(name);
  const fields: Record<string, unknown> = {};
  const goal = given('primary-goal');
  if (goal !== undefined) fields.primary_goal = primaryGoal(goal);
  const chosen = given('method');
  if (chosen !== undefined) fields.method = method(chosen);
  const risk = given('alpha');
  if (risk !== undefined) fields.alpha = alpha(risk);
  const visitors = given('expected-visitors');
  if (visitors !== undefined) fields.expected_visitors = expectedVisitors(visitors);
  return Object.keys(fields).length === 0 ? undefined : fields;
};

/**
 * `body` with the options' fields set in its `analysis` (over the file's own, field by field); `body` itself
 * when no option is given. A body that is not an object is left for the server to refuse.
 */
export const withAnalysisOptions = (body: unknown, fields: Record<string, unknown> | undefined): unknown => {
  if (fields === undefined || !isJsonObject(body)) return body;
  const own = isJsonObject(body.analysis) ? body.analysis : {};
  return { ...body, analysis: { ...own, ...fields } };
};

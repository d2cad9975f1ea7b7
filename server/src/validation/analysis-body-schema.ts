// The JSON Schema of `analysis` in a campaign body (PROTOCOL.md §14.6), in the API's create and patch bodies
// and in an imported file alike: every field optional, none unknown, null for all the defaults. What depends on
// another field (an event goal's reserved `fs_` prefix) and the merge into stored settings are
// analysis-settings.ts's.
import {
  ANALYSIS_DEFAULTS,
  ANALYSIS_LIMITS,
  HIT_LIMITS,
  type AnalysisMethod,
  type PrimaryGoal,
} from 'feature-ts/protocol';

/** The kinds of primary goal: an event's action (`ea`) or a transaction's affiliation (`ta`). */
export const PRIMARY_GOAL_TYPES = ['event', 'transaction'] as const satisfies readonly PrimaryGoal['type'][];

/** The analysis methods: always-valid figures (§14.7) or fixed-horizon ones (§14.5). */
export const ANALYSIS_METHODS = ['sequential', 'fixed'] as const satisfies readonly AnalysisMethod[];

/** A goal's name is a hit's text: at most this many characters. */
export const MAX_GOAL_NAME_LENGTH = HIT_LIMITS.maxStringLength;

export const ALPHA_RULE = `must be a number from ${ANALYSIS_LIMITS.minAlpha} to ${ANALYSIS_LIMITS.maxAlpha} (the false-positive rate accepted; ${ANALYSIS_DEFAULTS.alpha} is usual)`;
export const VISITORS_RULE = `must be an integer from ${ANALYSIS_LIMITS.minExpectedVisitors} to ${ANALYSIS_LIMITS.maxExpectedVisitors.toLocaleString('en-US').replaceAll(',', ' ')} (the group's total visitors at which a decision is expected)`;

/** `analysis` in a request body. */
export const analysisBodySchema = {
  type: ['object', 'null'],
  additionalProperties: false,
  'x-rule':
    'must be an object {"primary_goal", "method", "alpha", "expected_visitors"} (fields left out take the defaults), or null for all the defaults',
  description: `The report's settings (PROTOCOL.md §14.6). Fields left out take the defaults (${JSON.stringify(ANALYSIS_DEFAULTS)}); on PATCH they keep their stored values, and null resets them all. Never changes a stored count.`,
  properties: {
    primary_goal: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['type', 'name'],
      'x-rule': 'must be {"type": "event"|"transaction", "name": …} or null (no primary goal)',
      description:
        "The goal the verdicts are drawn on: an event's action or a transaction's affiliation; null: no verdict.",
      properties: {
        type: {
          type: 'string',
          enum: PRIMARY_GOAL_TYPES,
          'x-rule': `must be one of ${PRIMARY_GOAL_TYPES.join(', ')} (an event's action or a transaction's affiliation)`,
          'x-if-missing': PRIMARY_GOAL_TYPES.join(' or '),
        },
        name: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_GOAL_NAME_LENGTH,
          'x-storable': true,
          'x-rule': "must be a string: the event's action or the transaction's affiliation",
          'x-if-missing': "the event's action or the transaction's affiliation",
          description: `1-${MAX_GOAL_NAME_LENGTH} characters; an event's action must not start with fs_ (reserved).`,
        },
      },
    },
    method: {
      type: 'string',
      enum: ANALYSIS_METHODS,
      'x-rule': `must be one of ${ANALYSIS_METHODS.join(', ')} (sequential stays valid however often the report is read)`,
    },
    alpha: {
      type: 'number',
      minimum: ANALYSIS_LIMITS.minAlpha,
      maximum: ANALYSIS_LIMITS.maxAlpha,
      'x-rule': ALPHA_RULE,
    },
    expected_visitors: {
      type: 'integer',
      minimum: ANALYSIS_LIMITS.minExpectedVisitors,
      maximum: ANALYSIS_LIMITS.maxExpectedVisitors,
      'x-rule': VISITORS_RULE,
    },
  },
} as const;

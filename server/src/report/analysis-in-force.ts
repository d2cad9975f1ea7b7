// The analysis settings a report uses (PROTOCOL.md §14.6): the campaign's own, stored with it and checked when
// it was stored, each absent field taking its default. A campaign stored before the settings existed reads
// with the defaults; nothing stored changes.
import {
  ANALYSIS_DEFAULTS,
  isJsonObject,
  type AnalysisSettings,
  type PrimaryGoal,
} from 'feature-ts/protocol';

const primaryGoalOf = (value: unknown): PrimaryGoal | null =>
  isJsonObject(value) &&
  (value.type === 'event' || value.type === 'transaction') &&
  typeof value.name === 'string'
    ? { type: value.type, name: value.name }
    : null;

/** The settings in force for a stored campaign body (its `analysis`, defaults filled in). */
export const analysisInForce = (campaign: unknown): AnalysisSettings => {
  const stored = isJsonObject(campaign) && isJsonObject(campaign.analysis) ? campaign.analysis : {};
  return {
    primary_goal: primaryGoalOf(stored.primary_goal),
    method: stored.method === 'fixed' ? 'fixed' : ANALYSIS_DEFAULTS.method,
    alpha: typeof stored.alpha === 'number' ? stored.alpha : ANALYSIS_DEFAULTS.alpha,
    expected_visitors:
      typeof stored.expected_visitors === 'number'
        ? stored.expected_visitors
        : ANALYSIS_DEFAULTS.expected_visitors,
  };
};

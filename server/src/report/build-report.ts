// A campaign report (PROTOCOL.md §14), computed from stored rows so it survives restarts: visits (§14.1, see
// visit-window.ts), unique persons, conversions per goal with the attribution rule of §14.4, revenue, the
// fixed-horizon figures of §14.5, the always-valid figures of §14.7 (Holm-adjusted across a group's
// variations), the sample-ratio test and the verdicts of §14.8. The counting itself is campaign-tally.ts's,
// shared with the daily series.
import type {
  AnalysisSettings,
  CampaignReport,
  GoalFigures,
  TransactionGoalFigures,
  VariationGroupReport,
  VariationReport,
} from 'feature-ts/protocol';
import type { CampaignStore } from '../store/campaign-store.js';
import type { ReportStore } from '../store/report-store.js';
import { analysisOf } from '../validation/analysis-settings.js';
import { tallyCampaign, type CampaignTally, type GoalTally, type VariationTally } from './campaign-tally.js';
import { compareGoal, type GoalComparison } from './goal-comparison.js';
import { sampleRatio } from './sample-ratio.js';
import type { Proportion } from './statistics.js';

type GoalKind = 'event' | 'transaction';

const goalsOf = (v: VariationTally, kind: GoalKind): Map<string, GoalTally> =>
  kind === 'event' ? v.events : v.transactions;

const sideOf = (v: VariationTally, tally: GoalTally | undefined): Proportion => ({
  successes: tally?.visitors ?? 0,
  trials: v.visitors,
});

/** One group's figures on one goal, every variation in order. */
const goalFigures = (
  variations: readonly VariationTally[],
  kind: GoalKind,
  goal: string,
  settings: AnalysisSettings,
  mismatch: boolean,
): GoalFigures[] => {
  const sides = variations.map((v) => sideOf(v, goalsOf(v, kind).get(goal)));
  const primary = settings.primary_goal?.type === kind && settings.primary_goal.name === goal;
  const comparisons = compareGoal(
    sides,
    variations.findIndex((v) => v.reference),
    settings,
    primary,
    mismatch,
  );
  return variations.map((v, i): GoalFigures => {
    const side = sides[i] ?? { successes: 0, trials: 0 };
    return {
      conversions: goalsOf(v, kind).get(goal)?.conversions ?? 0,
      visitors: side.successes,
      rate: side.trials === 0 ? 0 : side.successes / side.trials,
      ...(comparisons[i] as GoalComparison),
    };
  });
};

/** The report of a campaign from its tally. */
export const reportOfTally = (
  { campaign, groups, eventGoals, transactionGoals }: CampaignTally,
  campaignId: string,
  now: Date,
): CampaignReport => {
  // The settings in force: the campaign's stored analysis, defaults filled in (old campaigns: the defaults).
  const settings = analysisOf(campaign);
  const sortedEvents = [...eventGoals].sort();
  const sortedTransactions = [...transactionGoals].sort();
  return {
    campaign_id: campaignId,
    generated_at: now.toISOString(),
    analysis: settings,
    variation_groups: [...groups].map(([id, byId]): VariationGroupReport => {
      const variations = [...byId.values()];
      // Allocations as they stand; a variation the campaign no longer defines has none.
      const defined = campaign.variationGroups.find((g) => g.id === id)?.variations ?? [];
      const allocations = variations.map((v) => defined.find((d) => d.id === v.id)?.allocation ?? 0);
      const srm = sampleRatio(
        variations.map((v) => v.visitors),
        allocations,
      );
      const mismatch = srm?.mismatch === true;
      const events = sortedEvents.map((goal) => goalFigures(variations, 'event', goal, settings, mismatch));
      const transactions = sortedTransactions.map((goal) =>
        goalFigures(variations, 'transaction', goal, settings, mismatch),
      );
      return {
        id,
        srm,
        variations: variations.map((v, i): VariationReport => ({
          id: v.id,
          name: v.name,
          reference: v.reference,
          visits: v.visits,
          visitors: v.visitors,
          // fromEntries defines own properties: a goal named __proto__ stays a plain key.
          events: Object.fromEntries(sortedEvents.map((goal, g) => [goal, events[g]?.[i] as GoalFigures])),
          transactions: Object.fromEntries(
            sortedTransactions.map((goal, g): [string, TransactionGoalFigures] => {
              const { conversions, visitors, rate, ...rest } = transactions[g]?.[i] as GoalFigures;
              return [
                goal,
                { conversions, visitors, rate, revenue: v.transactions.get(goal)?.revenue ?? 0, ...rest },
              ];
            }),
          ),
        })),
      };
    }),
  };
};

/** Computes the report of one campaign (deleted campaigns included: they are kept for reporting). */
export const buildCampaignReport = async (
  store: CampaignStore & ReportStore,
  envId: string,
  campaignId: string,
  now: Date = new Date(),
): Promise<CampaignReport> => reportOfTally(await tallyCampaign(store, envId, campaignId), campaignId, now);

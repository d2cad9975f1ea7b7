// A campaign report (PROTOCOL.md §14), computed from stored rows so it survives restarts: visits (§14.1, see
// visit-window.ts), unique persons, conversions per goal with the attribution rule of §14.4, revenue, and the
// comparison figures. The counting itself is campaign-tally.ts's, shared with the daily series.
import type {
  CampaignReport,
  GoalFigures,
  TransactionGoalFigures,
  VariationReport,
} from 'feature-ts/protocol';
import type { Store } from '../store/store.js';
import { tallyCampaign, type GoalTally, type VariationTally } from './campaign-tally.js';
import { twoProportionPValue, uplift, waldInterval95 } from './statistics.js';

const figures = (
  tally: GoalTally | undefined,
  visitors: number,
  reference: VariationTally | undefined,
  referenceTally: GoalTally | undefined,
  isReference: boolean,
): GoalFigures => {
  const converting = tally?.persons.size ?? 0;
  const rate = visitors === 0 ? 0 : converting / visitors;
  if (isReference || reference === undefined) {
    return {
      conversions: tally?.conversions ?? 0,
      visitors: converting,
      rate,
      uplift: null,
      p_value: null,
      ci95: null,
    };
  }
  const refConverting = referenceTally?.persons.size ?? 0;
  const refVisitors = reference.persons.size;
  const refRate = refVisitors === 0 ? 0 : refConverting / refVisitors;
  const ref = { successes: refConverting, trials: refVisitors };
  const own = { successes: converting, trials: visitors };
  return {
    conversions: tally?.conversions ?? 0,
    visitors: converting,
    rate,
    uplift: uplift(rate, refRate),
    p_value: twoProportionPValue(ref, own),
    ci95: waldInterval95(ref, own),
  };
};

/** Computes the report of one campaign (deleted campaigns included: they are kept for reporting). */
export const buildCampaignReport = async (
  store: Store,
  envId: string,
  campaignId: string,
  now: Date = new Date(),
): Promise<CampaignReport> => {
  const { groups, eventGoals, transactionGoals } = await tallyCampaign(store, envId, campaignId);
  const sortedEvents = [...eventGoals].sort();
  const sortedTransactions = [...transactionGoals].sort();
  return {
    campaign_id: campaignId,
    generated_at: now.toISOString(),
    variation_groups: [...groups].map(([id, variations]) => {
      const reference = [...variations.values()].find((v) => v.reference);
      return {
        id,
        variations: [...variations.values()].map((v): VariationReport => {
          const visitors = v.persons.size;
          // fromEntries defines own properties: a goal named __proto__ stays a plain key.
          const events: Record<string, GoalFigures> = Object.fromEntries(
            sortedEvents.map((goal) => [
              goal,
              figures(v.events.get(goal), visitors, reference, reference?.events.get(goal), v === reference),
            ]),
          );
          const transactions: Record<string, TransactionGoalFigures> = Object.fromEntries(
            sortedTransactions.map((goal) => {
              const tally = v.transactions.get(goal);
              const {
                conversions: c,
                visitors: u,
                rate,
                ...rest
              } = figures(tally, visitors, reference, reference?.transactions.get(goal), v === reference);
              return [goal, { conversions: c, visitors: u, rate, revenue: tally?.revenue ?? 0, ...rest }];
            }),
          );
          return {
            id: v.id,
            name: v.name,
            reference: v.reference,
            visits: v.visits,
            visitors,
            events,
            transactions,
          };
        }),
      };
    }),
  };
};

// A campaign report (PROTOCOL.md §14), computed from stored rows so it survives restarts: visits (§14.1, see
// visit-window.ts), unique persons, conversions per goal with the attribution rule of §14.4, revenue, and the
// comparison figures.
import type {
  CampaignReport,
  GoalFigures,
  TransactionGoalFigures,
  VariationReport,
} from 'feature-ts/protocol';
import { InputError } from '../errors.js';
import type { ReportConversion, Store } from '../store/store.js';
import { twoProportionPValue, uplift, waldInterval95 } from './statistics.js';
import { visitCounter } from './visit-window.js';

/** A hit created up to this long before the exposure still counts (§14.4: clock and queue jitter). */
export const ATTRIBUTION_SLACK_MS = 1000;

interface GoalTally {
  conversions: number;
  persons: Set<string>;
  revenue: number;
}

interface VariationTally {
  id: string;
  name: string;
  reference: boolean;
  visits: number;
  persons: Set<string>;
  events: Map<string, GoalTally>;
  transactions: Map<string, GoalTally>;
}

const tallyOf = (map: Map<string, GoalTally>, goal: string): GoalTally => {
  let tally = map.get(goal);
  if (tally === undefined) {
    tally = { conversions: 0, persons: new Set(), revenue: 0 };
    map.set(goal, tally);
  }
  return tally;
};

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
  const campaign = (await store.listCampaigns(envId, { includeDeleted: true })).find(
    (c) => c.id === campaignId,
  );
  if (campaign === undefined) {
    throw new InputError(
      `No campaign "${campaignId}" in environment "${envId}": list them with the remote control API or import a file.`,
    );
  }
  const groups = new Map<string, Map<string, VariationTally>>();
  for (const group of campaign.body.variationGroups) {
    const variations = new Map<string, VariationTally>();
    for (const v of group.variations) {
      variations.set(v.id, {
        id: v.id,
        name: v.name,
        reference: v.reference === true,
        visits: 0,
        persons: new Set(),
        events: new Map(),
        transactions: new Map(),
      });
    }
    groups.set(group.id, variations);
  }
  // person → variation group → [variation, time of the first exposure]; only the first variation counts.
  const firstExposure = new Map<string, Map<string, { variation: VariationTally; at: number }>>();
  // Exposures come in created order, as the visit windows of §14.1 need.
  const isVisit = visitCounter();
  for (const exposure of await store.reportExposures(envId, campaignId)) {
    let variations = groups.get(exposure.variationGroupId);
    if (variations === undefined) {
      variations = new Map();
      groups.set(exposure.variationGroupId, variations);
    }
    let variation = variations.get(exposure.variationId);
    if (variation === undefined) {
      variation = {
        id: exposure.variationId,
        name: '',
        reference: false,
        visits: 0,
        persons: new Set(),
        events: new Map(),
        transactions: new Map(),
      };
      variations.set(exposure.variationId, variation);
    }
    if (isVisit(exposure)) variation.visits++;
    let byGroup = firstExposure.get(exposure.person);
    if (byGroup === undefined) {
      byGroup = new Map();
      firstExposure.set(exposure.person, byGroup);
    }
    if (!byGroup.has(exposure.variationGroupId)) {
      byGroup.set(exposure.variationGroupId, { variation, at: exposure.createdMs });
      variation.persons.add(exposure.person);
    }
  }
  const eventGoals = new Set<string>();
  const transactionGoals = new Set<string>();
  const conversions: ReportConversion[] = await store.reportConversions(envId, campaignId);
  for (const hit of conversions) {
    (hit.kind === 'EVENT' ? eventGoals : transactionGoals).add(hit.goal);
    for (const { variation, at } of firstExposure.get(hit.person)?.values() ?? []) {
      if (at > hit.createdMs + ATTRIBUTION_SLACK_MS) continue;
      const tally = tallyOf(hit.kind === 'EVENT' ? variation.events : variation.transactions, hit.goal);
      tally.conversions++;
      tally.persons.add(hit.person);
      if (hit.kind === 'TRANSACTION') tally.revenue += hit.revenue;
    }
  }
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

// The report's figures computed from scratch from every stored row of a campaign, the way the server computed
// every report before issue 31: visits by the rule of §14.1 (visit-window.ts), conversions by the attribution
// rule of §14.4. The server now reads reports from rollups (campaign-tally.ts); this is the independent
// reference they are checked against (the property test, `feature-server report --check`). Its cost grows
// with the campaign's history: it reads every exposure and goal hit.
import type { CampaignStore } from '../store/campaign-store.js';
import type { ReportConversion, ReportStore } from '../store/report-store.js';
import { ATTRIBUTION_SLACK_MS, dayOf, fromMicros, toMicros } from './attribution.js';
import {
  storedCampaign,
  type CampaignTally,
  type DayCounts,
  type GoalTally,
  type VariationTally,
} from './campaign-tally.js';
import { visitCounter } from './visit-window.js';

// While scanning, persons are kept as sets and revenue in millionths (attribution.ts); the tally holds their
// counts and the revenue in currency units.
interface ScanGoal extends Omit<GoalTally, 'visitors' | 'revenue'> {
  persons: Set<string>;
  revenueMicros: number;
}
interface ScanVariation extends Omit<VariationTally, 'visitors' | 'events' | 'transactions'> {
  persons: Set<string>;
  events: Map<string, ScanGoal>;
  transactions: Map<string, ScanGoal>;
}

const countDay = (days: DayCounts, createdMs: number): void => {
  const day = dayOf(createdMs);
  days.set(day, (days.get(day) ?? 0) + 1);
};

const tallyOf = (map: Map<string, ScanGoal>, goal: string): ScanGoal => {
  let tally = map.get(goal);
  if (tally === undefined) {
    tally = { conversions: 0, persons: new Set(), revenueMicros: 0, days: new Map() };
    map.set(goal, tally);
  }
  return tally;
};

const emptyVariation = (id: string, name: string, reference: boolean): ScanVariation => ({
  id,
  name,
  reference,
  visits: 0,
  visitDays: new Map(),
  persons: new Set(),
  events: new Map(),
  transactions: new Map(),
});

const countsOf = (goals: Map<string, ScanGoal>): Map<string, GoalTally> =>
  new Map(
    [...goals].map(([goal, { persons, revenueMicros, ...rest }]): [string, GoalTally] => [
      goal,
      { ...rest, visitors: persons.size, revenue: fromMicros(revenueMicros) },
    ]),
  );

/**
 * Tallies one campaign from every stored row (deleted campaigns included: they are kept for reporting). Throws
 * InputError when the environment never had it.
 */
export const scanCampaign = async (
  store: CampaignStore & ReportStore,
  envId: string,
  campaignId: string,
): Promise<CampaignTally> => {
  const campaign = { body: await storedCampaign(store, envId, campaignId) };
  const groups = new Map<string, Map<string, ScanVariation>>();
  for (const group of campaign.body.variationGroups) {
    const variations = new Map<string, ScanVariation>();
    for (const v of group.variations)
      variations.set(v.id, emptyVariation(v.id, v.name, v.reference === true));
    groups.set(group.id, variations);
  }
  // person → variation group → [variation, time of the first exposure]; only the first variation counts.
  const firstExposure = new Map<string, Map<string, { variation: ScanVariation; at: number }>>();
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
      variation = emptyVariation(exposure.variationId, '', false);
      variations.set(exposure.variationId, variation);
    }
    if (isVisit(exposure)) {
      variation.visits++;
      countDay(variation.visitDays, exposure.createdMs);
    }
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
      countDay(tally.days, hit.createdMs);
      if (hit.kind === 'TRANSACTION') tally.revenueMicros += toMicros(hit.revenue);
    }
  }
  return {
    campaign: campaign.body,
    groups: new Map(
      [...groups].map(([id, variations]) => [
        id,
        new Map(
          [...variations].map(
            ([vid, { persons, events, transactions, ...rest }]): [string, VariationTally] => [
              vid,
              {
                ...rest,
                visitors: persons.size,
                events: countsOf(events),
                transactions: countsOf(transactions),
              },
            ],
          ),
        ),
      ]),
    ),
    eventGoals,
    transactionGoals,
    revision: null,
  };
};

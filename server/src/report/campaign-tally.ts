// The one pass over a campaign's stored rows that both the §14.5 report (build-report.ts) and its daily series
// (daily-series.ts) are read from, so the two cannot disagree: visits follow the rule of §14.1
// (visit-window.ts), conversions the attribution rule of §14.4. Each count is also kept per UTC day of the
// row's created time (the exposure's for a visit, the hit's for a conversion).
import type { BucketingCampaign } from 'feature-ts/protocol';
import { InputError } from '../errors.js';
import type { ReportConversion, Store } from '../store/store.js';
import { visitCounter } from './visit-window.js';

/** A hit created up to this long before the exposure still counts (§14.4: clock and queue jitter). */
export const ATTRIBUTION_SLACK_MS = 1000;

/** The length of a UTC day: day numbers are epoch milliseconds divided by it, rounded down. */
export const DAY_MS = 86_400_000;

/** How many rows fell on each UTC day number. */
export type DayCounts = Map<number, number>;

/** What one goal of one variation adds up to. */
export interface GoalTally {
  conversions: number;
  persons: Set<string>;
  revenue: number;
  /** Conversions per UTC day of the hit's created time. */
  days: DayCounts;
}

/** What one variation adds up to. */
export interface VariationTally {
  id: string;
  name: string;
  reference: boolean;
  visits: number;
  /** Visits per UTC day of the exposure's created time. */
  visitDays: DayCounts;
  /** Persons whose first exposure in the group is this variation. */
  persons: Set<string>;
  events: Map<string, GoalTally>;
  transactions: Map<string, GoalTally>;
}

/** A campaign's tallies: variations by group (the definition's order, then unknown ones) and goals seen. */
export interface CampaignTally {
  /** The campaign as stored (its allocations and analysis settings). */
  campaign: BucketingCampaign;
  groups: Map<string, Map<string, VariationTally>>;
  /** Every event goal of an exposed person, attributed or not: each is shown for every variation. */
  eventGoals: Set<string>;
  transactionGoals: Set<string>;
}

const countDay = (days: DayCounts, createdMs: number): void => {
  const day = Math.floor(createdMs / DAY_MS);
  days.set(day, (days.get(day) ?? 0) + 1);
};

const tallyOf = (map: Map<string, GoalTally>, goal: string): GoalTally => {
  let tally = map.get(goal);
  if (tally === undefined) {
    tally = { conversions: 0, persons: new Set(), revenue: 0, days: new Map() };
    map.set(goal, tally);
  }
  return tally;
};

const emptyVariation = (id: string, name: string, reference: boolean): VariationTally => ({
  id,
  name,
  reference,
  visits: 0,
  visitDays: new Map(),
  persons: new Set(),
  events: new Map(),
  transactions: new Map(),
});

/**
 * Tallies one campaign (deleted campaigns included: they are kept for reporting). Throws InputError when the
 * environment never had it.
 */
export const tallyCampaign = async (
  store: Store,
  envId: string,
  campaignId: string,
): Promise<CampaignTally> => {
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
    for (const v of group.variations)
      variations.set(v.id, emptyVariation(v.id, v.name, v.reference === true));
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
      if (hit.kind === 'TRANSACTION') tally.revenue += hit.revenue;
    }
  }
  return { campaign: campaign.body, groups, eventGoals, transactionGoals };
};

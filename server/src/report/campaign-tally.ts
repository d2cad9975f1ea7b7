// What both the §14.5 report (build-report.ts) and its daily series (daily-series.ts) are read from, so the two
// cannot disagree: a campaign's visits (§14.1), visitors (§14.2) and conversions per goal (§14.3-14.4), each
// count also per UTC day of the row's created time (the exposure's for a visit, the hit's for a conversion).
// Read from the rollups (issue 31): its cost depends on groups × variations × goals × days, never on how many
// rows were stored. reference-tally.ts computes the same from every stored row.
import type { BucketingCampaign } from 'feature-ts/protocol';
import { InputError } from '../errors.js';
import type { StoredRollupCell } from '../store/rollups/rollups-sql.js';
import type { CampaignStore } from '../store/campaign-store.js';
import type { ReportStore } from '../store/report-store.js';
import { fromMicros } from './attribution.js';
import { ALL_DAYS } from './rollups/rollup-cells.js';

/** How many rows fell on each UTC day number. */
export type DayCounts = Map<number, number>;

/** What one goal of one variation adds up to. */
export interface GoalTally {
  conversions: number;
  /** Converting visitors: persons with at least one attributed conversion. */
  visitors: number;
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
  visitors: number;
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
  /** The rollups' revision the tally was read at (null: computed from the stored rows). */
  revision: number | null;
}

/** A tally of a variation with nothing counted. */
export const emptyVariationTally = (id: string, name: string, reference: boolean): VariationTally => ({
  id,
  name,
  reference,
  visits: 0,
  visitDays: new Map(),
  visitors: 0,
  events: new Map(),
  transactions: new Map(),
});

/** The campaign as stored, deleted ones included (kept for reporting); InputError when never known. */
export const storedCampaign = async (
  store: CampaignStore,
  envId: string,
  campaignId: string,
): Promise<BucketingCampaign> => {
  const campaign = (await store.listCampaigns(envId, { includeDeleted: true })).find(
    (c) => c.id === campaignId,
  );
  if (campaign === undefined) {
    throw new InputError(
      `No campaign "${campaignId}" in environment "${envId}": list them with the remote control API or import a file.`,
    );
  }
  return campaign.body;
};

const byFirstActivation = (a: StoredRollupCell, b: StoredRollupCell): number =>
  (a.firstMs ?? 0) - (b.firstMs ?? 0) || (a.firstSeq ?? 0) - (b.firstSeq ?? 0);

/** A tally from a campaign's rollup cells (the campaign as stored gives the order and names). */
export const tallyOfCells = (
  campaign: BucketingCampaign,
  cells: readonly StoredRollupCell[],
  revision: number | null,
): CampaignTally => {
  const groups = new Map<string, Map<string, VariationTally>>();
  for (const group of campaign.variationGroups) {
    const variations = new Map<string, VariationTally>();
    for (const v of group.variations)
      variations.set(v.id, emptyVariationTally(v.id, v.name, v.reference === true));
    groups.set(group.id, variations);
  }
  // Groups and variations no longer defined but exposed come after, in the order of their first activation.
  const variationOf = (groupId: string, variationId: string): VariationTally => {
    let variations = groups.get(groupId);
    if (variations === undefined) {
      variations = new Map();
      groups.set(groupId, variations);
    }
    let variation = variations.get(variationId);
    if (variation === undefined) {
      variation = emptyVariationTally(variationId, '', false);
      variations.set(variationId, variation);
    }
    return variation;
  };
  const firsts = cells.filter((c) => c.goalKind === '' && c.day === ALL_DAYS && c.firstMs !== null);
  for (const cell of [...firsts].sort(byFirstActivation)) variationOf(cell.groupId, cell.variationId);

  const eventGoals = new Set<string>();
  const transactionGoals = new Set<string>();
  for (const cell of cells) {
    if (cell.groupId === '' && cell.variationId === '') {
      if (cell.seen > 0) (cell.goalKind === 'event' ? eventGoals : transactionGoals).add(cell.goal);
      continue;
    }
    const variation = variationOf(cell.groupId, cell.variationId);
    if (cell.goalKind === '') {
      if (cell.day === ALL_DAYS) variation.visitors += cell.visitors;
      else if (cell.visits !== 0) {
        variation.visits += cell.visits;
        variation.visitDays.set(cell.day, cell.visits);
      }
      continue;
    }
    const goals = cell.goalKind === 'event' ? variation.events : variation.transactions;
    let goal = goals.get(cell.goal);
    if (goal === undefined) {
      goal = { conversions: 0, visitors: 0, revenue: 0, days: new Map() };
      goals.set(cell.goal, goal);
    }
    if (cell.day === ALL_DAYS) {
      goal.visitors += cell.converters;
      goal.revenue = fromMicros(cell.revenueMicros);
    } else if (cell.conversions !== 0) {
      goal.conversions += cell.conversions;
      goal.days.set(cell.day, cell.conversions);
    }
  }
  return { campaign, groups, eventGoals, transactionGoals, revision };
};

/**
 * Tallies one campaign from its rollups, every row stored before the call included (deleted campaigns too:
 * they are kept for reporting). Throws InputError when the environment never had it.
 */
export const tallyCampaign = async (
  store: CampaignStore & ReportStore,
  envId: string,
  campaignId: string,
): Promise<CampaignTally> => {
  const campaign = await storedCampaign(store, envId, campaignId);
  const { revision, cells } = await store.campaignRollups(envId, campaignId);
  return tallyOfCells(campaign, cells, revision);
};

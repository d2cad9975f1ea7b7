// A campaign report's figures per UTC day, for the console's chart: visits and conversions of each variation
// on each day, read from the same tallies as the §14.5 report (campaign-tally.ts), so that a series summed
// over its days is the report's figure whenever every row falls inside the days shown.
import type { DailySeries } from 'feature-ts/protocol';
import type { CampaignStore } from '../store/campaign-store.js';
import type { ReportStore } from '../store/report-store.js';
import { DAY_MS } from './attribution.js';
import { tallyCampaign, type CampaignTally, type DayCounts, type GoalTally } from './campaign-tally.js';

/** The most days a series shows: the last ones, today included. */
export const MAX_SERIES_DAYS = 90;

const seriesOf = (counts: DayCounts | undefined, first: number, length: number): number[] =>
  Array.from({ length }, (_, i) => counts?.get(first + i) ?? 0);

const goalSeries = (
  goals: readonly string[],
  tallies: Map<string, GoalTally>,
  first: number,
  length: number,
): Record<string, number[]> =>
  // fromEntries defines own properties: a goal named __proto__ stays a plain key.
  Object.fromEntries(goals.map((goal) => [goal, seriesOf(tallies.get(goal)?.days, first, length)]));

/**
 * The daily series of one campaign up to `now`'s UTC day (deleted campaigns included). Rows of days older than
 * the last 90, or dated after `now` (a clock behind the rows), are outside every series. Throws InputError when
 * the environment never had the campaign.
 */
export const buildDailySeries = async (
  store: CampaignStore & ReportStore,
  envId: string,
  campaignId: string,
  now: Date,
): Promise<DailySeries> => seriesOfTally(await tallyCampaign(store, envId, campaignId), campaignId, now);

/** The daily series of a campaign from its tally, up to `now`'s UTC day. */
export const seriesOfTally = (
  { groups, eventGoals, transactionGoals }: CampaignTally,
  campaignId: string,
  now: Date,
): DailySeries => {
  // The first exposure is always a visit (§14.1 opens a window there); a hit attributed through the 1 s slack
  // may fall on the day before it, and is shown too, so that sums stay whole.
  let earliest = Infinity;
  for (const byId of groups.values())
    for (const v of byId.values())
      for (const days of [
        v.visitDays,
        ...[...v.events.values(), ...v.transactions.values()].map((g) => g.days),
      ])
        for (const day of days.keys()) earliest = Math.min(earliest, day);
  const today = Math.floor(now.getTime() / DAY_MS);
  const first = Math.max(earliest, today - MAX_SERIES_DAYS + 1);
  // No row: first is Infinity; rows only after today: first > today. Both show no day.
  const length = Number.isFinite(first) ? Math.max(0, today - first + 1) : 0;
  const sortedEvents = [...eventGoals].sort();
  const sortedTransactions = [...transactionGoals].sort();
  return {
    campaign_id: campaignId,
    days: Array.from({ length }, (_, i) => new Date((first + i) * DAY_MS).toISOString().slice(0, 10)),
    variation_groups: [...groups].map(([id, byId]) => ({
      id,
      variations: [...byId.values()].map((v) => ({
        id: v.id,
        name: v.name,
        reference: v.reference,
        visits: seriesOf(v.visitDays, first, length),
        conversions: goalSeries(sortedEvents, v.events, first, length),
        transactions: goalSeries(sortedTransactions, v.transactions, first, length),
      })),
    })),
  };
};

// Pure helpers of the live traffic screen over the traffic route's rows (GET …/environments/{envId}/traffic):
// merging a poll's new rows into the list shown, and names for the ids an exposure carries.
import type { TrafficCursor, TrafficEntry } from 'feature-ts/protocol';
import type { RemoteCampaign } from '../types.js';

/** How many rows the screen keeps. */
export const MAX_ROWS = 100;

/** A row's key, unique across both kinds (each kind has its own seq). */
export const itemKey = (item: TrafficEntry): string => `${item.kind}:${item.seq}`;

/** New rows on top of the shown ones, without duplicates, newest first, at most `MAX_ROWS`. */
export const mergeItems = (
  shown: readonly TrafficEntry[],
  fresh: readonly TrafficEntry[],
): { items: TrafficEntry[]; added: number } => {
  const known = new Set(shown.map(itemKey));
  const added = fresh.filter((item) => !known.has(itemKey(item)));
  const items = [...added, ...shown]
    .sort((a, b) => b.received_at.localeCompare(a.received_at) || b.seq - a.seq)
    .slice(0, MAX_ROWS);
  return { items, added: added.length };
};

/** The query string of a poll. */
export const trafficQuery = (cursor: TrafficCursor | null, visitor: string): string => {
  const query = new URLSearchParams({ limit: String(MAX_ROWS) });
  if (cursor !== null) {
    query.set('after_activation', String(cursor.activation));
    query.set('after_hit', String(cursor.hit));
  }
  if (visitor !== '') query.set('visitor', visitor);
  return query.toString();
};

const HIT_TYPES: Record<string, string> = {
  EVENT: 'Event',
  TRANSACTION: 'Transaction',
  PAGEVIEW: 'Page view',
  SCREENVIEW: 'Screen view',
  ITEM: 'Item',
  SEGMENT: 'Context (segment)',
};

/** What a row is, in words: "Exposure" or the hit type. */
export const kindLabel = (item: TrafficEntry): string =>
  item.kind === 'activation' ? 'Exposure' : (HIT_TYPES[item.type] ?? item.type);

/** Names of campaigns, groups and variations by id, from the environment's campaign list. */
export interface CampaignNames {
  campaigns: Map<string, string>;
  groups: Map<string, string>;
  variations: Map<string, string>;
}

/** The names found in a campaign list. */
export const campaignNames = (campaigns: readonly RemoteCampaign[]): CampaignNames => {
  const names: CampaignNames = { campaigns: new Map(), groups: new Map(), variations: new Map() };
  for (const campaign of campaigns) {
    names.campaigns.set(campaign.id, campaign.name);
    for (const group of campaign.variation_groups) {
      names.groups.set(group.id, group.name);
      for (const variation of group.variations) names.variations.set(variation.id, variation.name);
    }
  }
  return names;
};

/** Whether some exposure names a campaign the list does not know (made since it was read). */
export const hasUnknownCampaign = (items: readonly TrafficEntry[], names: CampaignNames): boolean =>
  items.some((item) => item.kind === 'activation' && !names.campaigns.has(item.campaign_id));

/** A received time for the table: "14:03:05", with the date when it is not today. */
export const receivedLabel = (iso: string, now = new Date()): string => {
  const date = new Date(iso);
  const time = date.toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  });
  return date.toDateString() === now.toDateString()
    ? time
    : `${date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })} ${time}`;
};

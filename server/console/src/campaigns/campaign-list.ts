// Pure helpers of the campaigns list: loading every page (the search covers the whole environment, not one
// page), the search, and the texts of the table's cells.
import type { RemoteCampaign, RemotePage } from 'feature-ts/protocol';
import { seg, type ConsoleApi } from '../api.js';
import { trafficShare } from './campaign-draft.js';

/** The server's largest page (`_max_per_page`). */
const SERVER_PAGE = 100;

/** Every campaign of an environment, in the stored order (the order decisions follow). */
export const loadAllCampaigns = async (api: ConsoleApi, envId: string): Promise<RemoteCampaign[]> => {
  const all: RemoteCampaign[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await api.get<RemotePage<RemoteCampaign>>(
      `/environments/${seg(envId)}/campaigns?_page=${page}&_max_per_page=${SERVER_PAGE}`,
    );
    all.push(...answer.items);
    if (page >= answer.last_page || answer.items.length === 0) return all;
  }
};

/** Campaign types with their names and what each is for. */
export const TYPE_INFO: Readonly<Record<string, { name: string; hint: string }>> = {
  ab: { name: 'A/B test', hint: 'split visitors between variations and compare them in the report' },
  toggle: { name: 'Feature toggle', hint: 'turn a feature on or off for the visitors you target' },
  deployment: { name: 'Progressive deployment', hint: 'roll a change out to a growing share of visitors' },
  perso: { name: 'Personalisation', hint: 'give each targeted audience its own experience' },
};

/** A campaign type's name ("A/B test"), or the type itself when unknown. */
export const typeName = (type: string): string => TYPE_INFO[type]?.name ?? type;

/** True when the campaign's name, slug, id or one of its flag keys contains `query` (any case). */
export const matches = (campaign: RemoteCampaign, query: string): boolean => {
  const q = query.trim().toLowerCase();
  if (q === '') return true;
  const texts = [campaign.name, campaign.slug ?? '', campaign.id];
  for (const group of campaign.variation_groups)
    for (const variation of group.variations) texts.push(...Object.keys(variation.modifications.value));
  return texts.some((text) => text.toLowerCase().includes(q));
};

/** The share of visitors the campaign covers: the width of its traffic ranges (bucket_ranges). */
export const trafficText = (campaign: RemoteCampaign): string => `${trafficShare(campaign.bucket_ranges)} %`;

/** The number of variations over all groups. */
export const variationCount = (campaign: RemoteCampaign): number =>
  campaign.variation_groups.reduce((sum, group) => sum + group.variations.length, 0);

const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const STEPS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
];

/** "5 minutes ago" for recent times, else the local date. */
export const relativeTime = (iso: string, now = Date.now()): string => {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  let amount = (time - now) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return RELATIVE.format(Math.round(amount), unit);
    amount /= size;
  }
  return new Date(time).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
};

// Shared setup of the report-rollup tests (issue 31): an environment with three campaigns (four variation
// groups, two of them in one campaign), rows built the way the collect routes build them (created = received −
// qt), and the check that matters: the report and daily series read from the rollups (tallyCampaign) equal the
// ones computed from every stored row (scanCampaign, the pre-issue algorithm), revenue within 1e-9 relative.
import type { BucketingCampaign, CampaignReport, DailySeries } from '../../../src/protocol/index.js';
import { reportOfTally } from '../../../server/src/report/build-report.js';
import { tallyCampaign } from '../../../server/src/report/campaign-tally.js';
import { seriesOfTally } from '../../../server/src/report/daily-series.js';
import { scanCampaign } from '../../../server/src/report/reference-tally.js';
import type { ActivationRow, HitRow } from '../../../server/src/store/collect-store.js';
import type { Store } from '../../../server/src/store/store.js';

/** 2026-11-20 00:00 UTC: the day the tests' rows start on. */
export const DAY0 = Date.UTC(2026, 10, 20);
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** The `now` reports and series are read at: a few days after every row, so every day is in the series. */
export const NOW = new Date(DAY0 + 6 * DAY);

const EVERYONE = {
  targetingGroups: [{ targetings: [{ operator: 'EQUALS', key: 'fs_all_users', value: '' }] }],
};

const group = (id: string, variations: readonly string[]): BucketingCampaign['variationGroups'][number] => ({
  id,
  name: `Group ${id}`,
  targeting: EVERYONE,
  variations: variations.map((v, i) => ({
    id: v,
    name: `Variation ${v}`,
    reference: i === 0,
    allocation: Math.floor(100 / variations.length) + (i === 0 ? 100 % variations.length : 0),
    modifications: { type: 'FLAG', value: { [`flag_${id}`]: i } },
  })),
});

/** The campaigns of every environment here: c1 has two groups (g1: 3 variations, g2: 2), c2 and c3 one each. */
export const ROLLUP_CAMPAIGNS: readonly BucketingCampaign[] = [
  {
    id: 'c1',
    name: 'Checkout',
    type: 'ab',
    variationGroups: [group('g1', ['v1', 'v2', 'v3']), group('g2', ['v4', 'v5'])],
  },
  { id: 'c2', name: 'Banner', type: 'ab', variationGroups: [group('g3', ['v6', 'v7', 'v8'])] },
  { id: 'c3', name: 'Search', type: 'ab', variationGroups: [group('g4', ['v9', 'v10'])] },
];

/** Campaign of each variation group, ghosts included (groups and variations the campaigns never defined). */
export const CAMPAIGN_OF_GROUP: Readonly<Record<string, string>> = {
  g1: 'c1',
  g2: 'c1',
  g3: 'c2',
  g4: 'c3',
  gx: 'c2',
};

/** Variations per group as activations may name them: `v-gone` and group `gx` are not in any definition. */
export const VARIATIONS_OF_GROUP: Readonly<Record<string, readonly string[]>> = {
  g1: ['v1', 'v2', 'v3'],
  g2: ['v4', 'v5'],
  g3: ['v6', 'v7', 'v8'],
  g4: ['v9', 'v10'],
};

/** Creates an environment with {@link ROLLUP_CAMPAIGNS} in `accountId` (one per stream or case). */
export const rollupEnvironment = async (store: Store, accountId: string, name: string): Promise<string> => {
  const { environment } = await store.createEnvironment({ accountId, name });
  await store.replaceCampaigns(environment.id, [...ROLLUP_CAMPAIGNS]);
  return environment.id;
};

/** An activation as §4 stores it: created = received − qt. */
export const activation = (a: {
  vid: string;
  aid?: string | null;
  group: string;
  variation: string;
  createdMs: number;
  qt?: number;
  hid?: string | null;
}): ActivationRow => ({
  hid: a.hid ?? null,
  visitorId: a.vid,
  anonymousId: a.aid ?? null,
  campaignId: CAMPAIGN_OF_GROUP[a.group] ?? 'c1',
  variationGroupId: a.group,
  variationId: a.variation,
  createdMs: a.createdMs,
  receivedMs: a.createdMs + (a.qt ?? 0),
});

/** A hit as §5 stores it (`vid` the anonymous id, `cuid` the authenticated one). */
export const hit = (h: {
  type: 'EVENT' | 'TRANSACTION' | 'PAGEVIEW';
  vid: string;
  cuid?: string | null;
  goal?: string;
  revenue?: number | null;
  createdMs: number;
  qt?: number;
  hid?: string | null;
}): HitRow => {
  const qt = h.qt ?? 0;
  const goal = h.type === 'PAGEVIEW' ? null : (h.goal ?? 'add_to_cart');
  const revenue = h.type === 'TRANSACTION' ? (h.revenue ?? null) : null;
  const keys: Record<string, unknown> =
    h.type === 'EVENT'
      ? { ec: 'Action Tracking', ea: goal }
      : h.type === 'TRANSACTION'
        ? { tid: `T-${h.createdMs}`, ta: goal, ...(revenue === null ? {} : { tr: revenue }) }
        : { dl: '/checkout' };
  return {
    hid: h.hid ?? null,
    type: h.type,
    visitorId: h.vid,
    customerId: h.cuid ?? null,
    goal,
    revenue,
    createdMs: h.createdMs,
    receivedMs: h.createdMs + qt,
    body: {
      t: h.type,
      vid: h.vid,
      cuid: h.cuid ?? null,
      qt,
      ...(h.hid == null ? {} : { hid: h.hid }),
      ...keys,
    },
  };
};

/** The report and daily series of a campaign, read from the rollups or computed from every stored row. */
export interface ReportPair {
  report: CampaignReport;
  series: DailySeries;
}

/** The report and series from the rollups (every row stored before the call folded in). */
export const rollupReport = async (store: Store, envId: string, campaignId: string): Promise<ReportPair> => {
  const tally = await tallyCampaign(store, envId, campaignId);
  return { report: reportOfTally(tally, campaignId, NOW), series: seriesOfTally(tally, campaignId, NOW) };
};

/** The report and series computed from scratch from the stored rows (the reference). */
export const referenceReport = async (
  store: Store,
  envId: string,
  campaignId: string,
): Promise<ReportPair> => {
  const tally = await scanCampaign(store, envId, campaignId);
  return { report: reportOfTally(tally, campaignId, NOW), series: seriesOfTally(tally, campaignId, NOW) };
};

const REVENUE_TOLERANCE = 1e-9;

/**
 * Where `actual` differs from `expected` (paths and both values), `revenue` compared with a relative tolerance
 * of 1e-9 (sums in another order), `generated_at` not compared. Key order matters for maps the report shows in
 * order (variations, goals): arrays compare by index, objects by their sorted keys and their key order.
 */
export const differences = (actual: unknown, expected: unknown, path = ''): string[] => {
  if (typeof actual === 'number' && typeof expected === 'number' && path.endsWith('.revenue')) {
    const scale = Math.max(Math.abs(actual), Math.abs(expected));
    return Math.abs(actual - expected) <= REVENUE_TOLERANCE * scale
      ? []
      : [`${path}: ${actual} ≠ ${expected}`];
  }
  if (Array.isArray(actual) && Array.isArray(expected)) {
    const out: string[] =
      actual.length === expected.length ? [] : [`${path}.length: ${actual.length} ≠ ${expected.length}`];
    for (let i = 0; i < Math.min(actual.length, expected.length); i++)
      out.push(...differences(actual[i], expected[i], `${path}[${i}]`));
    return out;
  }
  if (
    typeof actual === 'object' &&
    actual !== null &&
    typeof expected === 'object' &&
    expected !== null &&
    !Array.isArray(actual) &&
    !Array.isArray(expected)
  ) {
    const a = actual as Record<string, unknown>;
    const e = expected as Record<string, unknown>;
    const out: string[] = [];
    const aKeys = Object.keys(a);
    const eKeys = Object.keys(e);
    if (aKeys.join('\u0000') !== eKeys.join('\u0000'))
      out.push(`${path}: keys ${JSON.stringify(aKeys)} ≠ ${JSON.stringify(eKeys)}`);
    for (const key of eKeys) {
      if (key === 'generated_at' || !(key in a)) continue;
      out.push(...differences(a[key], e[key], `${path}.${key}`));
    }
    return out;
  }
  return Object.is(actual, expected)
    ? []
    : [`${path}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`];
};

/** The differences between the rollups' report and series of a campaign and the reference's. */
export const rollupMismatches = async (
  store: Store,
  envId: string,
  campaignId: string,
): Promise<string[]> => {
  const rollup = await rollupReport(store, envId, campaignId);
  const reference = await referenceReport(store, envId, campaignId);
  return [
    ...differences(rollup.report, reference.report, `${campaignId}.report`),
    ...differences(rollup.series, reference.series, `${campaignId}.series`),
  ];
};

/** Figures of one variation of a report: what the hand-written cases assert. */
export interface VariationFigures {
  visits: number;
  visitors: number;
  /** Per goal (events and transactions together, transactions as `$name`): conversions, visitors, revenue. */
  goals: Record<string, [conversions: number, visitors: number, revenue?: number]>;
}

/** A report's figures per variation id (every group), for exact assertions. */
export const figuresOf = (report: CampaignReport): Record<string, VariationFigures> => {
  const out: Record<string, VariationFigures> = {};
  for (const g of report.variation_groups)
    for (const v of g.variations) {
      const goals: VariationFigures['goals'] = {};
      for (const [name, f] of Object.entries(v.events)) goals[name] = [f.conversions, f.visitors];
      for (const [name, f] of Object.entries(v.transactions))
        goals[`$${name}`] = [f.conversions, f.visitors, f.revenue];
      out[v.id] = { visits: v.visits, visitors: v.visitors, goals };
    }
  return out;
};

/** A series' figures per variation id: visits per day, and conversions per goal per day (transactions `$name`). */
export const seriesFiguresOf = (
  series: DailySeries,
): { days: string[]; variations: Record<string, { visits: number[]; goals: Record<string, number[]> }> } => {
  const variations: Record<string, { visits: number[]; goals: Record<string, number[]> }> = {};
  for (const g of series.variation_groups)
    for (const v of g.variations) {
      const goals: Record<string, number[]> = { ...v.conversions };
      for (const [name, days] of Object.entries(v.transactions)) goals[`$${name}`] = days;
      variations[v.id] = { visits: v.visits, goals };
    }
  return { days: series.days, variations };
};

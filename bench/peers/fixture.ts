// The workload every SDK of the peers rows runs: the engine bench's bucketing file and its 10 000 visitors,
// and the subset of that file the platform's JS SDK can evaluate the way ours does.
import { readFileSync } from 'node:fs';
import type { BucketingCampaign, BucketingFile, JsonValue } from '../../src/protocol/index.js';

/** The engine bench's fixture: 50 campaigns × 2 variation groups × 3 mixed targeting rules. */
export const FIXTURE = new URL('../fixtures/engine-50x2x3.json', import.meta.url);

/** Reads the fixture (a fresh copy on each call: adapters may keep or freeze what they are given). */
export const loadFixture = (): BucketingFile => JSON.parse(readFileSync(FIXTURE, 'utf8')) as BucketingFile;

/** The benches' 10 000 visitors: peers and ours see the very same ids and contexts. */
export { BENCH_VISITORS as VISITORS, benchVisitors as visitors } from '../visitors.js';

/** Every flag key the file's variations set, in file order, each once. */
export const flagKeys = (file: BucketingFile): string[] => {
  const keys = new Set<string>();
  for (const campaign of file.campaigns)
    for (const group of campaign.variationGroups)
      for (const variation of group.variations) {
        const value = variation.modifications.value as Record<string, JsonValue> | null;
        for (const key of Object.keys(value ?? {})) keys.add(key);
      }
  return [...keys];
};

/** The default a read passes for `key`, of the type the fixture's values have (strings for flagN, numbers else). */
export const defaultFor = (key: string): string | number => (key.startsWith('flag') ? 'default' : -1);

/** The subset of the fixture that both ours and the platform's JS SDK evaluate, and what was taken out. */
export interface ComparableSubset {
  file: BucketingFile;
  /** Variation groups removed because a rule uses a SEMVER_* operator. */
  removedGroups: number;
  /** Campaigns removed because all their variation groups were. */
  removedCampaigns: number;
  /** Campaigns whose `bucketRanges` were widened to [0, 100) (the platform's SDK ignores them). */
  widenedCampaigns: number;
}

const usesSemver = (group: BucketingCampaign['variationGroups'][number]): boolean =>
  (group.targeting?.targetingGroups ?? []).some((g) =>
    g.targetings.some((t) => t.operator.startsWith('SEMVER_')),
  );

const isWholeTraffic = (campaign: BucketingCampaign): boolean =>
  campaign.bucketRanges === undefined || campaign.bucketRanges.some(({ r }) => r[0] <= 0 && r[1] >= 100);

/**
 * The fixture without what the platform's JS SDK (5.2.0) does not evaluate as PROTOCOL.md says:
 * - SEMVER_* operators (its engine has none: a rule using one never matches). The variation groups using one
 *   are removed rather than their campaigns: of the fixture's 23 campaigns with such a group, only 5 have no
 *   other group, so 45 campaigns stay instead of 27. A visitor who matched a removed group may now match the
 *   campaign's next group; every SDK is given the same subset, so they still compare.
 * - campaign `bucketRanges` (§8.3): its SDK has no traffic check at all, so a campaign with a narrower range
 *   is widened to the whole traffic rather than leaving each SDK to do different work.
 */
export const comparableSubset = (file: BucketingFile): ComparableSubset => {
  let removedGroups = 0;
  let removedCampaigns = 0;
  let widenedCampaigns = 0;
  const campaigns: BucketingCampaign[] = [];
  for (const campaign of file.campaigns) {
    const groups = campaign.variationGroups.filter((g) => !usesSemver(g));
    removedGroups += campaign.variationGroups.length - groups.length;
    if (groups.length === 0) {
      removedCampaigns++;
      continue;
    }
    const widen = !isWholeTraffic(campaign);
    if (widen) widenedCampaigns++;
    campaigns.push({
      ...campaign,
      variationGroups: groups,
      ...(widen ? { bucketRanges: [{ r: [0, 100] }] } : {}),
    });
  }
  return { file: { ...file, campaigns }, removedGroups, removedCampaigns, widenedCampaigns };
};

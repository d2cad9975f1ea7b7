// The limits of CAMPAIGN_LIMITS that need the environment's other campaigns (issue 29): one campaign's
// size, and the number of an environment's campaigns, their total size, targetings and list items. Checked in the store, inside each
// write's transaction (which has locked the environment row), so every way of storing campaigns (remote
// control API, operator routes, console, import, CLI) keeps to them and concurrent edits cannot both pass.
import { CAMPAIGN_LIMITS, type BucketingCampaign, type Targeting } from 'feature-ts/protocol';
import { InputError } from '../errors.js';
import { num, type Queryable } from './sql.js';

/** A campaign's JSON as stored, with its UTF-8 size and its number of targetings. */
export interface SizedCampaign {
  readonly json: string;
  readonly bytes: number;
  readonly targetings: number;
  readonly listItems: number;
}

/** The campaign's targetings (rules), over every group's targeting groups. */
const targetingsOf = (campaign: BucketingCampaign): Targeting[] =>
  campaign.variationGroups.flatMap((group) =>
    (group.targeting?.targetingGroups ?? []).flatMap((tg) => tg.targetings),
  );

const kib = (bytes: number): string => `${Math.ceil(bytes / 1024)} KiB`;

/** The campaign's JSON and size; throws InputError past `maxCampaignBytes`. */
export const sizedCampaign = (campaign: BucketingCampaign): SizedCampaign => {
  const json = JSON.stringify(campaign);
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > CAMPAIGN_LIMITS.maxCampaignBytes) {
    throw new InputError(
      `Campaign "${campaign.id}" is ${kib(bytes)} as JSON; a campaign holds at most ${kib(CAMPAIGN_LIMITS.maxCampaignBytes)} (docs/http-api.md, Limits): shorten its targeting lists or split it.`,
    );
  }
  const targetings = targetingsOf(campaign);
  const listItems = targetings.reduce((n, t) => n + (Array.isArray(t.value) ? t.value.length : 0), 0);
  return { json, bytes, targetings: targetings.length, listItems };
};

/** An environment's campaigns, summed. */
export interface EnvironmentTotals {
  readonly campaigns: number;
  readonly bytes: number;
  readonly targetings: number;
  readonly listItems: number;
}

/** The totals of `sized` campaigns. */
export const totalsOf = (sized: readonly SizedCampaign[]): EnvironmentTotals => ({
  campaigns: sized.length,
  bytes: sized.reduce((n, c) => n + c.bytes, 0),
  targetings: sized.reduce((n, c) => n + c.targetings, 0),
  listItems: sized.reduce((n, c) => n + c.listItems, 0),
});

/** Throws InputError when an environment's campaigns would pass its limits. */
export const checkEnvironmentTotals = (
  envId: string,
  { campaigns: count, bytes, targetings, listItems }: EnvironmentTotals,
): void => {
  if (count > CAMPAIGN_LIMITS.maxCampaignsPerEnvironment) {
    throw new InputError(
      `Environment "${envId}" would hold ${count} campaigns; it holds at most ${CAMPAIGN_LIMITS.maxCampaignsPerEnvironment} (docs/http-api.md, Limits): delete campaigns that have ended.`,
    );
  }
  if (bytes > CAMPAIGN_LIMITS.maxEnvironmentBytes) {
    throw new InputError(
      `Environment "${envId}"'s campaigns would take ${kib(bytes)} as JSON; they take at most ${kib(CAMPAIGN_LIMITS.maxEnvironmentBytes)} in all (docs/http-api.md, Limits): delete campaigns that have ended or shorten targeting lists.`,
    );
  }
  if (targetings > CAMPAIGN_LIMITS.maxTargetingsPerEnvironment) {
    throw new InputError(
      `Environment "${envId}"'s campaigns would hold ${targetings} targetings; they hold at most ${CAMPAIGN_LIMITS.maxTargetingsPerEnvironment} in all, since a decision may evaluate every one (docs/http-api.md, Limits): delete campaigns that have ended, or merge rules into lists (one rule with a list of values counts once).`,
    );
  }
  if (listItems > CAMPAIGN_LIMITS.maxListItemsPerEnvironment) {
    throw new InputError(
      `Environment "${envId}"'s targeting lists would hold ${listItems} items; they hold at most ${CAMPAIGN_LIMITS.maxListItemsPerEnvironment} in all (docs/http-api.md, Limits): delete campaigns that have ended, or target a context key the list's members share.`,
    );
  }
};

/** Throws InputError when storing `sized` as campaign `campaignId` (new or replacing its body) passes a limit. */
export const checkRoomFor = async (
  tx: Queryable,
  envId: string,
  campaignId: string,
  sized: SizedCampaign,
): Promise<void> => {
  const [others] = await tx.query(
    `SELECT count(*) AS count, COALESCE(sum(body_bytes), 0) AS bytes, COALESCE(sum(targetings), 0) AS targetings,
       COALESCE(sum(list_items), 0) AS list_items
     FROM campaigns WHERE env_id = $1 AND deleted_ms IS NULL AND id <> $2`,
    [envId, campaignId],
  );
  const row = others ?? {};
  checkEnvironmentTotals(envId, {
    campaigns: num(row, 'count') + 1,
    bytes: num(row, 'bytes') + sized.bytes,
    targetings: num(row, 'targetings') + sized.targetings,
    listItems: num(row, 'list_items') + sized.listItems,
  });
};

// The limits of CAMPAIGN_LIMITS that need the environment's other campaigns (issue 29): one campaign's size,
// and an environment's number of campaigns, their total size, targetings, list items and pattern characters.
// Checked in the store, inside each write's transaction (which has locked the environment row), so every way
// of storing campaigns (remote control API, operator routes, console, import, CLI) keeps to them and two
// concurrent edits cannot both pass. A write that leaves a total no higher than it was is never refused for
// it: an environment stored before a limit existed (or above a limit lowered later) can still be shrunk.
import {
  CAMPAIGN_LIMITS,
  PATTERN_ITEM_MIN_CHARACTERS,
  PATTERN_OPERATORS,
  type BucketingCampaign,
  type Targeting,
} from 'feature-ts/protocol';
import { InputError } from '../../errors.js';
import { num, type Queryable } from './sql.js';

/** What one campaign counts toward its environment's totals (kept in columns beside its body, migration 008). */
export interface CampaignCounts {
  /** UTF-8 bytes of its JSON (`body_bytes`). */
  readonly bytes: number;
  /** Its targetings (`targetings`). */
  readonly targetings: number;
  /** The items of its targeting lists (`list_items`). */
  readonly listItems: number;
  /** Characters of its CONTAINS/NOT_CONTAINS/STARTS_WITH/ENDS_WITH targets, each at least 8 (`pattern_chars`). */
  readonly patternChars: number;
}

/** A campaign's JSON as stored, with its counts. */
export interface SizedCampaign extends CampaignCounts {
  readonly json: string;
}

/** An environment's campaigns, summed. */
export interface EnvironmentTotals extends CampaignCounts {
  readonly campaigns: number;
}

const kib = (bytes: number): string => `${Math.ceil(bytes / 1024)} KiB`;

/** The campaign's targetings (rules), over every group's targeting groups. */
const targetingsOf = (campaign: BucketingCampaign): Targeting[] =>
  campaign.variationGroups.flatMap((group) =>
    (group.targeting?.targetingGroups ?? []).flatMap((tg) => tg.targetings),
  );

/** What a rule's string targets count toward the pattern characters: 0 unless the engine scans for them. */
const patternCharsOf = (rule: Targeting): number => {
  if (!PATTERN_OPERATORS.includes(rule.operator)) return 0;
  const targets: unknown[] = Array.isArray(rule.value) ? rule.value : [rule.value];
  return targets.reduce<number>(
    (n, t) => n + (typeof t === 'string' ? Math.max(t.length, PATTERN_ITEM_MIN_CHARACTERS) : 0),
    0,
  );
};

/** The campaign's JSON and counts; throws InputError past `maxCampaignBytes`. */
export const sizedCampaign = (campaign: BucketingCampaign): SizedCampaign => {
  const json = JSON.stringify(campaign);
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > CAMPAIGN_LIMITS.maxCampaignBytes) {
    throw new InputError(
      `Campaign "${campaign.id}" is ${kib(bytes)} as JSON; a campaign holds at most ${kib(CAMPAIGN_LIMITS.maxCampaignBytes)} (docs/http-api.md, Limits): shorten its targeting lists or split it.`,
    );
  }
  const rules = targetingsOf(campaign);
  return {
    json,
    bytes,
    targetings: rules.length,
    listItems: rules.reduce((n, t) => n + (Array.isArray(t.value) ? t.value.length : 0), 0),
    patternChars: rules.reduce((n, t) => n + patternCharsOf(t), 0),
  };
};

/** The totals of `sized` campaigns. */
export const totalsOf = (sized: readonly SizedCampaign[]): EnvironmentTotals => ({
  campaigns: sized.length,
  bytes: sized.reduce((n, c) => n + c.bytes, 0),
  targetings: sized.reduce((n, c) => n + c.targetings, 0),
  listItems: sized.reduce((n, c) => n + c.listItems, 0),
  patternChars: sized.reduce((n, c) => n + c.patternChars, 0),
});

/** Each total's limit and what to say when a write passes it. */
const LIMITS: ReadonlyArray<{
  total: keyof EnvironmentTotals;
  max: number;
  message: (envId: string, value: number) => string;
}> = [
  {
    total: 'campaigns',
    max: CAMPAIGN_LIMITS.maxCampaignsPerEnvironment,
    message: (envId, n) =>
      `Environment "${envId}" would hold ${n} campaigns; it holds at most ${CAMPAIGN_LIMITS.maxCampaignsPerEnvironment} (docs/http-api.md, Limits): delete campaigns that have ended.`,
  },
  {
    total: 'bytes',
    max: CAMPAIGN_LIMITS.maxEnvironmentBytes,
    message: (envId, n) =>
      `Environment "${envId}"'s campaigns would take ${kib(n)} as JSON; they take at most ${kib(CAMPAIGN_LIMITS.maxEnvironmentBytes)} in all (docs/http-api.md, Limits): delete campaigns that have ended or shorten targeting lists.`,
  },
  {
    total: 'targetings',
    max: CAMPAIGN_LIMITS.maxTargetingsPerEnvironment,
    message: (envId, n) =>
      `Environment "${envId}"'s campaigns would hold ${n} targetings; they hold at most ${CAMPAIGN_LIMITS.maxTargetingsPerEnvironment} in all, since a decision may evaluate every one (docs/http-api.md, Limits): delete campaigns that have ended, or merge rules into lists (one rule with a list of values counts once).`,
  },
  {
    total: 'listItems',
    max: CAMPAIGN_LIMITS.maxListItemsPerEnvironment,
    message: (envId, n) =>
      `Environment "${envId}"'s targeting lists would hold ${n} items; they hold at most ${CAMPAIGN_LIMITS.maxListItemsPerEnvironment} in all (docs/http-api.md, Limits): delete campaigns that have ended, or target a context key the list's members share.`,
  },
  {
    total: 'patternChars',
    max: CAMPAIGN_LIMITS.maxPatternCharactersPerEnvironment,
    message: (envId, n) =>
      `Environment "${envId}"'s CONTAINS, NOT_CONTAINS, STARTS_WITH and ENDS_WITH targets would take ${n} characters (each counting at least ${PATTERN_ITEM_MIN_CHARACTERS}); they take at most ${CAMPAIGN_LIMITS.maxPatternCharactersPerEnvironment} in all (docs/http-api.md, Limits): match whole values with EQUALS lists, which have no such limit, or shorten the lists.`,
  },
];

/**
 * Throws InputError when an environment's campaigns would pass a limit with totals `after`, unless that total
 * is no higher than `before` (what is stored now).
 */
export const checkEnvironmentTotals = (
  envId: string,
  after: EnvironmentTotals,
  before?: EnvironmentTotals,
): void => {
  for (const { total, max, message } of LIMITS) {
    const value = after[total];
    if (value > max && (before === undefined || value > before[total]))
      throw new InputError(message(envId, value));
  }
};

const TOTALS_SQL = `SELECT count(*) AS campaigns, COALESCE(sum(body_bytes), 0) AS bytes,
    COALESCE(sum(targetings), 0) AS targetings, COALESCE(sum(list_items), 0) AS list_items,
    COALESCE(sum(pattern_chars), 0) AS pattern_chars
  FROM campaigns WHERE env_id = $1 AND deleted_ms IS NULL`;

const totalsOfRow = (row: Record<string, unknown>): EnvironmentTotals => ({
  campaigns: num(row, 'campaigns'),
  bytes: num(row, 'bytes'),
  targetings: num(row, 'targetings'),
  listItems: num(row, 'list_items'),
  patternChars: num(row, 'pattern_chars'),
});

/** The totals of the environment's live campaigns, or of those but `except`. */
export const storedTotals = async (
  tx: Queryable,
  envId: string,
  except?: string,
): Promise<EnvironmentTotals> => {
  const [row] = await tx.query(
    except === undefined ? TOTALS_SQL : `${TOTALS_SQL} AND id <> $2`,
    except === undefined ? [envId] : [envId, except],
  );
  return totalsOfRow(row ?? {});
};

const plus = (a: EnvironmentTotals, b: CampaignCounts, campaigns: number): EnvironmentTotals => ({
  campaigns: a.campaigns + campaigns,
  bytes: a.bytes + b.bytes,
  targetings: a.targetings + b.targetings,
  listItems: a.listItems + b.listItems,
  patternChars: a.patternChars + b.patternChars,
});

/**
 * Throws InputError when storing `sized` as campaign `campaignId` passes a limit: a new campaign adds to the
 * others, an update replaces what the campaign counted before.
 */
export const checkRoomFor = async (
  tx: Queryable,
  envId: string,
  campaignId: string,
  sized: SizedCampaign,
): Promise<void> => {
  const others = await storedTotals(tx, envId, campaignId);
  const [current] = await tx.query(
    `SELECT body_bytes AS bytes, targetings, list_items, pattern_chars FROM campaigns
     WHERE env_id = $1 AND id = $2 AND deleted_ms IS NULL`,
    [envId, campaignId],
  );
  const before =
    current === undefined
      ? others
      : plus(
          others,
          {
            bytes: num(current, 'bytes'),
            targetings: num(current, 'targetings'),
            listItems: num(current, 'list_items'),
            patternChars: num(current, 'pattern_chars'),
          },
          1,
        );
  checkEnvironmentTotals(envId, plus(others, sized, 1), before);
};

// Campaigns over the shared SQL: import (replace in order, tombstoning the rest), state changes, listing,
// and the configuration an instance builds its in-memory bucketing file from. Editing one campaign at a
// time (the remote control API) is campaign-edits-sql.ts, over the same id checks.
import type { BucketingCampaign } from 'feature-ts/protocol';
import { IdConflictError, InputError, unknownEnvironmentInput } from '../../errors.js';
import { checkEnvironmentTotals, sizedCampaign, storedTotals, totalsOf } from './campaign-limits.js';
import { publish, toEnvironment } from './environments-sql.js';
import { auditCampaign, campaignsState } from './audit-states.js';
import { recordAudit } from './audit-sql.js';
import { queueWebhookEvent } from './webhooks-sql.js';
import { num, numOrNull, text, textOrNull, type Queryable, type Row, type Sql } from './sql.js';
import type { CampaignRecord, CampaignState } from '../campaign-store.js';
import type { EnvironmentConfiguration, VariationOwner } from '../configuration-store.js';

const isState = (value: string): value is CampaignState =>
  value === 'active' || value === 'paused' || value === 'interrupted';

/** Maps a campaigns row. */
export const toCampaign = (row: Row): CampaignRecord => {
  const state = text(row, 'state');
  const body = row.body;
  return {
    id: text(row, 'id'),
    position: num(row, 'position'),
    state: isState(state) ? state : 'paused',
    description: textOrNull(row, 'description') ?? '',
    // Written only by this module from validated campaigns.
    body: (typeof body === 'string' ? JSON.parse(body) : body) as BucketingCampaign,
    createdMs: num(row, 'created_ms'),
    updatedMs: num(row, 'updated_ms'),
    deletedMs: numOrNull(row, 'deleted_ms'),
  };
};

/** Throws IdConflictError when an id of `campaigns` already belongs to another object of the environment. */
export const checkIds = async (
  tx: Queryable,
  envId: string,
  campaigns: BucketingCampaign[],
): Promise<void> => {
  const groupOwner = new Map<string, string>();
  const variationOwner = new Map<string, string>();
  for (const campaign of campaigns) {
    for (const group of campaign.variationGroups) {
      groupOwner.set(group.id, campaign.id);
      for (const variation of group.variations) variationOwner.set(variation.id, group.id);
    }
  }
  const groups = await tx.query(
    'SELECT id, campaign_id FROM variation_groups WHERE env_id = $1 AND id = ANY($2::text[])',
    [envId, [...groupOwner.keys()]],
  );
  for (const row of groups) {
    const id = text(row, 'id');
    if (groupOwner.get(id) !== text(row, 'campaign_id')) {
      throw new IdConflictError(
        `The variation group id "${id}" already belongs to campaign "${text(row, 'campaign_id')}" of this environment (deleted campaigns included): give it another id.`,
      );
    }
  }
  const variations = await tx.query(
    'SELECT id, variation_group_id FROM variations WHERE env_id = $1 AND id = ANY($2::text[])',
    [envId, [...variationOwner.keys()]],
  );
  for (const row of variations) {
    const id = text(row, 'id');
    if (variationOwner.get(id) !== text(row, 'variation_group_id')) {
      throw new IdConflictError(
        `The variation id "${id}" already belongs to variation group "${text(row, 'variation_group_id')}" of this environment (deleted campaigns included): give it another id.`,
      );
    }
  }
};

/**
 * Records the campaign's groups and variations in the environment's id index (never deleted), after
 * checkIds: a known id is then already this campaign's, so ON CONFLICT leaves it as it is.
 */
export const registerIds = async (
  tx: Queryable,
  envId: string,
  campaign: BucketingCampaign,
): Promise<void> => {
  for (const group of campaign.variationGroups) {
    await tx.query(
      'INSERT INTO variation_groups (env_id, id, campaign_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [envId, group.id, campaign.id],
    );
    for (const variation of group.variations) {
      await tx.query(
        'INSERT INTO variations (env_id, id, variation_group_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [envId, variation.id, group.id],
      );
    }
  }
};

/** Campaign operations of the store. */
export const campaignQueries = (db: Pick<Sql, 'query' | 'transaction'>, channel: string) => ({
  async replaceCampaigns(envId: string, campaigns: BucketingCampaign[]): Promise<number> {
    return db.transaction(async (tx) => {
      const env = await tx.query('SELECT id FROM environments WHERE id = $1 FOR UPDATE', [envId]);
      if (env.length === 0) throw unknownEnvironmentInput(envId);
      // The file replaces every campaign: its own count and size are the environment's.
      const sized = campaigns.map(sizedCampaign);
      checkEnvironmentTotals(envId, totalsOf(sized), await storedTotals(tx, envId));
      await checkIds(tx, envId, campaigns);
      const live = `SELECT * FROM campaigns WHERE env_id = $1 AND deleted_ms IS NULL ORDER BY position, created_ms`;
      const before = (await tx.query(live, [envId])).map(toCampaign);
      const now = Date.now();
      const ids = campaigns.map((c) => c.id);
      await tx.query(
        'UPDATE campaigns SET deleted_ms = $3 WHERE env_id = $1 AND deleted_ms IS NULL AND NOT (id = ANY($2::text[]))',
        [envId, ids, now],
      );
      // Clear slugs first so two campaigns may swap slugs within one import.
      await tx.query('UPDATE campaigns SET slug = NULL WHERE env_id = $1 AND id = ANY($2::text[])', [
        envId,
        ids,
      ]);
      let position = 0;
      for (const [i, campaign] of campaigns.entries()) {
        const { json, bytes, targetings, listItems, patternChars } = sized[i] ?? sizedCampaign(campaign);
        await tx.query(
          `INSERT INTO campaigns
             (env_id, id, position, state, slug, body, body_bytes, targetings, list_items, pattern_chars,
              created_ms, updated_ms)
           VALUES ($1, $2, $3, 'active', $4, $5::jsonb, $7, $8, $9, $10, $6, $6)
           ON CONFLICT (env_id, id) DO UPDATE SET position = excluded.position, state = 'active',
             slug = excluded.slug, body = excluded.body, body_bytes = excluded.body_bytes,
             targetings = excluded.targetings, list_items = excluded.list_items,
             pattern_chars = excluded.pattern_chars, updated_ms = excluded.updated_ms, deleted_ms = NULL`,
          [
            envId,
            campaign.id,
            position++,
            campaign.slug ?? null,
            json,
            now,
            bytes,
            targetings,
            listItems,
            patternChars,
          ],
        );
        await registerIds(tx, envId, campaign);
      }
      await publish(tx, channel, envId);
      await queueWebhookEvent(tx, envId, { type: 'campaigns.imported', campaigns: campaigns.length });
      await recordAudit(tx, {
        accountId: null,
        envId,
        subjectKind: 'campaigns',
        subjectId: null,
        action: 'campaigns.imported',
        before: campaignsState(before),
        after: campaignsState((await tx.query(live, [envId])).map(toCampaign)),
        details: { campaigns: campaigns.length },
      });
      return campaigns.length;
    });
  },
  async setCampaignState(envId: string, campaignId: string, state: CampaignState): Promise<void> {
    await db.transaction(async (tx) => {
      // Interrupted is final (§13.5): checked in the same statement, so two toggles cannot race past it.
      // The state before, read under the row's lock, for the webhook event.
      const before = await tx.query(
        'SELECT * FROM campaigns WHERE env_id = $1 AND id = $2 AND deleted_ms IS NULL FOR UPDATE',
        [envId, campaignId],
      );
      const rows = await tx.query(
        `UPDATE campaigns SET state = $3, updated_ms = $4
         WHERE env_id = $1 AND id = $2 AND deleted_ms IS NULL AND (state <> 'interrupted' OR $3 = 'interrupted')
         RETURNING *, body ->> 'name' AS name`,
        [envId, campaignId, state, Date.now()],
      );
      if (rows.length === 0) {
        const found = await tx.query(
          'SELECT state FROM campaigns WHERE env_id = $1 AND id = $2 AND deleted_ms IS NULL',
          [envId, campaignId],
        );
        if (found.length > 0)
          throw new IdConflictError(
            `Campaign "${campaignId}" is interrupted, which is final: create a new campaign to run it again.`,
          );
        throw new InputError(`No campaign "${campaignId}" in environment "${envId}".`);
      }
      await publish(tx, channel, envId);
      const previousState = before[0] === undefined ? state : text(before[0], 'state');
      if (previousState !== state && rows[0] !== undefined && before[0] !== undefined) {
        await queueWebhookEvent(tx, envId, {
          type: 'campaign.state_changed',
          campaign: { id: campaignId, name: text(rows[0], 'name'), slug: textOrNull(rows[0], 'slug'), state },
          previousState,
        });
        await auditCampaign(tx, envId, 'campaign.state_changed', toCampaign(before[0]), toCampaign(rows[0]));
      }
    });
  },
  async listCampaigns(envId: string, options: { includeDeleted?: boolean } = {}): Promise<CampaignRecord[]> {
    const rows = await db.query(
      `SELECT * FROM campaigns WHERE env_id = $1 AND ($2 OR deleted_ms IS NULL)
       ORDER BY deleted_ms IS NOT NULL, position, created_ms`,
      [envId, options.includeDeleted === true],
    );
    return rows.map(toCampaign);
  },
  async getCampaign(envId: string, campaignId: string): Promise<CampaignRecord | null> {
    const rows = await db.query(
      'SELECT * FROM campaigns WHERE env_id = $1 AND id = $2 AND deleted_ms IS NULL',
      [envId, campaignId],
    );
    return rows[0] === undefined ? null : toCampaign(rows[0]);
  },
  async loadConfiguration(envId: string): Promise<EnvironmentConfiguration | null> {
    // One snapshot of the environment, its campaigns and its variation index.
    return db.transaction(async (tx) => {
      const env = await tx.query('SELECT * FROM environments WHERE id = $1', [envId]);
      if (env[0] === undefined) return null;
      const campaigns = await tx.query(
        `SELECT * FROM campaigns WHERE env_id = $1 AND deleted_ms IS NULL AND state = 'active'
         ORDER BY position, created_ms`,
        [envId],
      );
      const variations = await tx.query(
        `SELECT v.id AS variation_id, v.variation_group_id, g.campaign_id
         FROM variations v JOIN variation_groups g ON g.env_id = v.env_id AND g.id = v.variation_group_id
         WHERE v.env_id = $1`,
        [envId],
      );
      return {
        environment: toEnvironment(env[0]),
        campaigns: campaigns.map(toCampaign),
        variations: variations.map((row): VariationOwner => ({
          variationId: text(row, 'variation_id'),
          variationGroupId: text(row, 'variation_group_id'),
          campaignId: text(row, 'campaign_id'),
        })),
      };
    });
  },
});

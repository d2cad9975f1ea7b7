// Editing one campaign at a time (the remote control API, PROTOCOL.md §13.5): create, update, delete. Each
// runs in one transaction that first locks the environment row, so concurrent edits of one environment
// take turns: the next position, the slug check and the id checks then see every committed edit, and the
// change is published (§2.5) with the edit it describes.
// Positions of live campaigns stay dense (0…n-1): a position is what the API shows and what `PATCH
// "position": n` means, so a gap left by a deleted campaign would make n ambiguous.
import type { BucketingCampaign } from 'feature-ts/protocol';
import { IdConflictError, InputError, unknownEnvironmentInput } from '../../errors.js';
import { checkRoomFor, sizedCampaign } from './campaign-limits.js';
import { checkIds, registerIds, toCampaign } from './campaigns-sql.js';
import { publish } from './environments-sql.js';
import { auditCampaign } from './audit-states.js';
import { queueWebhookEvent, webhookCampaign } from './webhooks-sql.js';
import { num, text, textOrNull, type Queryable, type Sql } from './sql.js';
import type { CampaignOptions, CampaignRecord } from '../campaign-store.js';

/** Locks the environment's row for the transaction (edits of one environment take turns). */
export const lockEnvironment = async (tx: Queryable, envId: string): Promise<void> => {
  const env = await tx.query('SELECT id FROM environments WHERE id = $1 FOR UPDATE', [envId]);
  if (env.length === 0) throw unknownEnvironmentInput(envId);
};

/**
 * Refuses a body that uses a group or variation id twice: checkIds compares each id with one owner, so a
 * repeated id would be registered to whichever came first and the other object would share its history.
 */
const checkOwnIds = (campaign: BucketingCampaign): void => {
  const seen = new Set<string>();
  for (const group of campaign.variationGroups) {
    for (const id of [group.id, ...group.variations.map((v) => v.id)]) {
      if (seen.has(id)) {
        throw new InputError(
          `The id "${id}" is used twice in campaign "${campaign.id}": give each its own id.`,
        );
      }
      seen.add(id);
    }
  }
};

/** Throws IdConflictError when another live campaign of the environment has the campaign's slug. */
const checkSlug = async (tx: Queryable, envId: string, campaign: BucketingCampaign): Promise<void> => {
  if (campaign.slug === undefined || campaign.slug === null) return;
  const rows = await tx.query(
    'SELECT id FROM campaigns WHERE env_id = $1 AND slug = $2 AND deleted_ms IS NULL AND id <> $3',
    [envId, campaign.slug, campaign.id],
  );
  if (rows[0] !== undefined) {
    throw new IdConflictError(
      `The slug "${campaign.slug}" already belongs to campaign "${text(rows[0], 'id')}" of this environment: choose another slug.`,
    );
  }
};

/** Every id check of an edit, in the order a caller fixes them: own duplicates, slug, then ids in use. */
export const checkCampaign = async (
  tx: Queryable,
  envId: string,
  campaign: BucketingCampaign,
): Promise<void> => {
  checkOwnIds(campaign);
  await checkSlug(tx, envId, campaign);
  await checkIds(tx, envId, [campaign]);
};

/** The live campaigns' ids in stored order (the order listCampaigns and decisions use). */
export const liveOrder = async (tx: Queryable, envId: string): Promise<string[]> => {
  const rows = await tx.query(
    'SELECT id FROM campaigns WHERE env_id = $1 AND deleted_ms IS NULL ORDER BY position, created_ms, id',
    [envId],
  );
  return rows.map((row) => text(row, 'id'));
};

/** A campaign's row, deleted or not. */
export const readCampaign = async (
  tx: Queryable,
  envId: string,
  campaignId: string,
): Promise<CampaignRecord> => {
  const rows = await tx.query('SELECT * FROM campaigns WHERE env_id = $1 AND id = $2', [envId, campaignId]);
  return toCampaign(rows[0] ?? {});
};

const unknownCampaign = (envId: string, campaignId: string): InputError =>
  new InputError(
    `No campaign "${campaignId.slice(0, 64)}" in environment "${envId}" (or it was deleted): use an id that listing the campaigns shows.`,
  );

/** Campaign edits of the store. */
export const campaignEditQueries = (db: Pick<Sql, 'query' | 'transaction'>, channel: string) => ({
  async createCampaign(
    envId: string,
    campaign: BucketingCampaign,
    options: CampaignOptions,
  ): Promise<CampaignRecord> {
    return db.transaction(async (tx) => {
      await lockEnvironment(tx, envId);
      const existing = await tx.query('SELECT deleted_ms FROM campaigns WHERE env_id = $1 AND id = $2', [
        envId,
        campaign.id,
      ]);
      if (existing[0] !== undefined) {
        // A deleted campaign's id stays taken: its activations and reports are keyed by it.
        const whose =
          existing[0].deleted_ms === null ? 'a campaign' : 'a deleted campaign (kept for reports)';
        throw new IdConflictError(
          `The campaign id "${campaign.id}" already belongs to ${whose} of this environment: give it another id.`,
        );
      }
      await checkCampaign(tx, envId, campaign);
      const sized = sizedCampaign(campaign);
      await checkRoomFor(tx, envId, campaign.id, sized);
      const next = await tx.query(
        `SELECT COALESCE(MAX(position) + 1, 0) AS position FROM campaigns
         WHERE env_id = $1 AND deleted_ms IS NULL`,
        [envId],
      );
      const now = Date.now();
      await tx.query(
        `INSERT INTO campaigns
           (env_id, id, position, state, description, slug, body, body_bytes, targetings, list_items, pattern_chars,
            created_ms, updated_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $9, $10, $11, $12, $8, $8)`,
        [
          envId,
          campaign.id,
          num(next[0] ?? {}, 'position'),
          options.state,
          options.description,
          campaign.slug ?? null,
          sized.json,
          now,
          sized.bytes,
          sized.targetings,
          sized.listItems,
          sized.patternChars,
        ],
      );
      await registerIds(tx, envId, campaign);
      await publish(tx, channel, envId);
      const created = await readCampaign(tx, envId, campaign.id);
      await queueWebhookEvent(tx, envId, { type: 'campaign.created', campaign: webhookCampaign(created) });
      await auditCampaign(tx, envId, 'campaign.created', null, created);
      return created;
    });
  },

  async updateCampaign(
    envId: string,
    campaignId: string,
    campaign: BucketingCampaign,
    options: { description: string; position?: number },
  ): Promise<CampaignRecord> {
    // Histories, activations and reports are keyed by the id: a changed id would be another campaign.
    if (campaign.id !== campaignId) {
      throw new InputError(
        `The body's id "${campaign.id.slice(0, 64)}" differs from campaign "${campaignId.slice(0, 64)}": a campaign's id cannot change.`,
      );
    }
    const { position } = options;
    if (position !== undefined && (!Number.isSafeInteger(position) || position < 0)) {
      throw new InputError(`position must be an integer ≥ 0 (0 is first), not ${position}.`);
    }
    return db.transaction(async (tx) => {
      await lockEnvironment(tx, envId);
      const updated = await tx.query(
        'SELECT * FROM campaigns WHERE env_id = $1 AND id = $2 AND deleted_ms IS NULL',
        [envId, campaignId],
      );
      if (updated[0] === undefined) throw unknownCampaign(envId, campaignId);
      const before = toCampaign(updated[0]);
      await checkCampaign(tx, envId, campaign);
      const sized = sizedCampaign(campaign);
      await checkRoomFor(tx, envId, campaignId, sized);
      await tx.query(
        `UPDATE campaigns SET body = $3::jsonb, body_bytes = $7, targetings = $8, list_items = $9,
           pattern_chars = $10, slug = $4, description = $5, updated_ms = $6
         WHERE env_id = $1 AND id = $2`,
        [
          envId,
          campaignId,
          sized.json,
          campaign.slug ?? null,
          options.description,
          Date.now(),
          sized.bytes,
          sized.targetings,
          sized.listItems,
          sized.patternChars,
        ],
      );
      await registerIds(tx, envId, campaign);
      if (position !== undefined) {
        const order = (await liveOrder(tx, envId)).filter((id) => id !== campaignId);
        order.splice(Math.min(position, order.length), 0, campaignId);
        // Rewrites the whole order as 0…n-1 in one statement; rows already in place are left untouched.
        await tx.query(
          `UPDATE campaigns c SET position = o.ord - 1
           FROM unnest($2::text[]) WITH ORDINALITY AS o (id, ord)
           WHERE c.env_id = $1 AND c.id = o.id AND c.position <> o.ord - 1`,
          [envId, order],
        );
      }
      await publish(tx, channel, envId);
      const record = await readCampaign(tx, envId, campaignId);
      await queueWebhookEvent(tx, envId, { type: 'campaign.updated', campaign: webhookCampaign(record) });
      await auditCampaign(tx, envId, 'campaign.updated', before, record);
      return record;
    });
  },

  async deleteCampaign(envId: string, campaignId: string): Promise<boolean> {
    return db.transaction(async (tx) => {
      const env = await tx.query('SELECT id FROM environments WHERE id = $1 FOR UPDATE', [envId]);
      if (env.length === 0) return false;
      // The tombstone keeps everything else (slug, body, position) as it was: reports still name it.
      const deleted = await tx.query(
        `UPDATE campaigns SET deleted_ms = $3
         WHERE env_id = $1 AND id = $2 AND deleted_ms IS NULL RETURNING *, body ->> 'name' AS name`,
        [envId, campaignId, Date.now()],
      );
      if (deleted[0] === undefined) return false;
      await auditCampaign(tx, envId, 'campaign.deleted', toCampaign(deleted[0]), null);
      await tx.query(
        'UPDATE campaigns SET position = position - 1 WHERE env_id = $1 AND deleted_ms IS NULL AND position > $2',
        [envId, num(deleted[0], 'position')],
      );
      await publish(tx, channel, envId);
      await queueWebhookEvent(tx, envId, {
        type: 'campaign.deleted',
        campaign: {
          id: campaignId,
          name: text(deleted[0], 'name'),
          slug: textOrNull(deleted[0], 'slug'),
          state: text(deleted[0], 'state'),
        },
      });
      return true;
    });
  },
});

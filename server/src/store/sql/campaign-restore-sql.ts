// Putting a campaign back as an entry of its history left it (issue 36): one audited change, in one
// transaction under the environment's lock like every edit, through the same checks (ids, slug, sizes), so a
// restore can never store what an edit could not. The state restored is the entry's `after`, exactly: body,
// description, state and position.
import type { BucketingCampaign } from 'feature-ts/protocol';
import { IdConflictError } from '../../errors.js';
import type { JsonValue } from '../../audit/audit-diff.js';
import type { CampaignRecord, CampaignState } from '../campaign-store.js';
import { toEntry } from './audit-sql.js';
import { auditCampaign } from './audit-states.js';
import { checkCampaign, liveOrder, lockEnvironment, readCampaign } from './campaign-edits-sql.js';
import { checkRoomFor, sizedCampaign } from './campaign-limits.js';
import { registerIds, toCampaign } from './campaigns-sql.js';
import { publish } from './environments-sql.js';
import type { Sql } from './sql.js';
import { queueWebhookEvent, webhookCampaign } from './webhooks-sql.js';

/** The campaign state an entry keeps (audit-states.ts `campaignState`). */
interface KeptCampaign {
  position: number;
  state: CampaignState;
  description: string;
  body: BucketingCampaign;
}

const isObject = (value: JsonValue | undefined): value is { [key: string]: JsonValue } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The campaign's state after the entry: undefined when the entry is not about it, null when it deleted it. */
const stateAfter = (
  entry: { subjectKind: string; subjectId: string | null; before: JsonValue; after: JsonValue },
  campaignId: string,
): KeptCampaign | null | undefined => {
  let kept: JsonValue | undefined;
  const holds = (state: JsonValue): boolean => isObject(state) && Object.hasOwn(state, campaignId);
  if (entry.subjectKind === 'campaign' && entry.subjectId === campaignId) kept = entry.after;
  else if (entry.subjectKind === 'campaigns' && isObject(entry.after))
    // An import that left it out deleted it (null); one that never had it is not in its history.
    kept = holds(entry.after) ? entry.after[campaignId] : holds(entry.before) ? null : undefined;
  if (kept === undefined || kept === null) return kept;
  // Written by campaignState from a stored campaign.
  return kept as unknown as KeptCampaign;
};

/** Campaign restores of the store. */
export const campaignRestoreQueries = (db: Pick<Sql, 'query' | 'transaction'>, channel: string) => ({
  async restoreCampaign(envId: string, campaignId: string, seq: number): Promise<CampaignRecord | null> {
    return db.transaction(async (tx) => {
      await lockEnvironment(tx, envId);
      const rows = await tx.query('SELECT * FROM audit_entries WHERE seq = $1 AND environment_id = $2', [
        seq,
        envId,
      ]);
      if (rows[0] === undefined) return null;
      const kept = stateAfter(toEntry(rows[0]), campaignId);
      if (kept === undefined) return null;
      if (kept === null)
        throw new IdConflictError(
          `Entry ${seq} left no campaign "${campaignId}" (it deleted it, or an import left it out): restore from an entry before it.`,
        );
      const current = await tx.query('SELECT * FROM campaigns WHERE env_id = $1 AND id = $2 FOR UPDATE', [
        envId,
        campaignId,
      ]);
      if (current[0] === undefined) return null;
      const before = toCampaign(current[0]);
      if (before.deletedMs !== null)
        throw new IdConflictError(
          `Campaign "${campaignId}" is deleted, and a deleted campaign's id stays taken (its reports keep it): create a new campaign with this entry's body and another id.`,
        );
      if (before.state === 'interrupted' && kept.state !== 'interrupted')
        throw new IdConflictError(
          `Campaign "${campaignId}" is interrupted, which is final: create a new campaign to run it again.`,
        );
      await checkCampaign(tx, envId, kept.body);
      const sized = sizedCampaign(kept.body);
      await checkRoomFor(tx, envId, campaignId, sized);
      await tx.query(
        `UPDATE campaigns SET body = $3::jsonb, body_bytes = $4, targetings = $5, list_items = $6,
           pattern_chars = $7, slug = $8, description = $9, state = $10, updated_ms = $11
         WHERE env_id = $1 AND id = $2`,
        [
          envId,
          campaignId,
          sized.json,
          sized.bytes,
          sized.targetings,
          sized.listItems,
          sized.patternChars,
          kept.body.slug ?? null,
          kept.description,
          kept.state,
          Date.now(),
        ],
      );
      await registerIds(tx, envId, kept.body);
      const order = (await liveOrder(tx, envId)).filter((id) => id !== campaignId);
      order.splice(Math.min(kept.position, order.length), 0, campaignId);
      await tx.query(
        `UPDATE campaigns c SET position = o.ord - 1
         FROM unnest($2::text[]) WITH ORDINALITY AS o (id, ord)
         WHERE c.env_id = $1 AND c.id = o.id AND c.position <> o.ord - 1`,
        [envId, order],
      );
      await publish(tx, channel, envId);
      const restored = await readCampaign(tx, envId, campaignId);
      await queueWebhookEvent(tx, envId, { type: 'campaign.updated', campaign: webhookCampaign(restored) });
      await auditCampaign(tx, envId, 'campaign.restored', before, restored, { restoredFrom: seq });
      return restored;
    });
  },
});

// Webhooks over the shared SQL (issue 36). An event is queued as one delivery row per target of its
// environment by `queueWebhookEvent`, inside the transaction of the change it reports: it exists exactly when
// the change does. Claims lease a target's oldest unsettled delivery only (per-target order), in one UPDATE,
// so two instances never send the same delivery at once: under READ COMMITTED the second re-checks the lease
// the first set and skips the row.
import { randomBytes } from 'node:crypto';
import { newId } from '../../ids.js';
import {
  isWebhookEventType,
  webhookEventBody,
  type WebhookCampaign,
  type WebhookEventData,
  type WebhookEventType,
} from '../../webhooks/webhook-events.js';
import type { CampaignRecord } from '../campaign-store.js';
import type {
  ClaimedDelivery,
  DeliveryAttempt,
  DeliveryState,
  WebhookDelivery,
  WebhookRecord,
  WebhookStore,
} from '../webhook-store.js';
import { recordAudit } from './audit-sql.js';
import { webhookState } from './audit-states.js';
import { num, numOrNull, text, textOrNull, type Queryable, type Row, type Sql } from './sql.js';

/** The `events` column of a target sent every kind. */
const EVERY_EVENT = '*';

/** How much of a target's answer is kept for the console. */
export const ANSWER_KEPT_CHARS = 1024;

const eventsOf = (column: string): WebhookEventType[] =>
  column === EVERY_EVENT ? [] : column.split(',').filter(isWebhookEventType);

const toWebhook = (row: Row): WebhookRecord => ({
  id: text(row, 'id'),
  envId: text(row, 'env_id'),
  url: text(row, 'url'),
  events: eventsOf(text(row, 'events')),
  createdMs: num(row, 'created_ms'),
});

const toDelivery = (row: Row): WebhookDelivery => ({
  id: text(row, 'id'),
  webhookId: text(row, 'webhook_id'),
  eventId: text(row, 'event_id'),
  eventType: text(row, 'event_type') as WebhookEventType,
  body: text(row, 'body'),
  createdMs: num(row, 'created_ms'),
  state: text(row, 'state') as DeliveryState,
  attempts: num(row, 'attempts'),
  nextAttemptMs: num(row, 'next_attempt_ms'),
  lastAttemptMs: numOrNull(row, 'last_attempt_ms'),
  lastStatus: numOrNull(row, 'last_status'),
  lastAnswer: textOrNull(row, 'last_answer'),
  lastError: textOrNull(row, 'last_error'),
  settledMs: numOrNull(row, 'settled_ms'),
});

/** A stored campaign as an event names it. */
export const webhookCampaign = (record: CampaignRecord): WebhookCampaign => ({
  id: record.id,
  name: record.body.name,
  slug: record.body.slug ?? null,
  state: record.state,
});

/**
 * Queues `event` of `envId` for every target of the environment that is sent its kind; call inside the
 * change's transaction. Each target's delivery id is the event id and the target's, so it is unique and
 * stable across retries.
 */
export const queueWebhookEvent = async (
  tx: Queryable,
  envId: string,
  event: WebhookEventData,
): Promise<void> => {
  const eventId = newId();
  const now = Date.now();
  await tx.query(
    `INSERT INTO webhook_deliveries
       (id, webhook_id, event_id, event_type, body, created_ms, state, next_attempt_ms)
     SELECT $2 || '.' || w.id, w.id, $2, $3, $4, $5, 'pending', $5 FROM webhooks w
     WHERE w.env_id = $1 AND w.deleted_ms IS NULL
       AND (w.events = '${EVERY_EVENT}' OR position(',' || $3 || ',' IN ',' || w.events || ',') > 0)
     ORDER BY w.created_ms`,
    [envId, eventId, event.type, JSON.stringify(webhookEventBody(eventId, envId, now, event)), now],
  );
};

/** Webhook operations of the store. */
export const webhookQueries = (db: Pick<Sql, 'query' | 'transaction'>): WebhookStore => ({
  async createWebhook(envId, { url, events }) {
    const id = newId();
    // Shown once; the server keeps it to sign with (an HMAC needs the key itself, not a digest).
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    const createdMs = Date.now();
    return db.transaction(async (tx) => {
      const rows = await tx.query(
        `INSERT INTO webhooks (id, env_id, url, secret, events, created_ms)
         SELECT $1, e.id, $3, $4, $5, $6 FROM environments e WHERE e.id = $2 RETURNING *`,
        [id, envId, url, secret, events.length === 0 ? EVERY_EVENT : events.join(','), createdMs],
      );
      if (rows[0] === undefined) throw new Error(`No environment "${envId}".`);
      const webhook = toWebhook(rows[0]);
      await recordAudit(tx, {
        accountId: null,
        envId,
        subjectKind: 'webhook',
        subjectId: webhook.id,
        action: 'webhook.created',
        before: null,
        after: webhookState(webhook),
      });
      return { webhook, secret };
    });
  },
  async listWebhooks(envId) {
    const rows = await db.query(
      'SELECT * FROM webhooks WHERE env_id = $1 AND deleted_ms IS NULL ORDER BY created_ms, id',
      [envId],
    );
    return rows.map(toWebhook);
  },
  async getWebhook(envId, webhookId) {
    const rows = await db.query(
      'SELECT * FROM webhooks WHERE env_id = $1 AND id = $2 AND deleted_ms IS NULL',
      [envId, webhookId],
    );
    return rows[0] === undefined ? null : toWebhook(rows[0]);
  },
  async deleteWebhook(envId, webhookId) {
    return db.transaction(async (tx) => {
      const now = Date.now();
      const rows = await tx.query(
        `UPDATE webhooks SET deleted_ms = $3 WHERE env_id = $1 AND id = $2 AND deleted_ms IS NULL
         RETURNING *`,
        [envId, webhookId, now],
      );
      if (rows[0] === undefined) return false;
      await recordAudit(tx, {
        accountId: null,
        envId,
        subjectKind: 'webhook',
        subjectId: webhookId,
        action: 'webhook.deleted',
        before: webhookState(toWebhook(rows[0])),
        after: null,
      });
      await tx.query(
        `UPDATE webhook_deliveries SET state = 'failed', settled_ms = $2, lease_until_ms = NULL,
           last_error = 'the webhook was deleted'
         WHERE webhook_id = $1 AND state = 'pending'`,
        [webhookId, now],
      );
      return true;
    });
  },
  async listDeliveries(webhookId, limit) {
    const rows = await db.query(
      'SELECT * FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY seq DESC LIMIT $2',
      [webhookId, limit],
    );
    return rows.map(toDelivery);
  },
  async redeliver(webhookId, deliveryId, nowMs) {
    // Back to pending, due now, with a fresh 24 h of retries counted from now; the lease is kept if one is in
    // flight, so the attempt under way is not doubled, and its outcome leaves the delivery pending (the new
    // created_ms tells settleDelivery), so it is sent once more after it.
    return db.transaction(async (tx) => {
      const rows = await tx.query(
        `UPDATE webhook_deliveries d SET state = 'pending', next_attempt_ms = $3, created_ms = $3, settled_ms = NULL
         FROM webhooks w
         WHERE d.webhook_id = $1 AND d.id = $2 AND w.id = $1 AND w.deleted_ms IS NULL
         RETURNING d.*, w.env_id`,
        [webhookId, deliveryId, nowMs],
      );
      if (rows[0] === undefined) return null;
      const delivery = toDelivery(rows[0]);
      await recordAudit(tx, {
        accountId: null,
        envId: text(rows[0], 'env_id'),
        subjectKind: 'webhook',
        subjectId: webhookId,
        action: 'webhook.redelivered',
        before: null,
        after: null,
        details: { deliveryId: delivery.id, eventType: delivery.eventType },
      });
      return delivery;
    });
  },
  async claimDueDeliveries(nowMs, leaseUntilMs, limit) {
    // A target with a delivery in flight is skipped whole: a redeliver can make an older delivery its head
    // while a newer one is leased, and sending it then would put two of the target's deliveries in flight.
    const rows = await db.query(
      `WITH head AS (
         SELECT DISTINCT ON (webhook_id) webhook_id, seq, next_attempt_ms FROM webhook_deliveries
         WHERE state = 'pending' ORDER BY webhook_id, seq),
       busy AS (
         SELECT DISTINCT webhook_id FROM webhook_deliveries WHERE state = 'pending' AND lease_until_ms > $1),
       due AS (
         SELECT seq FROM head WHERE next_attempt_ms <= $1 AND webhook_id NOT IN (SELECT webhook_id FROM busy)
         ORDER BY seq LIMIT $3)
       UPDATE webhook_deliveries d SET lease_until_ms = $2 FROM due, webhooks w
       WHERE d.seq = due.seq AND w.id = d.webhook_id AND w.deleted_ms IS NULL AND d.state = 'pending'
         AND (d.lease_until_ms IS NULL OR d.lease_until_ms <= $1)
       RETURNING d.*, w.url, w.secret`,
      [nowMs, leaseUntilMs, limit],
    );
    return rows.map((row): ClaimedDelivery => ({
      ...toDelivery(row),
      url: text(row, 'url'),
      secret: text(row, 'secret'),
      leaseUntilMs,
    }));
  },
  async settleDelivery(claimed, attempt: DeliveryAttempt) {
    const delivered = attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
    const state: DeliveryState = delivered ? 'delivered' : attempt.retryAtMs === null ? 'failed' : 'pending';
    // Only while this claim's lease stands (a later claim's outcome is the one that counts). A redeliver
    // during the attempt moved created_ms: the delivery stays pending and due, as the redeliver asked.
    await db.query(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, last_attempt_ms = $3::bigint,
         last_status = $4, last_answer = $5, last_error = $6, lease_until_ms = NULL,
         state = CASE WHEN created_ms = $9::bigint THEN $2::text ELSE 'pending' END,
         next_attempt_ms = CASE WHEN created_ms = $9::bigint THEN COALESCE($7::bigint, next_attempt_ms)
           ELSE next_attempt_ms END,
         settled_ms = CASE WHEN created_ms = $9::bigint AND $2::text <> 'pending' THEN $3::bigint END
       WHERE id = $1 AND lease_until_ms = $8::bigint`,
      [
        claimed.id,
        state,
        attempt.atMs,
        attempt.status,
        attempt.answer?.slice(0, ANSWER_KEPT_CHARS) ?? null,
        attempt.error,
        attempt.retryAtMs,
        claimed.leaseUntilMs,
        claimed.createdMs,
      ],
    );
  },
  async purgeDeliveries(settledBeforeMs) {
    // A settled delivery has its settled_ms; a redeliver clears it and makes the delivery pending, so one sent
    // again is never dropped while it waits.
    const rows = await db.query(
      `WITH d AS (DELETE FROM webhook_deliveries WHERE state <> 'pending' AND settled_ms < $1 RETURNING 1)
       SELECT count(*)::int AS n FROM d`,
      [settledBeforeMs],
    );
    return rows[0] === undefined ? 0 : num(rows[0], 'n');
  },
});

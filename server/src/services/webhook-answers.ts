// The operator routes' answers about webhooks (issue 36): targets without their secret, deliveries with their
// last attempt, times as ISO 8601.
import type { WebhookDelivery, WebhookRecord } from '../store/webhook-store.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** A webhook as the operator routes answer it: never with its secret. */
export const webhookAnswer = (webhook: WebhookRecord) => ({
  id: webhook.id,
  env_id: webhook.envId,
  url: webhook.url,
  events: webhook.events,
  created_at: iso(webhook.createdMs),
});

/** A delivery as the operator routes answer it. */
export const deliveryAnswer = (delivery: WebhookDelivery) => ({
  id: delivery.id,
  event_id: delivery.eventId,
  event_type: delivery.eventType,
  state: delivery.state,
  attempts: delivery.attempts,
  created_at: iso(delivery.createdMs),
  next_attempt_at: delivery.state === 'pending' ? iso(delivery.nextAttemptMs) : null,
  last_attempt_at: iso(delivery.lastAttemptMs),
  last_status: delivery.lastStatus,
  last_answer: delivery.lastAnswer,
  last_error: delivery.lastError,
  settled_at: iso(delivery.settledMs),
  body: delivery.body,
});

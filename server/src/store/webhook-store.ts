// Webhooks as stored (issue 36): an environment's targets and their deliveries. Events are queued by the
// writes that make them (sql/webhooks-sql.ts `queueWebhookEvent`, in the change's own transaction); the
// deliverer (webhooks/webhook-deliverer.ts) claims, sends and settles them.
import type { WebhookEventType } from '../webhooks/webhook-events.js';

/** A webhook target of an environment. The signing secret is returned once, when made. */
export interface WebhookRecord {
  id: string;
  envId: string;
  url: string;
  /** The event kinds it is sent; empty means every kind, including ones added later. */
  events: WebhookEventType[];
  createdMs: number;
}

/** Where a delivery is: waiting (or being retried), answered with a 2xx, or given up after 24 h. */
export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** One event sent to one target, with the last attempt's outcome. */
export interface WebhookDelivery {
  /** The delivery id (the `Feature-Webhook-Id` header): a target that sees one twice has seen a retry. */
  id: string;
  webhookId: string;
  eventId: string;
  eventType: WebhookEventType;
  /** The JSON body, exactly as signed and sent. */
  body: string;
  createdMs: number;
  state: DeliveryState;
  attempts: number;
  nextAttemptMs: number;
  lastAttemptMs: number | null;
  /** The HTTP status of the last answer; null when none came (refused, timed out). */
  lastStatus: number | null;
  /** The start of the last answer's body (at most 1 KB). */
  lastAnswer: string | null;
  /** Why the last attempt failed without an answer. */
  lastError: string | null;
  settledMs: number | null;
}

/** A delivery claimed for sending, with where and how to sign it. */
export interface ClaimedDelivery extends WebhookDelivery {
  url: string;
  secret: string;
  /** The lease this claim holds: its outcome is recorded only while no other claim has taken the delivery. */
  leaseUntilMs: number;
}

/** The outcome of one attempt. */
export interface DeliveryAttempt {
  atMs: number;
  status: number | null;
  answer: string | null;
  error: string | null;
  /** When to try again after a failure; null settles it: delivered on a 2xx, else failed (given up). */
  retryAtMs: number | null;
}

/** The store's webhooks. */
export interface WebhookStore {
  /** Adds a target; its secret is in the answer only. */
  createWebhook(
    envId: string,
    target: { url: string; events: WebhookEventType[] },
  ): Promise<{ webhook: WebhookRecord; secret: string }>;
  /** The environment's targets, oldest first. */
  listWebhooks(envId: string): Promise<WebhookRecord[]>;
  getWebhook(envId: string, webhookId: string): Promise<WebhookRecord | null>;
  /** Removes a target and gives up its unsent deliveries; false when unknown. */
  deleteWebhook(envId: string, webhookId: string): Promise<boolean>;
  /** A target's latest deliveries, newest first. */
  listDeliveries(webhookId: string, limit: number): Promise<WebhookDelivery[]>;
  /** Queues a delivery again at once (the console's "send again"); null when unknown. */
  redeliver(webhookId: string, deliveryId: string, nowMs: number): Promise<WebhookDelivery | null>;
  /**
   * Leases each target's oldest unsettled delivery when it is due and not leased by another instance, until
   * `leaseUntilMs`: a target's deliveries go one at a time, in the order their events were made.
   */
  claimDueDeliveries(nowMs: number, leaseUntilMs: number, limit: number): Promise<ClaimedDelivery[]>;
  /**
   * Records the outcome of `claimed`'s attempt and lifts its lease. Nothing is recorded when the lease ran out
   * and another claim took the delivery (that claim's outcome counts); a delivery sent again on demand after
   * the attempt began stays pending, so it is sent once more.
   */
  settleDelivery(
    claimed: Pick<ClaimedDelivery, 'id' | 'createdMs' | 'leaseUntilMs'>,
    attempt: DeliveryAttempt,
  ): Promise<void>;
  /**
   * Drops the deliveries settled (delivered or given up) before `settledBeforeMs`, with their bodies and
   * answers (FEATURE_WEBHOOK_LOG_DAYS); pending ones stay, however old. Resolves with how many went.
   */
  purgeDeliveries(settledBeforeMs: number): Promise<number>;
}

// Sends the store's webhook deliveries (issue 36): claims each target's oldest due delivery, posts it signed,
// and records the answer. A 2xx settles it; anything else (an error status, a refused connection, a timeout, a
// redirect, a target on the server's own network: webhook-post.ts) is retried with backoff and jitter for 24 h
// from the event, then given up. Everything is in the
// store, so a restart resumes where it stopped: a delivery sent but not yet recorded as answered is sent again
// (receivers deduplicate by the delivery id), never lost.
import type { ClaimedDelivery, WebhookStore } from '../store/webhook-store.js';
import { postWebhook, RefusedTargetError } from './webhook-post.js';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signWebhook } from './webhook-signature.js';

/** Where the deliverer's lines go (the server's logger). */
export interface DelivererLog {
  info(line: string): void;
  warn(line: string): void;
}

/** Options of {@link startWebhookDeliverer}. */
export interface WebhookDelivererOptions {
  log: DelivererLog;
  /** The clock (epoch ms). */
  now?: () => number;
  /** How often the store is asked for due deliveries while none is found (default 1 s). */
  pollMs?: number;
  /** How long a target has to answer (default 10 s). */
  timeoutMs?: number;
  /** The wait before attempt `attempt + 1` after `attempt` failed ones (default 10 s × 3^(n-1), ≤ 1 h, ±20 %). */
  retryDelayMs?: (failedAttempts: number) => number;
  /** How long after its event a delivery is retried (default 24 h). */
  giveUpAfterMs?: number;
  /** At most how many targets are sent to at once (default 16). */
  concurrency?: number;
  /**
   * FEATURE_WEBHOOK_PRIVATE_NETWORKS=allow: targets on loopback, private and link-local addresses are sent to
   * (default false: refused, and logged as a failed attempt).
   */
  privateNetworks?: boolean;
  /** The DNS servers that resolve target names (`host` or `host:port`); by default the system's. */
  dnsServers?: readonly string[];
}

/** The running deliverer. */
export interface WebhookDeliverer {
  /** Sends what is due now, then what became due meanwhile; resolves with how many attempts were made. */
  run(): Promise<number>;
  /** Stops polling and waits for the attempts in flight, so the store can close behind it. */
  stop(): Promise<void>;
}

/** 24 hours: how long a delivery is retried by default. */
export const RETRY_FOR_MS = 86_400_000;

/**
 * The backoff from `firstMs`: 10 s, 30 s, 90 s… by default, up to an hour, each ±20 % so that targets which
 * failed together spread out.
 */
export const retryDelay =
  (firstMs: number) =>
  (failedAttempts: number): number =>
    Math.min(3_600_000, firstMs * 3 ** Math.max(0, failedAttempts - 1)) * (0.8 + 0.4 * Math.random());

/** What a failed answer asks for (`Retry-After` in seconds or as a date), in ms from `now`; 0 when nothing. */
const retryAfterMs = (header: string | null, now: number): number => {
  if (header === null) return 0;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? 0 : Math.max(0, at - now);
};

/**
 * The target as a log line names it: its origin only, since many receivers (chat incoming-webhook URLs, for
 * one) carry their credential in the path or query, and logs are read more widely than the operator routes.
 */
const logged = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return 'an unparsable URL';
  }
};

/** Starts sending `store`'s webhook deliveries; the first pass runs at once. */
export const startWebhookDeliverer = (
  store: WebhookStore,
  options: WebhookDelivererOptions,
): WebhookDeliverer => {
  const now = options.now ?? Date.now;
  const pollMs = options.pollMs ?? 1_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const delayAfter = options.retryDelayMs ?? retryDelay(10_000);
  const giveUpAfter = options.giveUpAfterMs ?? RETRY_FOR_MS;
  const concurrency = options.concurrency ?? 16;
  const privateNetworks = options.privateNetworks ?? false;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let running: Promise<number> | null = null;

  const attempt = async (delivery: ClaimedDelivery): Promise<void> => {
    const sentAt = now();
    let status: number | null = null;
    let answer: string | null = null;
    let error: string | null = null;
    let askedWait = 0;
    // What only the server's log says: the addresses a refused name resolved to (webhook-post.ts says why).
    let serverOnly = '';
    try {
      const response = await postWebhook(delivery.url, {
        timeoutMs,
        answerChars: 1024,
        privateNetworks,
        ...(options.dnsServers === undefined ? {} : { dnsServers: options.dnsServers }),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'feature-server-webhooks',
          [DELIVERY_HEADER]: delivery.id,
          [EVENT_HEADER]: delivery.eventType,
          [SIGNATURE_HEADER]: signWebhook(delivery.secret, delivery.body, Math.floor(sentAt / 1000)),
        },
        body: delivery.body,
      });
      status = response.status;
      answer = response.answer;
      askedWait = retryAfterMs(response.retryAfter, sentAt);
    } catch (cause) {
      error = cause instanceof Error ? cause.message : String(cause);
      if (cause instanceof RefusedTargetError && cause.resolved !== '') serverOnly = `; ${cause.resolved}`;
    }
    const delivered = status !== null && status >= 200 && status < 300;
    const settledAt = now();
    const deadline = delivery.createdMs + giveUpAfter;
    const retryAtMs =
      delivered || settledAt >= deadline
        ? null
        : Math.min(deadline, settledAt + Math.round(Math.max(delayAfter(delivery.attempts + 1), askedWait)));
    if (!delivered) {
      const why = status === null ? `${error}${serverOnly}` : `HTTP ${status}`;
      if (retryAtMs === null)
        options.log.warn(
          `webhook ${delivery.webhookId}: delivery ${delivery.id} (${delivery.eventType}) to ${logged(delivery.url)} given up after ${delivery.attempts + 1} attempts in 24 h (last: ${why})`,
        );
      else
        options.log.info(
          `webhook ${delivery.webhookId}: delivery ${delivery.id} to ${logged(delivery.url)} failed (${why}); next attempt in ${Math.round((retryAtMs - settledAt) / 1000)} s`,
        );
    }
    await store.settleDelivery(delivery, { atMs: sentAt, status, answer, error, retryAtMs });
  };

  const pass = async (): Promise<number> => {
    let attempts = 0;
    // Again at once after a pass that sent something: the next delivery of each target is due now.
    for (;;) {
      if (stopped) return attempts;
      const at = now();
      const claimed = await store.claimDueDeliveries(at, at + timeoutMs + 5_000, concurrency);
      if (claimed.length === 0) return attempts;
      await Promise.all(claimed.map(attempt));
      attempts += claimed.length;
    }
  };

  const run = (): Promise<number> => {
    running ??= pass()
      .catch((error: unknown) => {
        options.log.warn(`webhooks: a delivery pass failed and is retried: ${String(error)}`);
        return 0;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };

  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      void run().then(schedule);
    }, pollMs);
    timer.unref();
  };
  void run().then(schedule);

  return {
    run,
    async stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      await running;
    },
  };
};

// The webhook delivery log's retention (issue 36 follow-up, FEATURE_WEBHOOK_LOG_DAYS): every event makes one
// row per target, with its body and the target's answer, so without a limit the log grows for as long as the
// server runs. The app's hourly upkeep drops what was settled (delivered or given up) longer ago than the kept
// days; a pending delivery is still being sent and always stays.
import type { FastifyBaseLogger } from 'fastify';
import type { WebhookStore } from '../store/webhook-store.js';

const DAY_MS = 86_400_000;

/** Purges deliveries settled more than `days` before `nowMs`; never throws (a failure is logged). */
export const purgeOldDeliveries = async (
  store: Pick<WebhookStore, 'purgeDeliveries'>,
  nowMs: number,
  days: number,
  log: Pick<FastifyBaseLogger, 'info' | 'error'>,
): Promise<void> => {
  try {
    const purged = await store.purgeDeliveries(nowMs - days * DAY_MS);
    if (purged > 0) log.info({ purged }, 'old webhook deliveries purged');
  } catch (error) {
    log.error({ err: error }, 'the webhook delivery log purge failed');
  }
};

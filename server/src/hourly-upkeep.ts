// The app's hourly upkeep: rows that expired or outlived their retention are dropped (tokens, console
// sessions, user links, single sign-ons started and never finished, unused assignments, audit entries past
// FEATURE_AUDIT_RETENTION_DAYS, webhook deliveries settled longer ago than FEATURE_WEBHOOK_LOG_DAYS). It runs
// once when the app is ready, then every hour, and stops with the app. Each part is logged apart, so one failing never
// keeps the others from running.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './app-context.js';
import { purgeOldAuditEntries } from './audit/audit-retention.js';
import { DEFAULT_WEBHOOK_LOG_DAYS } from './config.js';
import { purgeOldDeliveries } from './webhooks/webhook-log-retention.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** What the upkeep keeps and for how long. */
export interface UpkeepOptions {
  /** Days an unused assignment is kept (ASSIGNMENT_RETENTION_DAYS, default 90). */
  assignmentRetentionDays?: number;
  /** Days an audit entry is kept (FEATURE_AUDIT_RETENTION_DAYS); absent or null: forever. */
  auditRetentionDays?: number | null;
  /** Days a settled webhook delivery is kept (FEATURE_WEBHOOK_LOG_DAYS, default 30). */
  webhookLogDays?: number;
}

/** Runs the upkeep on `app`'s ready, every hour after, until it closes. */
export const scheduleHourlyUpkeep = (app: FastifyInstance, ctx: AppContext, options: UpkeepOptions): void => {
  const { store, log } = ctx;
  const retentionMs = (options.assignmentRetentionDays ?? 90) * DAY_MS;
  const purge = async (): Promise<void> => {
    try {
      // Expired tokens answer {"active":false} whether their row exists or not: drop the rows.
      await store.purgeExpiredTokens(ctx.now());
      await store.purgeConsoleSessions(ctx.now());
      await store.purgeUserLinks(ctx.now());
      await store.purgeSsoSignIns(ctx.now());
      const purged = await store.purgeAssignments(ctx.now() - retentionMs);
      if (purged > 0) {
        ctx.assignments.clear();
        log.info({ purged }, 'unused assignments purged');
      }
    } catch (error) {
      log.error({ err: error }, 'the assignment purge failed');
    }
    await purgeOldAuditEntries(store, ctx.now(), options.auditRetentionDays ?? null, log);
    await purgeOldDeliveries(store, ctx.now(), options.webhookLogDays ?? DEFAULT_WEBHOOK_LOG_DAYS, log);
  };
  const timer = setInterval(() => void purge(), HOUR_MS).unref();
  app.addHook('onReady', (done) => {
    void purge();
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    clearInterval(timer);
    done();
  });
};

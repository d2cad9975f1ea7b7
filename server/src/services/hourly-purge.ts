// The app's hourly purge: rows that only wait to be dropped (expired tokens, console sessions, user links,
// single sign-ons started and never finished) and assignments unused for the retention period. Runs once when
// the app is ready, then every hour, until it closes; a failure is logged and the next hour tries again.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AssignmentService } from '../assignments/assignment-service.js';
import type { Store } from '../store/store.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** What the purge works on. */
export interface HourlyPurgeOptions {
  store: Store;
  assignments: AssignmentService;
  log: Logger;
  now: () => number;
  /** Days an unused assignment is kept (ASSIGNMENT_RETENTION_DAYS, default 90). */
  assignmentRetentionDays?: number;
}

/** Runs the purge when `app` is ready and every hour after, until it closes. */
export const scheduleHourlyPurge = (app: FastifyInstance, options: HourlyPurgeOptions): void => {
  const { store, log, now } = options;
  const retentionMs = (options.assignmentRetentionDays ?? 90) * DAY_MS;
  const purge = async (): Promise<void> => {
    try {
      // Expired tokens answer {"active":false} whether their row exists or not: drop the rows.
      await store.purgeExpiredTokens(now());
      await store.purgeConsoleSessions(now());
      await store.purgeUserLinks(now());
      await store.purgeSsoSignIns(now());
      const purged = await store.purgeAssignments(now() - retentionMs);
      if (purged > 0) {
        options.assignments.clear();
        log.info({ purged }, 'unused assignments purged');
      }
    } catch (error) {
      log.error({ err: error }, 'the assignment purge failed');
    }
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

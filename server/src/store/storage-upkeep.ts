// The store's daily upkeep (issue 31): the month partitions of activations and hits for this month and the
// next two (time-partitions.ts), and, with FEATURE_RETENTION_DAYS, the drop of whole months older than the
// retention (retention-sql.ts). Run once at start, then every day; several instances on one PostgreSQL may all
// run it: each step is idempotent, and the drop runs under every environment's fold lock.
import { droppedLine, retentionHorizon } from './sql/retention-sql.js';
import type { UpkeepStore } from './upkeep-store.js';

/** Where the upkeep's lines go (the server's logger). */
export interface UpkeepLog {
  info(line: string): void;
  warn(line: string): void;
}

/** Options of startStorageUpkeep. */
export interface StorageUpkeepOptions {
  /** FEATURE_RETENTION_DAYS; null keeps every row. */
  retentionDays: number | null;
  log: UpkeepLog;
  /** The clock (tests move it by months). */
  now?: () => number;
  /** How often it runs after the first time (default a day). */
  intervalMs?: number;
}

/** The running upkeep. */
export interface StorageUpkeep {
  /** Runs the upkeep now (what the timer does); never throws: a failure is logged and retried next time. */
  run(): Promise<void>;
  /** Stops the timer and waits for a run in progress, so the store can close behind it. */
  stop(): Promise<void>;
}

/** A day: the upkeep's default interval (partitions exist two months ahead, so a missed day costs nothing). */
export const UPKEEP_INTERVAL_MS = 86_400_000;

/** Runs the upkeep once (awaited: the partitions exist before the server takes rows), then every day. */
export const startStorageUpkeep = async (
  store: UpkeepStore,
  options: StorageUpkeepOptions,
): Promise<StorageUpkeep> => {
  const now = options.now ?? Date.now;
  let running: Promise<void> = Promise.resolve();
  const once = async (): Promise<void> => {
    try {
      const created = await store.keepPartitions(now());
      if (created.length > 0) options.log.info(`storage: created partitions ${created.join(', ')}`);
      if (options.retentionDays === null) return;
      const outcome = await store.applyRetention(retentionHorizon(now(), options.retentionDays));
      for (const partition of outcome.dropped) options.log.info(droppedLine(partition));
      if (outcome.strayRows > 0)
        options.log.info(
          `retention: deleted ${outcome.strayRows} rows received before ${new Date(outcome.horizonMs).toISOString()} from the default partitions`,
        );
      if (outcome.postponed !== null)
        options.log.warn(
          `retention: ${outcome.postponed} still has rows waiting to be folded into the reports: it is kept until the next run`,
        );
    } catch (error) {
      options.log.warn(`storage upkeep failed, retried at its next run: ${String(error)}`);
    }
  };
  const run = (): Promise<void> => {
    running = running.then(once);
    return running;
  };
  await run();
  const timer = setInterval(() => void run(), options.intervalMs ?? UPKEEP_INTERVAL_MS);
  timer.unref();
  return {
    run,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
};

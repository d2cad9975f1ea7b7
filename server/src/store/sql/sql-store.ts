// The one Store implementation over the shared SQL surface; PGlite and PostgreSQL differ only in `Sql`.
import { accessQueries } from './accesses-sql.js';
import { auditQueries } from './audit-sql.js';
import { campaignRestoreQueries } from './campaign-restore-sql.js';
import { campaignEditQueries } from './campaign-edits-sql.js';
import { campaignQueries } from './campaigns-sql.js';
import { collectQueries } from './collect-sql.js';
import { consoleSessionQueries } from './console-sessions-sql.js';
import { configChannel, environmentQueries } from './environments-sql.js';
import { groupCommit } from './group-commit.js';
import { reportQueries } from './report-sql.js';
import { applyRetention } from './retention-sql.js';
import { readRollupHorizon } from '../rollups/rollup-horizon.js';
import { ssoQueries } from './sso-sql.js';
import { rollupFolder } from '../rollups/rollup-folder.js';
import { rollupQueries } from '../rollups/rollups-sql.js';
import type { Sql } from './sql.js';
import type { Store } from '../store.js';
import { keepMonthPartitions } from './time-partitions.js';
import { trafficQueries } from './traffic-sql.js';
import { userQueries } from './users-sql.js';
import { webhookQueries } from './webhooks-sql.js';

/** Options of the store. */
export interface SqlStoreOptions {
  /** Hears a failed background fold of the report rollups (retried at the next store or sweep). */
  onRollupError?: (error: unknown) => void;
}

/** Builds the store over an open, migrated database. */
export const createSqlStore = (sql: Sql, kind: Store['kind'], options: SqlStoreOptions = {}): Store => {
  const channel = configChannel(sql.channelPrefix);
  const { storeActivations, storeHits, ...collect } = collectQueries(sql);
  const {
    foldRollups,
    pendingRollupEnvironments,
    hasPendingRollups,
    readCampaignRollups,
    campaignRollupRevision,
    ...rollups
  } = rollupQueries(sql);
  const folder = rollupFolder(
    { foldRollups, pendingRollupEnvironments, hasPendingRollups },
    {
      // The embedded store runs one statement at a time: shorter folds keep hits and decisions from queueing
      // behind one. PostgreSQL folds beside them.
      batch: kind === 'pglite' ? 500 : 2_000,
      sweepMs: 1_000,
      // Each fold has a fixed cost (about ten statements, ~1 ms each on the embedded store's one thread):
      // folding what arrived over a few hundred milliseconds spends it once for hundreds of rows, where a fold
      // every 20 ms under steady traffic took over half of that thread (measured). Reads never wait for it:
      // a report folds what its environment has waiting first.
      delayMs: kind === 'pglite' ? 500 : 200,
      onError:
        options.onRollupError ??
        ((error: unknown) =>
          process.emitWarning(`Report rollups: a fold failed and will be retried: ${String(error)}`)),
    },
  );
  // The embedded store runs one statement at a time in its thread: a second statement in flight only queues
  // there (measured: 8-13 k rows/s with one, 5-10 k with two). PostgreSQL merges concurrent commits.
  const inFlight = kind === 'pglite' ? { statementsInFlight: 1 } : {};
  const thenFold =
    <R>(insert: (envId: string, rows: readonly R[]) => Promise<number>) =>
    async (envId: string, rows: readonly R[]): Promise<number> => {
      const stored = await insert(envId, rows);
      if (stored > 0) folder.stored(envId);
      return stored;
    };
  return {
    kind,
    ...environmentQueries(sql, channel),
    ...campaignQueries(sql, channel),
    ...campaignEditQueries(sql, channel),
    ...accessQueries(sql),
    ...consoleSessionQueries(sql),
    ...webhookQueries(sql),
    ...userQueries(sql),
    ...auditQueries(sql),
    ...campaignRestoreQueries(sql, channel),
    ...ssoQueries(sql),
    ...collect,
    insertActivations: thenFold(groupCommit(storeActivations, undefined, inFlight)),
    insertHits: thenFold(groupCommit(storeHits, undefined, inFlight)),
    ...reportQueries(sql),
    ...rollups,
    campaignRollups: async (envId, campaignId) => {
      await folder.settle(envId);
      return readCampaignRollups(envId, campaignId);
    },
    campaignRollupRevision: async (envId, campaignId) => {
      await folder.settle(envId);
      return campaignRollupRevision(envId, campaignId);
    },
    drainRollups: (onProgress) => folder.drain(onProgress),
    ...trafficQueries(sql),
    keepPartitions: (nowMs) => keepMonthPartitions(sql, nowMs),
    // Settled, not drained: under steady traffic a drain might never end. Rows of the months to drop are old:
    // a month whose rows are still pending after this waits for the next day's run.
    applyRetention: (horizonMs) =>
      applyRetention(sql, horizonMs, async () => {
        for (const envId of await pendingRollupEnvironments()) await folder.settle(envId);
      }),
    retentionHorizon: () => readRollupHorizon(sql),
    onConfigurationChange: (listener, onInterruption) => sql.listen(channel, listener, onInterruption),
    close: async () => {
      await folder.close();
      await sql.close();
    },
  };
};

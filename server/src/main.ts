// Running the server: open the store the configuration names (store/open-store.ts), build the app, listen, and close cleanly on
// SIGINT/SIGTERM (so the embedded store's folder is released and written-behind assignments are flushed).
import type { FastifyInstance } from 'fastify';
import type { DestinationStream, Logger } from 'pino';
import { createApp } from './app.js';
import { consoleDir, demoPageDir, frameworkDemoDir, openfeatureDemoDir, sdkBundleDir } from './assets.js';
import { ConsoleSessions } from './auth/console-sessions.js';
import type { ServerConfig } from './config.js';
import { InputError } from './errors.js';
import { newLocalOperatorKey, removeLocalOperator, writeLocalOperator } from './local-operator.js';
import { createLogger } from './logger.js';
import { foldAll } from './report/rollups/fold-all.js';
import { progressLine } from './report/rollups/rollup-progress.js';
import { startStorageUpkeep, type StorageUpkeep } from './store/storage-upkeep.js';
import { retryDelay, startWebhookDeliverer, type WebhookDeliverer } from './webhooks/webhook-deliverer.js';
import type { Store } from './store/store.js';

export { openStore, type StoreOpenEvents } from './store/open-store.js';

/** What to do when the server cannot listen where the configuration says. */
const listenError = (error: unknown, config: ServerConfig): Error => {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const where = `${config.host}:${config.port}`;
  if (code === 'EADDRINUSE')
    return new InputError(
      `${where} is already in use (another feature-server?): stop it, or set PORT to a free port.`,
    );
  if (code === 'EACCES')
    return new InputError(`Not allowed to listen on ${where}: set PORT to a port above 1023.`);
  if (code === 'EADDRNOTAVAIL')
    return new InputError(
      `${config.host} is not an address of this machine: set HOST to one (e.g. 127.0.0.1).`,
    );
  return error instanceof Error ? error : new Error(String(error));
};

/** A running server. */
export interface RunningServer {
  app: FastifyInstance;
  store: Store;
  url: string;
  log: Logger;
  close: () => Promise<void>;
  /**
   * Whether the console at /admin is on: with an operator key (FEATURE_OPERATOR_KEY), or on the embedded
   * store (its local credential, through which `feature-server console` asks for a sign-in link).
   */
  consoleOn: boolean;
  /**
   * A one-time console sign-in link (15 minutes), or null when the console is off. A live credential: print
   * it only to whoever asked for it, never into the logs (PROTOCOL.md §13.7).
   */
  consoleSignInLink: () => Promise<string | null>;
}

/**
 * Starts the server on an open store; `demo` is served to the demo page when known. Logs go to `log` (the
 * CLI's, which also heard the store open), else to a logger on `logDestination` (the CLI picks stderr or
 * stdout, JSON or readable lines), else as JSON to stdout.
 */
export const serve = async (
  config: ServerConfig,
  store: Store,
  demo?: { envId: string; apiKey: string },
  options: { logDestination?: DestinationStream; log?: Logger } = {},
): Promise<RunningServer> => {
  const log = options.log ?? createLogger(config.logLevel, options.logDestination);
  // On the embedded store, commands reach this server through its operator routes (local-operator.ts).
  const localKey = store.kind === 'pglite' ? newLocalOperatorKey() : null;
  const operatorKeys = [config.operatorKey, localKey].filter((key): key is string => key !== null);
  const consoleSessions = new ConsoleSessions(store, { operatorKeys });
  const app = await createApp({
    store,
    consoleSessions,
    logger: log,
    assignmentRetentionDays: config.assignmentRetentionDays,
    auditRetentionDays: config.auditRetentionDays,
    webhookLogDays: config.webhookLogDays,
    webhookPrivateNetworks: config.webhookPrivateNetworks,
    operatorKeys,
    maxTokenLifetimeSeconds: config.maxTokenLifetimeSeconds,
    maxStreams: config.maxStreams,
    ...(config.trustProxy === null ? {} : { trustProxy: config.trustProxy }),
    static: {
      demoDir: demoPageDir(),
      sdkDir: sdkBundleDir(),
      frameworkDemoDir: frameworkDemoDir(),
      openfeatureDemoDir: openfeatureDemoDir(),
      consoleDir: consoleDir(),
      ...(demo === undefined ? {} : { demo }),
    },
  });
  let upkeep: StorageUpkeep | null = null;
  let webhooks: WebhookDeliverer | null = null;
  try {
    // An upgrade marks every stored row for the report rollups (migration 9): they are folded before the
    // server answers, with a line every few seconds saying how far (a few stored rows: no line at all).
    await foldAll(store, { onProgress: (progress) => log.info(progressLine(progress)) });
    // This month's partitions and the next two's exist before the first row arrives; FEATURE_RETENTION_DAYS
    // drops whole old months (issue 31). Then daily.
    upkeep = await startStorageUpkeep(store, {
      retentionDays: config.retentionDays,
      log: { info: (line) => log.info(line), warn: (line) => log.warn(line) },
    });
    // Deliveries queued before a stop or a crash go out now, then whatever changes make (issue 36).
    webhooks = startWebhookDeliverer(store, {
      log: { info: (line) => log.info(line), warn: (line) => log.warn(line) },
      retryDelayMs: retryDelay(config.webhookFirstRetryMs),
      privateNetworks: config.webhookPrivateNetworks,
    });
    // fastify logs one line an address it listens on; that line also names the store, so it is the only one.
    const storeName = store.kind === 'pglite' ? 'embedded PGlite store' : 'PostgreSQL store';
    await app.listen({
      port: config.port,
      host: config.host,
      listenTextResolver: (address) => `feature-server listening at ${address} (${storeName})`,
    });
  } catch (error) {
    // The store is the caller's, but nothing else will close it: a folder left locked would stop the next run.
    await webhooks?.stop();
    await upkeep?.stop();
    await app.close();
    await store.close();
    throw listenError(error, config);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  if (localKey !== null) {
    try {
      writeLocalOperator(config.dataDir, { url, key: localKey, pid: process.pid });
    } catch (error) {
      log.warn(
        { err: error },
        'the local operator credential could not be written: commands need the server stopped',
      );
    }
  }
  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      if (localKey !== null) removeLocalOperator(config.dataDir);
      await webhooks.stop();
      await upkeep.stop();
      await app.close();
      await store.close();
    })();
    return closing;
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log.info({ signal }, 'stopping');
      void close().then(() => process.exit(0));
    });
  }
  const consoleSignInLink = async (): Promise<string | null> =>
    operatorKeys.length === 0 ? null : `${url}/admin/#sign-in=${(await consoleSessions.createLink()).token}`;
  return { app, store, url, log, close, consoleOn: operatorKeys.length > 0, consoleSignInLink };
};

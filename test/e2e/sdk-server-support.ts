// The SDK against the project's own server, in-process: one store per test file (PGlite, and PostgreSQL when
// DATABASE_URL is set), an app on 127.0.0.1:0 that records what reached the store, environments seeded the
// way an operator does it (an account, an environment, a bucketing-format file imported), and SDK instances
// pointed at it. Expected variations come from PROTOCOL.md §15's table, never from the engine.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'node:test';
import type { AccountSettings, BucketingFile } from '../../src/protocol/index.js';
import { campaignsFile } from './sdk-server-campaigns.js';
import {
  ConfigBuilder,
  FeatureInstance,
  Level,
  MemoryHitCache,
  MemoryVisitorCache,
  Mode,
  type OnVisitorExposed,
  type Visitor,
} from '../../src/core/node.js';
import { nodePlatform } from '../../src/core/platform/node.js';
import { importCampaignsFile } from '../../server/src/cli/import-file.js';
import { buildCampaignReport } from '../../server/src/report/build-report.js';
import type { ActivationRow, HitRow } from '../../server/src/store/collect-store.js';
import type { Store } from '../../server/src/store/store.js';
import type { CampaignReport, VariationReport } from '../../src/protocol/index.js';
import { recordingLogs } from '../core/support.js';
import { describeOnEveryStoreWith, startApp, type Running, type StoreKind } from '../server/support.js';

/** What reached the store through the app: the server's view of what the SDK sent. */
export interface Received {
  hits: Array<{ envId: string; row: HitRow }>;
  activations: Array<{ envId: string; row: ActivationRow }>;
  /** Every HTTP request, as `METHOD path` (query left out). */
  requests: string[];
}

/** A server for one test file. */
export interface E2eServer {
  store: Store;
  running: Running;
  received: Received;
  /** Creates an account and environment and imports `file` as an operator would; returns id and key. */
  seed(
    file?: Pick<BucketingFile, 'campaigns'>,
    settings?: Partial<AccountSettings>,
  ): Promise<{ envId: string; apiKey: string }>;
  /** Imports `file` into `envId` (replacing its campaigns). */
  importFile(envId: string, file: Pick<BucketingFile, 'campaigns'>): Promise<void>;
  /** The current ETag of the environment's bucketing file. */
  bucketingEtag(envId: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Wraps `store` so that every hit and activation written through it is also recorded, once the store has
 * them: a test that waits for a recorded row may then read it from the store.
 */
const recording = (store: Store, received: Received): Store => ({
  ...store,
  insertHits: async (envId, rows) => {
    const stored = await store.insertHits(envId, rows);
    for (const row of rows) received.hits.push({ envId, row });
    return stored;
  },
  insertActivations: async (envId, rows) => {
    const stored = await store.insertActivations(envId, rows);
    for (const row of rows) received.activations.push({ envId, row });
    return stored;
  },
});

/** Starts the server over an open store. */
export const startE2eServer = async (store: Store): Promise<E2eServer> => {
  const received: Received = { hits: [], activations: [], requests: [] };
  const running = await startApp(recording(store, received));
  running.app.server.on('request', (req: { method?: string; url?: string }) => {
    received.requests.push(`${req.method ?? ''} ${(req.url ?? '').split('?')[0] ?? ''}`);
  });
  const dir = mkdtempSync(join(tmpdir(), 'feature-e2e-'));
  let files = 0;
  const importFile = async (envId: string, file: Pick<BucketingFile, 'campaigns'>): Promise<void> => {
    const path = join(dir, `campaigns-${++files}.json`);
    writeFileSync(path, JSON.stringify(file));
    await importCampaignsFile(store, envId, path);
  };
  return {
    store,
    running,
    received,
    async seed(file = campaignsFile(), settings = {}) {
      const account = await store.createAccount('E2E shop');
      const { environment, apiKey } = await store.createEnvironment({
        accountId: account.id,
        name: 'e2e',
        accountSettings: settings,
      });
      await importFile(environment.id, file);
      return { envId: environment.id, apiKey };
    },
    importFile,
    async bucketingEtag(envId) {
      const res = await fetch(`${running.url}/cdn/${envId}/bucketing.json`);
      await res.arrayBuffer();
      return res.headers.get('etag') ?? '';
    },
    async close() {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

/** What `describeE2eOnEveryStore` hands its suite; `server` is readable once `before` has run. */
export interface E2eFixture {
  /** The store backend this run of the suite uses. */
  readonly kind: StoreKind;
  /** The server over this run's store (its `store` field is that store). */
  readonly server: E2eServer;
  /** What a test started and must stop (SDK instances, for `startSdk`); run newest first after each test. */
  readonly closers: Array<() => Promise<void>>;
}

/**
 * Runs `suite` once per store kind (see `describeOnEveryStoreWith`) over a server started in `before` and
 * closed in `after`; after each test, the test's closers run.
 */
export const describeE2eOnEveryStore = (title: string, suite: (fixture: E2eFixture) => void): void => {
  const lifecycle = { start: startE2eServer, stop: (server: E2eServer) => server.close() };
  describeOnEveryStoreWith(title, lifecycle, (kind, started) => {
    const closers: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const close of closers.splice(0).reverse()) await close();
    });
    suite({
      kind,
      closers,
      get server() {
        return started('server');
      },
    });
  });
};

/** An SDK instance started against the server. */
export interface E2eSdk {
  instance: FeatureInstance;
  exposures: Array<{ visitorId: string; key: string; variationId: string }>;
  logs: ReturnType<typeof recordingLogs>;
  /** Builds a visitor and fetches its flags. */
  fetched(
    visitorId: string,
    context?: Record<string, string | number | boolean>,
    hasConsented?: boolean,
  ): Promise<Visitor>;
}

/** Starts an SDK in `mode` on `server`; the pool is flushed by `instance.close()` (batches every 60 s). */
export const startSdk = async (
  server: E2eServer,
  env: { envId: string; apiKey: string },
  mode: Mode,
  closers: Array<() => Promise<void>>,
  pollingSeconds = 60,
): Promise<E2eSdk> => {
  const instance = new FeatureInstance(nodePlatform);
  closers.push(() => instance.close());
  const exposures: E2eSdk['exposures'] = [];
  const onExposed: OnVisitorExposed = (visitor, flag) => {
    exposures.push({ visitorId: visitor.id, key: flag.key, variationId: flag.metadata().variationId });
  };
  const logs = recordingLogs();
  await instance.start(
    env.envId,
    env.apiKey,
    new ConfigBuilder()
      .withMode(mode)
      .withServerUrl(server.running.url)
      .withBucketingPollingIntervals(pollingSeconds)
      .withTrackingConfig({ batchIntervals: 60, poolMaxSize: 100 })
      .withLogManager(logs.manager)
      .withLogLevel(Level.ALL)
      .withDisableDeveloperUsageTracking(true)
      .withCacheVisitorManager(new MemoryVisitorCache())
      .withCacheHitManager(new MemoryHitCache())
      .withOnVisitorExposed(onExposed)
      .build(),
  );
  return {
    instance,
    exposures,
    logs,
    async fetched(visitorId, context = {}, hasConsented = true) {
      const visitor = instance.newVisitor({ visitorId, hasConsented }).withContext(context).build();
      await visitor.fetchFlags();
      return visitor;
    },
  };
};

/** The two §15 flags of a visitor, read without exposure. */
export const assigned = (visitor: Visitor): [unknown, unknown] => [
  visitor.getFlag('q').value(-1, { visitorExposed: false }),
  visitor.getFlag('h').value(-1, { visitorExposed: false }),
];

/** The report of a campaign, through the server's own report function (what `feature-server report` prints). */
export const report = (server: E2eServer, envId: string, campaignId: string): Promise<CampaignReport> =>
  buildCampaignReport(server.store, envId, campaignId);

/** One variation's figures in a report. */
export const variationOf = (body: CampaignReport, variationId: string): VariationReport => {
  const found = body.variation_groups.flatMap((g) => g.variations).find((v) => v.id === variationId);
  if (found === undefined)
    throw new Error(`no variation ${variationId} in the report of ${body.campaign_id}`);
  return found;
};

/** Visits per variation id, zeros left out. */
export const visitsOf = (body: CampaignReport): Record<string, number> =>
  Object.fromEntries(
    body.variation_groups
      .flatMap((g) => g.variations)
      .filter((v) => v.visits > 0)
      .map((v) => [v.id, v.visits]),
  );

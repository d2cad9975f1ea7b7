// Server commands that put the project's real server under browser tests (`executeServerCommand` from
// @web/test-runner-commands): one app per test run over one in-memory PGlite store (opening one costs
// seconds, so tests share it and make a fresh environment each), a small proxy in front of it that can hold
// decision answers back and records the order of requests on the wire, and reads of what the store kept.
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AccountSettings, BucketingCampaign, CampaignReport } from '../../src/protocol/index.js';
import { createApp } from '../../server/src/app.js';
import { createLogger } from '../../server/src/logger.js';
import { buildCampaignReport } from '../../server/src/report/build-report.js';
import { migrate } from '../../server/src/store/migrations/migrate.js';
import { openPgliteThread } from '../../server/src/store/pglite/pglite-thread.js';
import { createSqlStore } from '../../server/src/store/sql/sql-store.js';
import type { Sql } from '../../server/src/store/sql/sql.js';
import type { Store } from '../../server/src/store/store.js';
import { until } from './until.js';
import { auditedByTests } from '../server/test-actor.js';

/** Routes the proxy tells apart. */
export type ProxyRoute =
  'campaigns' | 'bucketing' | 'activate' | 'events' | 'ofrep-flag' | 'ofrep-bulk' | 'other';

/** One request that went through the proxy, in arrival order. */
export interface WireRequest {
  /** Arrival order over the whole run. */
  seq: number;
  route: ProxyRoute;
  /**
   * From the path (decision, bucketing file), the body's `cid` (activations, hits) or the API key of an
   * environment made by `server-env` (OFREP); null when none.
   */
  envId: string | null;
  method: string;
  path: string;
  /** The JSON body, or null. */
  body: unknown;
  /** The request's If-None-Match header, or null (OFREP's bulk route answers 304 to a matching one). */
  ifNoneMatch: string | null;
  /** Epoch ms when the whole request had arrived, and when its answer was sent (null while held). */
  at: number;
  answeredAt: number | null;
  status: number | null;
}

/** An activation as stored (§4), in arrival order. */
export interface StoredActivation {
  hid: string | null;
  visitorId: string;
  anonymousId: string | null;
  campaignId: string;
  variationGroupId: string;
  variationId: string;
  createdMs: number;
  receivedMs: number;
}

/** A hit as stored (§5), in arrival order. */
export interface StoredHit {
  hid: string | null;
  type: string;
  visitorId: string;
  customerId: string | null;
  goal: string | null;
  createdMs: number;
  body: Record<string, unknown>;
}

interface Running {
  sql: Sql;
  store: Store;
  url: string;
  proxyUrl: string;
  close: () => Promise<void>;
}

interface Hold {
  routes: Set<ProxyRoute>;
  waiting: Array<() => void>;
}

const wire: WireRequest[] = [];
const holds = new Map<string, Hold>();
/** API key → environment id, for the environments `server-env` made: OFREP requests name no environment. */
const keyEnvironments = new Map<string, string>();
let running: Promise<Running> | undefined;

const routeOf = (method: string, path: string): { route: ProxyRoute; envId: string | null } => {
  const campaigns = /^\/v2\/([^/]+)\/campaigns\/?$/.exec(path);
  if (method === 'POST' && campaigns) return { route: 'campaigns', envId: campaigns[1] ?? null };
  const bucketing = /^\/cdn\/([^/]+)\/bucketing\.json$/.exec(path);
  if (method === 'GET' && bucketing) return { route: 'bucketing', envId: bucketing[1] ?? null };
  if (method === 'POST' && path === '/v2/activate') return { route: 'activate', envId: null };
  if (method === 'POST' && (path === '/events' || path === '/events/'))
    return { route: 'events', envId: null };
  if (method === 'POST' && path === '/ofrep/v1/evaluate/flags') return { route: 'ofrep-bulk', envId: null };
  if (method === 'POST' && path.startsWith('/ofrep/v1/evaluate/flags/'))
    return { route: 'ofrep-flag', envId: null };
  return { route: 'other', envId: null };
};

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
};

/** The environment whose API key the request carries (`x-api-key` or a bearer token), if `server-env` made it. */
const environmentOfKey = (req: IncomingMessage): string | null => {
  const header = req.headers['x-api-key'];
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const key = typeof header === 'string' ? header : bearer;
  return key === undefined ? null : (keyEnvironments.get(key) ?? null);
};

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/** Forwards everything to `target` unchanged (CORS included); holds answers of held routes. */
const startProxy = async (target: URL): Promise<{ url: string; close: () => Promise<void> }> => {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const body = await readBody(req);
      const method = req.method ?? 'GET';
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const { route, envId } = routeOf(method, path);
      const json = body.length > 0 ? parse(body.toString('utf8')) : null;
      const cid = (json as { cid?: unknown } | null)?.cid;
      const entry: WireRequest = {
        seq: wire.length + 1,
        route,
        envId:
          envId ??
          (typeof cid === 'string' ? cid : route.startsWith('ofrep-') ? environmentOfKey(req) : null),
        method,
        path,
        body: json,
        ifNoneMatch: req.headers['if-none-match'] ?? null,
        at: Date.now(),
        answeredAt: null,
        status: null,
      };
      if (method !== 'OPTIONS') wire.push(entry);
      const upstream = forward(
        {
          host: target.hostname,
          port: target.port,
          method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (answer) => {
          void readBody(answer).then(async (bytes) => {
            const hold = entry.envId === null ? undefined : holds.get(entry.envId);
            if (hold?.routes.has(route)) await new Promise<void>((release) => hold.waiting.push(release));
            entry.answeredAt = Date.now();
            entry.status = answer.statusCode ?? 502;
            if (res.destroyed) return; // the browser gave up waiting (its timeout)
            res.writeHead(entry.status, answer.headers);
            res.end(bytes);
          });
        },
      );
      upstream.on('error', (error) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
      upstream.end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      for (const hold of holds.values()) for (const release of hold.waiting.splice(0)) release();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
};

const start = async (): Promise<Running> => {
  // Opened by hand rather than by openPgliteStore, to keep the SQL surface for the reads below.
  const sql = await openPgliteThread(null);
  await migrate(sql);
  const store = auditedByTests(createSqlStore(sql, 'pglite'));
  const app = await createApp({ store, logger: createLogger('fatal') });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const proxy = await startProxy(new URL(url));
  return {
    sql,
    store,
    url,
    proxyUrl: proxy.url,
    close: async () => {
      await proxy.close();
      await app.close();
      await store.close();
    },
  };
};

const server = (): Promise<Running> => (running ??= start());

const num = (value: unknown): number => Number(value);
const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

const received = async (envId: string): Promise<{ activations: StoredActivation[]; hits: StoredHit[] }> => {
  const { sql } = await server();
  const activations = await sql.query(
    `SELECT hid, visitor_id, anonymous_id, campaign_id, variation_group_id, variation_id, created_ms, received_ms
     FROM activations WHERE env_id = $1 ORDER BY seq`,
    [envId],
  );
  const hits = await sql.query(
    `SELECT hid, type, visitor_id, customer_id, goal, created_ms, body FROM hits WHERE env_id = $1 ORDER BY seq`,
    [envId],
  );
  return {
    activations: activations.map((row) => ({
      hid: textOrNull(row.hid),
      visitorId: String(row.visitor_id),
      anonymousId: textOrNull(row.anonymous_id),
      campaignId: String(row.campaign_id),
      variationGroupId: String(row.variation_group_id),
      variationId: String(row.variation_id),
      createdMs: num(row.created_ms),
      receivedMs: num(row.received_ms),
    })),
    hits: hits.map((row) => ({
      hid: textOrNull(row.hid),
      type: String(row.type),
      visitorId: String(row.visitor_id),
      customerId: textOrNull(row.customer_id),
      goal: textOrNull(row.goal),
      createdMs: num(row.created_ms),
      body: (typeof row.body === 'string' ? parse(row.body) : row.body) as Record<string, unknown>,
    })),
  };
};

/** What a bucketing file's campaigns decide: campaign/group/variation ids with each variation's flags. */
const decidedBy = (campaigns: readonly BucketingCampaign[]): string =>
  campaigns
    .flatMap((c) =>
      c.variationGroups.flatMap((g) =>
        g.variations.map((v) => {
          const flags = Object.entries(v.modifications.value).map(
            ([k, value]) => `${k}=${JSON.stringify(value)}`,
          );
          return `${c.id}/${g.id}/${v.id}:${flags.sort().join(',')}`;
        }),
      ),
    )
    .sort()
    .join(' ');

/**
 * Replaces the campaigns of `envId` and resolves once the app answers from them: the app learns of a change
 * through the store's notification, after the write resolves, so a fetch made at once could get the old
 * decision. Polls the app's bucketing file directly (not through the proxy, whose record stays the SDK's).
 */
const replaceCampaigns = async (envId: string, campaigns: BucketingCampaign[]): Promise<void> => {
  const { store, url } = await server();
  await store.replaceCampaigns(envId, campaigns);
  const want = decidedBy(campaigns);
  await until(
    async () => {
      const file = (await (await fetch(`${url}/cdn/${envId}/bucketing.json`)).json()) as {
        campaigns?: BucketingCampaign[];
      };
      return decidedBy(file.campaigns ?? []) === want;
    },
    { what: `the app serving the new campaigns of ${envId}` },
  );
};

interface CommandArgs {
  envId?: string;
  campaignId?: string;
  campaigns?: BucketingCampaign[];
  accountSettings?: Partial<AccountSettings>;
  routes?: ProxyRoute[];
}

/**
 * The wtr plugin: `server-start` (→ `{url, proxyUrl}`), `server-env` (`{campaigns, accountSettings?}` →
 * `{envId, apiKey}`), `server-campaigns` (`{envId, campaigns}`: replaces them, resolves once the app answers
 * from them), `server-report` (`{envId, campaignId}` → the §14.5 report), `server-received`
 * (`{envId}` → stored activations and hits in arrival order), `proxy-hold` (`{envId, routes?}`: answers of
 * the environment's decision and bucketing routes wait), `proxy-release` (`{envId}`), `proxy-requests`
 * (`{envId}` → what went through the proxy for it, in order).
 */
export const serverAppCommandsPlugin = () => ({
  name: 'feature-server-app',
  async executeCommand({ command, payload }: { command: string; payload?: unknown }): Promise<unknown> {
    const args = (payload ?? {}) as CommandArgs;
    const envId = args.envId ?? '';
    switch (command) {
      case 'server-start': {
        const { url, proxyUrl } = await server();
        return { url, proxyUrl };
      }
      case 'server-env': {
        const { store } = await server();
        const account = await store.createAccount('Elements test');
        const { environment, apiKey } = await store.createEnvironment({
          accountId: account.id,
          name: 'elements',
          accountSettings: args.accountSettings ?? {},
        });
        await store.replaceCampaigns(environment.id, args.campaigns ?? []);
        keyEnvironments.set(apiKey, environment.id);
        return { envId: environment.id, apiKey };
      }
      case 'server-campaigns':
        await replaceCampaigns(envId, args.campaigns ?? []);
        return true;
      case 'server-report': {
        const { store } = await server();
        const report: CampaignReport = await buildCampaignReport(store, envId, args.campaignId ?? '');
        return report;
      }
      case 'server-received':
        return received(envId);
      case 'proxy-hold':
        holds.set(envId, { routes: new Set(args.routes ?? ['campaigns', 'bucketing']), waiting: [] });
        return true;
      case 'proxy-release': {
        const hold = holds.get(envId);
        holds.delete(envId);
        for (const release of hold?.waiting.splice(0) ?? []) release();
        return true;
      }
      case 'proxy-requests':
        return wire.filter((request) => request.envId === envId);
      default:
        return undefined;
    }
  },
  async serverStop(): Promise<void> {
    const started = running;
    running = undefined;
    if (started) await (await started).close();
  },
});

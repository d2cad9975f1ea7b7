// Issue 32: requests are checked by their route schemas (Ajv) and answers serialized from them
// (fast-json-stringify) at no cost to the hot routes. The server as it was before (BASE, extracted with
// `git archive` into a scratch folder that uses this checkout's node_modules) and the server of this checkout,
// each in a child process on its own embedded store, take in alternated rounds: decisions (10 000 visitors
// cycled, sendContextEvent=false), hit batches of 20, and remote control campaign list reads, from 50
// connections for 3 s each. Then, in process, what serializing the decision and campaign-list answers costs
// with their response schemas against JSON.stringify.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import fastJson from 'fast-json-stringify';
import { decisionRouteSchema } from '../server/src/plugins/decision-schemas.js';
import { remoteRouteSchemas } from '../server/src/plugins/remote-schemas.js';
import { checkoutCampaign } from './fixtures/checkout-campaign.js';
import { median, nsPerOp, type Bench, type BenchRow } from './harness.js';

/** The last commit before issue 32: requests checked by hand, answers through JSON.stringify. */
const BASE = 'c3d1c40';
const CONNECTIONS = 50;
const SECONDS = 3;
const ROUNDS = 5;
const VISITORS = 10_000;
const HITS_PER_REQUEST = 20;
const ROOT = new URL('../', import.meta.url).pathname;
const ENTRY =
  "import { runCli } from './server/src/cli.ts'; const code = await runCli(process.argv.slice(1)); if (code !== 0) process.exit(code);";

const cli = (root: string, dataDir: string, args: string[]): Record<string, unknown> =>
  JSON.parse(
    execFileSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', ENTRY, '--', ...args, '--json'],
      {
        cwd: root,
        env: { ...process.env, LOG_LEVEL: 'error', DATABASE_URL: '', FEATURE_DATA_DIR: dataDir },
        encoding: 'utf8',
      },
    ),
  ) as Record<string, unknown>;

interface Running {
  child: ChildProcess;
  url: string;
  accountId: string;
  envId: string;
  apiKey: string;
  token: string;
  dataDir: string;
}

/** A server of the checkout at `root` with one A/B campaign, an API key and a remote control token. */
const startServer = async (root: string, tag: string): Promise<Running> => {
  const dataDir = mkdtempSync(join(tmpdir(), `checks-${tag}-`));
  const account = cli(root, dataDir, ['account', 'create', '--name', 'bench']);
  const accountId = String(account.accountId);
  const created = cli(root, dataDir, ['env', 'create', '--account', accountId, '--name', 'checks']);
  const envId = String(created.envId);
  const file = join(dataDir, 'campaigns.json');
  writeFileSync(file, JSON.stringify({ campaigns: [checkoutCampaign] }));
  cli(root, dataDir, ['import', file, '--env', envId]);
  const access = cli(root, dataDir, [
    'access',
    'create',
    '--account',
    accountId,
    '--name',
    'bench',
    '--actions',
    'campaign.list,campaign.read',
  ]);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', ENTRY, '--', 'serve', '--json'],
    {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'error', DATABASE_URL: '', PORT: '0', FEATURE_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve((JSON.parse(out.split('\n')[0] ?? '{}') as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${String(code)}`)));
  });
  const tokenAnswer = await fetch(`${url}/oauth/${accountId}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: String(access.clientId),
      client_secret: String(access.clientSecret),
    }).toString(),
  });
  const { access_token: token } = (await tokenAnswer.json()) as { access_token: string };
  return { child, url, accountId, envId, apiKey: String(created.apiKey), token, dataDir };
};

type Load = 'decisions' | 'hits' | 'remote reads';

const contextOf = (i: number) => ({
  plan: ['free', 'gold', 'premium'][i % 3] ?? 'free',
  country: ['fr', 'us', 'de'][i % 3] ?? 'fr',
  age: 18 + (i % 50),
});

/** Requests per second `server` takes of one kind, 50 connections, 3 s. */
const load = async (server: Running, kind: Load): Promise<number> => {
  let n = 0;
  const options =
    kind === 'decisions'
      ? {
          url: `${server.url}/v2/${server.envId}/campaigns?sendContextEvent=false`,
          method: 'POST' as const,
          headers: { 'content-type': 'application/json', 'x-api-key': server.apiKey },
          requests: [
            {
              setupRequest: (request: object) => {
                const i = n++ % VISITORS;
                return { ...request, body: JSON.stringify({ visitorId: `v-${i}`, context: contextOf(i) }) };
              },
            },
          ],
        }
      : kind === 'hits'
        ? {
            url: `${server.url}/events`,
            method: 'POST' as const,
            headers: { 'content-type': 'application/json' },
            requests: [
              {
                setupRequest: (request: object) => {
                  const vid = `h-${process.pid}-${n++}`;
                  const h = Array.from({ length: HITS_PER_REQUEST }, (_, i) => ({
                    t: 'EVENT',
                    vid,
                    cuid: null,
                    qt: 0,
                    hid: `${vid}-${i}`,
                    ec: 'Action Tracking',
                    ea: 'add_to_cart',
                    ev: i,
                  }));
                  return { ...request, body: JSON.stringify({ cid: server.envId, t: 'BATCH', h }) };
                },
              },
            ],
          }
        : {
            url: `${server.url}/v1/accounts/${server.accountId}/account_environments/${server.envId}/campaigns`,
            method: 'GET' as const,
            headers: { authorization: `Bearer ${server.token}` },
          };
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration: SECONDS });
  if (result.non2xx > 0) throw new Error(`${kind}: ${result.non2xx} requests refused`);
  return result.requests.average;
};

const stop = async (child: ChildProcess): Promise<void> => {
  child.kill('SIGTERM');
  if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
};

/** What serializing `answer` costs with `schema` (fast-json-stringify) and with JSON.stringify. */
const serialization = (what: string, schema: object, answer: unknown): BenchRow => {
  const stringify = fastJson(schema as Parameters<typeof fastJson>[0]);
  if (JSON.stringify(JSON.parse(stringify(answer))) !== JSON.stringify(answer))
    throw new Error(`${what}: the schema serializer changed the answer`);
  const withSchema = nsPerOp(() => stringify(answer));
  const plain = nsPerOp(() => JSON.stringify(answer));
  return {
    figure: `Serializing ${what} from its response schema`,
    value: withSchema,
    unit: 'ns',
    baseline: { figure: 'JSON.stringify', value: plain },
    ratio: { value: plain / withSchema, goal: '> 1 (faster)', met: plain > withSchema },
    note: `fast-json-stringify, as fastify compiles it for the route; ratio = JSON.stringify time / schema time`,
  };
};

export const bench: Bench = async () => {
  const base = mkdtempSync(join(tmpdir(), 'feature-base-'));
  const servers: Running[] = [];
  try {
    execFileSync('sh', ['-c', `git -C ${ROOT} archive ${BASE} | tar -x -C ${base}`]);
    symlinkSync(join(ROOT, 'node_modules'), join(base, 'node_modules'));
    const old = await startServer(base, 'base');
    servers.push(old);
    const now = await startServer(ROOT, 'now');
    servers.push(now);
    const kinds: Load[] = ['decisions', 'hits', 'remote reads'];
    const figures = new Map(kinds.map((kind) => [kind, { old: [] as number[], now: [] as number[] }]));
    // One uncounted round each, so both servers are warm and have their visitors' assignments.
    for (const kind of kinds) {
      await load(old, kind);
      await load(now, kind);
    }
    for (let round = 0; round < ROUNDS; round++) {
      process.stderr.write(`bench: request checks, round ${round + 1}/${ROUNDS}\n`);
      for (const kind of kinds) {
        const figure = figures.get(kind);
        if (figure === undefined) continue;
        // Alternate which server goes first, so neither always runs on a machine the other just heated.
        const order = round % 2 === 0 ? [old, now] : [now, old];
        for (const server of order) (server === old ? figure.old : figure.now).push(await load(server, kind));
      }
    }
    const rows: BenchRow[] = kinds.map((kind) => {
      const figure = figures.get(kind) ?? { old: [], now: [] };
      const ratio = median(figure.now) / median(figure.old);
      return {
        figure: `${kind[0]?.toUpperCase() ?? ''}${kind.slice(1)} with schema-checked requests and answers`,
        value: median(figure.now),
        unit: 'req/s',
        baseline: { figure: `before issue 32 (${BASE})`, value: median(figure.old) },
        ratio: { value: ratio, goal: '>= 0.95', met: ratio >= 0.95 },
        note: `PGlite, ${CONNECTIONS} connections, ${SECONDS} s, median of ${ROUNDS} alternated rounds: ${figure.now.map(Math.round).join(', ')} vs ${figure.old.map(Math.round).join(', ')}${kind === 'hits' ? `; ${HITS_PER_REQUEST} hits a request` : ''}`,
      };
    });
    const decision = await fetch(`${now.url}/v2/${now.envId}/campaigns?sendContextEvent=false`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': now.apiKey },
      body: JSON.stringify({ visitorId: 'v-1', context: contextOf(1) }),
    });
    const page = await fetch(
      `${now.url}/v1/accounts/${now.accountId}/account_environments/${now.envId}/campaigns`,
      { headers: { authorization: `Bearer ${now.token}` } },
    );
    const decisionSchema = (decisionRouteSchema.response as Record<number, object>)[200] ?? {};
    const pageSchema = (remoteRouteSchemas['campaign.list'].response as Record<number, object>)[200] ?? {};
    rows.push(serialization('a decision', decisionSchema, await decision.json()));
    rows.push(serialization('a campaign list page', pageSchema, await page.json()));
    return rows;
  } finally {
    for (const server of servers) {
      await stop(server.child);
      rmSync(server.dataDir, { recursive: true, force: true });
    }
    rmSync(base, { recursive: true, force: true });
  }
};

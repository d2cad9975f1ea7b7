// Issue 31: hit and activation ingestion with the report rollups costs at most a fifth of what ingestion cost
// before them. The server as it was before issue 31 (BASE, the last commit before it, extracted with
// `git archive` into a scratch folder that uses this checkout's node_modules) and the server of this checkout,
// each in a child process on its own embedded store (and on PostgreSQL when DATABASE_URL is set, each in a
// schema of its own), take single-row POST /events and POST /v2/activate requests from 50 concurrent
// connections for 3 s, in alternated rounds; each request carries a new visitor, so every row folds as a first
// exposure or a goal hit. After each round, the time until this checkout's server has folded everything it
// took says whether the folds keep up with that load (they run beside ingestion, off the request).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { checkoutCampaign } from './fixtures/checkout-campaign.js';
import { median, type Bench, type BenchRow } from './harness.js';

/** The last commit before issue 31: the server whose ingestion the rollups are compared with. */
const BASE = 'ef60429';
const CONNECTIONS = 50;
const SECONDS = 3;
const ROUNDS = 3;
const ROOT = new URL('../', import.meta.url).pathname;
const OPERATOR_KEY = 'bench-operator-key-0123456789abcdef';
const ENTRY =
  "import { runCli } from './server/src/cli.ts'; const code = await runCli(process.argv.slice(1)); if (code !== 0) process.exit(code);";

type Store = { kind: 'pglite' } | { kind: 'postgres'; url: string };

/** Runs a CLI command of the checkout at `root` to its end; returns its JSON answer. */
const cli = (root: string, args: string[], env: Record<string, string>): Record<string, unknown> =>
  JSON.parse(
    execFileSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', ENTRY, '--', ...args, '--json'],
      {
        cwd: root,
        env: { ...process.env, LOG_LEVEL: 'error', DATABASE_URL: '', ...env },
        encoding: 'utf8',
      },
    ),
  ) as Record<string, unknown>;

/** A server of the checkout at `root` with an environment holding one A/B campaign; its URL and env id. */
const startServer = async (
  root: string,
  storeEnv: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; envId: string }> => {
  const account = cli(root, ['account', 'create', '--name', 'bench'], storeEnv);
  const created = cli(
    root,
    ['env', 'create', '--account', String(account.accountId), '--name', 'ingest'],
    storeEnv,
  );
  const envId = String(created.envId);
  const file = join(mkdtempSync(join(tmpdir(), 'ingest-file-')), 'campaigns.json');
  execFileSync('sh', ['-c', `cat > ${file}`], { input: JSON.stringify({ campaigns: [checkoutCampaign] }) });
  cli(root, ['import', file, '--env', envId], storeEnv);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', ENTRY, '--', 'serve', '--json'],
    {
      cwd: root,
      env: {
        ...process.env,
        LOG_LEVEL: 'error',
        DATABASE_URL: '',
        PORT: '0',
        FEATURE_OPERATOR_KEY: OPERATOR_KEY,
        ...storeEnv,
      },
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
  return { child, url, envId };
};

/** Requests per second a server takes of one kind, 50 connections, every request a new visitor. */
const load = async (url: string, envId: string, kind: 'hits' | 'activations'): Promise<number> => {
  let n = 0;
  const run = process.hrtime.bigint();
  const body = (): string => {
    const vid = `v-${run}-${n++}`;
    return kind === 'hits'
      ? JSON.stringify({
          cid: envId,
          t: 'BATCH',
          h: [
            { t: 'EVENT', vid, cuid: null, qt: 0, hid: `h-${vid}`, ec: 'Action Tracking', ea: 'add_to_cart' },
          ],
        })
      : JSON.stringify({
          cid: envId,
          batch: [{ vid, caid: 'vg1', vaid: n % 2 ? 'v1' : 'v2', qt: 0, hid: `a-${vid}` }],
        });
  };
  const result = await autocannon({
    url: `${url}${kind === 'hits' ? '/events' : '/v2/activate'}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [{ setupRequest: (request) => ({ ...request, body: body() }) }],
  });
  if (result.non2xx > 0) throw new Error(`${kind}: ${result.non2xx} requests refused`);
  return result.requests.average;
};

const stop = async (child: ChildProcess): Promise<void> => {
  child.kill('SIGTERM');
  if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
};

/** The rows of one store: hits/s and activations/s of this checkout against BASE's, and the fold lag. */
const measure = async (store: Store, base: string): Promise<BenchRow[]> => {
  const schema = (tag: string) => `ingest_${tag}_${process.pid}_${Date.now()}`;
  const schemas: string[] = [];
  const storeEnv = (tag: string): Record<string, string> => {
    if (store.kind === 'pglite') return { FEATURE_DATA_DIR: mkdtempSync(join(tmpdir(), `ingest-${tag}-`)) };
    const name = schema(tag);
    schemas.push(name);
    const url = new URL(store.url);
    url.searchParams.set('options', `-c search_path=${name}`);
    return { DATABASE_URL: url.toString() };
  };
  const before = storeEnv('base');
  const after = storeEnv('now');
  if (store.kind === 'postgres') {
    const client = new pg.Client({ connectionString: store.url });
    await client.connect();
    for (const name of schemas) await client.query(`CREATE SCHEMA ${name}`);
    await client.end();
  }
  const old = await startServer(base, before);
  const now = await startServer(ROOT, after);
  const figures = {
    oldHits: [] as number[],
    nowHits: [] as number[],
    oldActs: [] as number[],
    nowActs: [] as number[],
  };
  const lags: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      process.stderr.write(`bench: ingestion with rollups, ${store.kind}, round ${round + 1}/${ROUNDS}\n`);
      figures.oldHits.push(await load(old.url, old.envId, 'hits'));
      figures.nowHits.push(await load(now.url, now.envId, 'hits'));
      figures.nowActs.push(await load(now.url, now.envId, 'activations'));
      figures.oldActs.push(await load(old.url, old.envId, 'activations'));
      // Whether the folds keep up: a report read right after the load first folds what the load left.
      const started = Date.now();
      const report = await fetch(`${now.url}/admin/v1/environments/${now.envId}/reports?campaign=c1`, {
        headers: { authorization: `Bearer ${OPERATOR_KEY}` },
      });
      if (!report.ok) throw new Error(`report: ${report.status}`);
      await report.text();
      lags.push(Date.now() - started);
    }
  } finally {
    await stop(old.child);
    await stop(now.child);
    if (store.kind === 'postgres') {
      const client = new pg.Client({ connectionString: store.url });
      await client.connect();
      for (const name of schemas) await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
      await client.end();
    }
  }
  const row = (what: string, value: number[], baseline: number[]): BenchRow => {
    const ratio = median(value) / median(baseline);
    return {
      figure: `${what} with the report rollups, ${store.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}`,
      value: median(value),
      unit: 'req/s',
      baseline: { figure: `before issue 31 (${BASE})`, value: median(baseline) },
      ratio: { value: ratio, goal: '>= 0.8', met: ratio >= 0.8 },
      note: `single-row requests, ${CONNECTIONS} connections, ${SECONDS} s, median of ${ROUNDS} alternated rounds: ${value.map(Math.round).join(', ')} vs ${baseline.map(Math.round).join(', ')}`,
    };
  };
  return [
    row('Hits', figures.nowHits, figures.oldHits),
    row('Activations', figures.nowActs, figures.oldActs),
    {
      figure: `Report read right after each load, ${store.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'} (folds what the load left)`,
      value: median(lags),
      unit: 'ms',
      note: `median of ${ROUNDS}: ${lags.join(', ')} ms`,
    },
  ];
};

/** The rows: ingestion now against before issue 31, on PGlite, and on PostgreSQL with DATABASE_URL. */
export const bench: Bench = async () => {
  const base = mkdtempSync(join(tmpdir(), 'feature-base-'));
  try {
    mkdirSync(base, { recursive: true });
    execFileSync('sh', ['-c', `git -C ${ROOT} archive ${BASE} | tar -x -C ${base}`]);
    symlinkSync(join(ROOT, 'node_modules'), join(base, 'node_modules'));
    const rows = await measure({ kind: 'pglite' }, base);
    const url = process.env.DATABASE_URL;
    if (url !== undefined && url !== '') rows.push(...(await measure({ kind: 'postgres', url }, base)));
    return rows;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
};

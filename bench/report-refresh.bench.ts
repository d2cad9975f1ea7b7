// Issue 31: "A 304 refresh costs <= 5 ms". The console re-reads a campaign's report and its daily series every
// 5 s with If-None-Match (report-etag.ts); while no new row arrives both answer 304. One refresh is the two
// conditional GETs sent together, as the console sends them, timed from the first byte sent to the last byte
// of the slower answer, against the server in a child process on 127.0.0.1 over HTTP, on the embedded store
// and on PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test; skipped when it cannot be
// reached). The campaign holds 10 000 exposures and 1 000 goal hits, stored through the store and folded.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { checkoutCampaign } from './fixtures/checkout-campaign.js';
import { median, type Bench, type BenchRow } from './harness.js';

const KEY = 'operator-key-for-the-report-refresh-bench';
const EXPOSURES = 10_000;
const HITS = 1_000;
const WARM_UP = 100;
const MEASURED = 1_000;
const GOAL_MS = 5;
const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/test';

const campaign = checkoutCampaign;

/** Child side: the app over a fresh store holding the campaign's rows, folded; prints its port and env id. */
const runChild = async (): Promise<void> => {
  const { createApp } = await import('../server/src/app.js');
  const { createLogger } = await import('../server/src/logger.js');
  const url = process.env.BENCH_REFRESH_DATABASE_URL ?? '';
  const store =
    url === ''
      ? await (
          await import('../server/src/store/pglite/pglite.js')
        ).openPgliteStore(process.env.BENCH_DATA_DIR ?? null)
      : await (
          await import('../server/src/store/postgres/postgres.js')
        ).openPostgresStore({ connectionString: url, schema: process.env.BENCH_REFRESH_SCHEMA ?? 'public' });
  const account = await store.createAccount('bench');
  const { environment } = await store.createEnvironment({ accountId: account.id, name: 'refresh' });
  await store.replaceCampaigns(environment.id, [campaign]);
  // Over the last 30 days, visitors alternating between the variations; every tenth converts a minute later.
  const start = Date.now() - 30 * 86_400_000;
  const step = Math.floor((30 * 86_400_000) / EXPOSURES);
  for (let from = 0; from < EXPOSURES; from += 1_000) {
    const rows = Array.from({ length: Math.min(1_000, EXPOSURES - from) }, (_, k) => {
      const i = from + k;
      return {
        hid: `a-${i}`,
        visitorId: `visitor-${i}`,
        anonymousId: null,
        campaignId: 'c1',
        variationGroupId: 'vg1',
        variationId: i % 2 === 0 ? 'v1' : 'v2',
        createdMs: start + i * step,
        receivedMs: start + i * step,
      };
    });
    await store.insertActivations(environment.id, rows);
  }
  const hits = Array.from({ length: HITS }, (_, k) => ({
    hid: `h-${k}`,
    type: 'EVENT',
    visitorId: `visitor-${k * 10}`,
    customerId: null,
    goal: 'add_to_cart',
    revenue: null,
    createdMs: start + k * 10 * step + 60_000,
    receivedMs: start + k * 10 * step + 60_000,
    body: { t: 'EVENT', ec: 'Action Tracking', ea: 'add_to_cart' },
  }));
  await store.insertHits(environment.id, hits);
  await store.drainRollups();
  const app = await createApp({ store, logger: createLogger('warn'), operatorKeys: [KEY] });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port, envId: environment.id })}\n`);
};

interface ChildInfo {
  port: number;
  envId: string;
}

const startChild = (env: Record<string, string>): Promise<{ process: ChildProcess; info: ChildInfo }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
      env: { ...process.env, BENCH_REFRESH_CHILD: '1', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error('the refresh bench server did not start')), 300_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('\n')) return;
      clearTimeout(timer);
      resolve({ process: child, info: JSON.parse(out.split('\n')[0] ?? '{}') as ChildInfo });
    });
    child.once('exit', (code) => reject(new Error(`the refresh bench server exited (${String(code)})`)));
  });

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/** One GET; its status, ETag and milliseconds to the end of its body. */
const get = async (url: string, etag: string): Promise<{ status: number; etag: string }> => {
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${KEY}`, ...(etag === '' ? {} : { 'if-none-match': etag }) },
  });
  await res.arrayBuffer();
  return { status: res.status, etag: res.headers.get('etag') ?? '' };
};

/** Sorted milliseconds of MEASURED conditional refreshes (report and series together), after WARM_UP. */
const refreshes = async (info: ChildInfo): Promise<{ times: number[]; fullMs: number }> => {
  const base = `http://127.0.0.1:${info.port}/admin/v1/environments/${info.envId}`;
  const urls = [`${base}/campaigns/c1/report`, `${base}/reports/c1/days`];
  const fullStarted = process.hrtime.bigint();
  const first = await Promise.all(urls.map((url) => get(url, '')));
  const fullMs = Number(process.hrtime.bigint() - fullStarted) / 1e6;
  if (first.some((a) => a.status !== 200 || a.etag === ''))
    throw new Error(`first read: ${JSON.stringify(first)}`);
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + MEASURED; i++) {
    const started = process.hrtime.bigint();
    const answers = await Promise.all(urls.map((url, u) => get(url, first[u]?.etag ?? '')));
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (answers.some((a) => a.status !== 304)) throw new Error(`refresh ${i}: ${JSON.stringify(answers)}`);
    if (i >= WARM_UP) times.push(ms);
  }
  return { times: times.sort((a, b) => a - b), fullMs };
};

/** The rows of one backend. */
const measure = async (name: string, env: Record<string, string>): Promise<BenchRow[]> => {
  const { process: child, info } = await startChild(env);
  try {
    const { times, fullMs } = await refreshes(info);
    const p50 = median(times);
    const p99 = percentile(times, 0.99);
    const note = `${MEASURED} refreshes after ${WARM_UP}, one at a time, report and daily series sent together with If-None-Match, operator key, keep-alive; ${EXPOSURES} exposures and ${HITS} goal hits folded; the first (200) read of both took ${fullMs.toFixed(1)} ms`;
    return [
      {
        figure: `report refresh answered 304 (report + daily series), median, ${name}`,
        value: p50,
        unit: 'ms',
        ratio: { value: p50 / GOAL_MS, goal: `≤ 1 (${GOAL_MS} ms)`, met: p50 <= GOAL_MS },
        note,
      },
      {
        figure: `report refresh answered 304 (report + daily series), p99, ${name}`,
        value: p99,
        unit: 'ms',
        ratio: { value: p99 / GOAL_MS, goal: `≤ 1 (${GOAL_MS} ms)`, met: p99 <= GOAL_MS },
        note: `max ${times.at(-1)?.toFixed(2) ?? '?'} ms`,
      },
    ];
  } finally {
    child.kill();
  }
};

const reachable = async (url: string): Promise<boolean> => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
};

/** The rows: median and p99 on the embedded store, then on PostgreSQL when reachable. */
export const bench: Bench = async () => {
  const rows: BenchRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'feature-refresh-bench-'));
  try {
    rows.push(...(await measure('PGlite', { BENCH_DATA_DIR: dir })));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const url = process.env.DATABASE_URL ?? DEFAULT_URL;
  if (!(await reachable(url))) {
    process.stderr.write(`bench: report-refresh: PostgreSQL at ${url} cannot be reached; skipped\n`);
    return rows;
  }
  const schema = `bench_refresh_${randomBytes(6).toString('hex')}`;
  try {
    rows.push(
      ...(await measure('PostgreSQL', { BENCH_REFRESH_DATABASE_URL: url, BENCH_REFRESH_SCHEMA: schema })),
    );
  } finally {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
  return rows;
};

if (process.env.BENCH_REFRESH_CHILD === '1') await runChild();

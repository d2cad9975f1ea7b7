// The token service and the remote control API under load (issue 14), against baselines in the same run:
// token issue, token check and a remote control read (list campaigns), each beside a bare fastify route on the
// same store making the same store calls (so the ratio is what our parsing, checks, limits and answers cost),
// with autocannon on 127.0.0.1 and both servers in one child process. Then the answer time of an unknown client
// id beside a wrong secret, 2 000 sequential tries each, interleaved: they must not be told apart.
// This file is also the child: BENCH_TOKENS_CHILD=1 runs the servers.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { median, type Bench, type BenchRow } from './harness.js';

const RUNS = 5;
const SECONDS = 2;
const CONNECTIONS = 20;
const TIMING_TRIES = 2000;

interface ChildInfo {
  ours: number;
  bare: number;
  accountId: string;
  envId: string;
  clientId: string;
  clientSecret: string;
  token: string;
}

/** Child side: our app and a bare fastify app over one PGlite store; prints ChildInfo on stdout. */
const runChild = async (): Promise<void> => {
  const Fastify = (await import('fastify')).default;
  const { openPgliteStore } = await import('../server/src/store/pglite/pglite.js');
  const { createApp } = await import('../server/src/app.js');
  const { createLogger } = await import('../server/src/logger.js');
  const { createAccess } = await import('../server/src/auth/create-access.js');
  const { digest } = await import('../server/src/ids.js');
  const { newAccessToken } = await import('../server/src/auth/credentials.js');
  const { readFileSync } = await import('node:fs');
  const store = await openPgliteStore(process.env.BENCH_DATA_DIR ?? null);
  const account = await store.createAccount('bench');
  const { environment } = await store.createEnvironment({ accountId: account.id, name: 'bench' });
  const file = JSON.parse(
    readFileSync(fileURLToPath(new URL('./fixtures/engine-50x2x3.json', import.meta.url)), 'utf8'),
  ) as { campaigns: Parameters<typeof store.replaceCampaigns>[1] };
  await store.replaceCampaigns(environment.id, file.campaigns.slice(0, 10));
  const { access, clientSecret } = await createAccess(store, {
    accountId: account.id,
    name: 'bench',
    actions: ['campaign.list'],
  });
  const limits = {
    tokenRequestsPerMinute: 1e9,
    tokenChecksPerMinute: 1e9,
    pairFailures: 1e9,
    ipFailures: 1e9,
  };
  const ours = await createApp({ store, logger: createLogger('warn'), tokenLimits: limits });
  await ours.listen({ port: 0, host: '127.0.0.1' });

  // The baseline: the same store calls behind bare fastify routes, no parsing rules, no limits, no checks.
  const bare = Fastify();
  bare.post('/token', async () => {
    const found = await store.findAccessByClientId(access.clientId);
    const token = newAccessToken();
    await store.insertToken({
      digest: digest(token),
      accessId: found?.id ?? '',
      accountId: account.id,
      scope: 'campaign.list env:*',
      issuedMs: Date.now(),
      expiresMs: Date.now() + 3_600_000,
    });
    return { access_token: token, token_type: 'Bearer', expires_in: 3600, scope: 'campaign.list env:*' };
  });
  bare.get('/check', async (request) => {
    const found = await store.findToken(
      digest(String((request.query as { access_token?: string }).access_token)),
    );
    return { active: found !== null };
  });
  bare.get('/campaigns', async (request) => {
    const token = String(request.headers.authorization).slice(7);
    await store.findToken(digest(token));
    await store.getEnvironment(environment.id);
    const campaigns = await store.listCampaigns(environment.id);
    return { items: campaigns.slice(0, 10).map((c) => c.body), total_count: campaigns.length };
  });
  await bare.listen({ port: 0, host: '127.0.0.1' });

  const issued = await fetch(`http://127.0.0.1:${port(ours)}/oauth/${account.id}/token?expires_in=0`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: access.clientId,
      client_secret: clientSecret,
    }),
  });
  const { access_token: token } = (await issued.json()) as { access_token: string };
  const info: ChildInfo = {
    ours: port(ours),
    bare: port(bare),
    accountId: account.id,
    envId: environment.id,
    clientId: access.clientId,
    clientSecret,
    token,
  };
  process.stdout.write(`${JSON.stringify(info)}\n`);
};

const port = (app: { server: { address: () => unknown } }): number => {
  const address = app.server.address();
  return typeof address === 'object' && address !== null && 'port' in address ? Number(address.port) : 0;
};

const startChild = (dir: string): Promise<{ process: ChildProcess; info: ChildInfo }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
      env: { ...process.env, BENCH_TOKENS_CHILD: '1', BENCH_DATA_DIR: dir },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error('the token bench servers did not start')), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('\n')) return;
      clearTimeout(timer);
      resolve({ process: child, info: JSON.parse(out.split('\n')[0] ?? '{}') as ChildInfo });
    });
    child.once('exit', (code) => reject(new Error(`the token bench servers exited (${String(code)})`)));
  });

interface Load {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

const rps = async (load: Load): Promise<number> => {
  const result = await autocannon({
    url: load.url,
    method: load.method,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: load.headers ?? {},
    ...(load.body === undefined ? {} : { body: load.body }),
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${load.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
};

/** Ours and the baseline alternately, RUNS rounds: medians and the median of per-round ratios. */
const compare = async (ours: Load, bare: Load) => {
  const oursRps: number[] = [];
  const bareRps: number[] = [];
  await rps(ours); // warm-up, not counted
  await rps(bare);
  for (let round = 0; round < RUNS; round++) {
    oursRps.push(await rps(ours));
    bareRps.push(await rps(bare));
  }
  return {
    ours: median(oursRps),
    bare: median(bareRps),
    ratio: median(oursRps.map((value, i) => value / (bareRps[i] ?? Infinity))),
  };
};

/** Mean answer times of an unknown client id and of a wrong secret, interleaved, sequential. */
const credentialTiming = async (info: ChildInfo) => {
  const url = `http://127.0.0.1:${info.ours}/oauth/${info.accountId}/token`;
  const attempt = async (clientId: string): Promise<number> => {
    const started = process.hrtime.bigint();
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: 'ffs_wrong-secret',
      }),
    });
    await res.arrayBuffer();
    if (res.status !== 401) throw new Error(`expected 401, got ${res.status}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  const unknown: number[] = [];
  const wrong: number[] = [];
  for (let i = 0; i < 200; i++) await attempt(i % 2 ? info.clientId : 'ffc_unknown'); // warm-up
  const deadline = Date.now() + 60_000;
  for (let i = 0; i < TIMING_TRIES && Date.now() < deadline; i++) {
    // Alternate which goes first, so neither always follows the other.
    if (i % 2 === 0) {
      unknown.push(await attempt(`ffc_unknown${i}`));
      wrong.push(await attempt(info.clientId));
    } else {
      wrong.push(await attempt(info.clientId));
      unknown.push(await attempt(`ffc_unknown${i}`));
    }
  }
  const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
  return { unknown: mean(unknown), wrong: mean(wrong), tries: unknown.length };
};

/** The benchmark. */
export const bench: Bench = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-bench-tokens-'));
  let child: ChildProcess | null = null;
  try {
    const started = await startChild(dir);
    child = started.process;
    const { info } = started;
    const ours = `http://127.0.0.1:${info.ours}`;
    const bare = `http://127.0.0.1:${info.bare}`;
    const credentials = JSON.stringify({
      grant_type: 'client_credentials',
      client_id: info.clientId,
      client_secret: info.clientSecret,
    });
    const issue = await compare(
      {
        url: `${ours}/oauth/${info.accountId}/token`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: credentials,
      },
      {
        url: `${bare}/token`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: credentials,
      },
    );
    const check = await compare(
      { url: `${ours}/oauth/token?access_token=${info.token}`, method: 'GET' },
      { url: `${bare}/check?access_token=${info.token}`, method: 'GET' },
    );
    const bearer = { authorization: `Bearer ${info.token}` };
    const read = await compare(
      {
        url: `${ours}/v1/accounts/${info.accountId}/account_environments/${info.envId}/campaigns?_max_per_page=10`,
        method: 'GET',
        headers: bearer,
      },
      { url: `${bare}/campaigns`, method: 'GET', headers: bearer },
    );
    const timing = await credentialTiming(info);
    const gap = Math.abs(timing.unknown - timing.wrong) / Math.min(timing.unknown, timing.wrong);
    const note = `${CONNECTIONS} connections, warm-up + ${RUNS} rounds × ${SECONDS} s alternating, medians (ratio: of per-round ratios); baseline: bare fastify, the same store calls`;
    const row = (
      figure: string,
      result: { ours: number; bare: number; ratio: number },
      what: string,
    ): BenchRow => ({
      figure,
      value: result.ours,
      unit: 'req/s',
      baseline: { figure: `bare fastify: ${what}`, value: result.bare },
      ratio: { value: result.ratio, goal: '≥ 0.80', met: result.ratio >= 0.8 },
      note,
    });
    return [
      row('token issue (POST /oauth/{account}/token, JSON)', issue, 'find access + insert token'),
      row('token check (GET /oauth/token)', check, 'find token'),
      row('remote control read (GET …/campaigns, 10 campaigns)', read, 'find token, environment, campaigns'),
      {
        figure: 'bad credentials: unknown client id vs wrong secret, mean answer time',
        value: timing.unknown,
        unit: 'ms',
        baseline: { figure: 'wrong secret', value: timing.wrong },
        ratio: { value: gap, goal: '≤ 0.05 apart', met: gap <= 0.05 },
        note: `${timing.tries} sequential tries each, interleaved; ratio = |difference| / the smaller mean`,
      },
    ];
  } finally {
    child?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
};

if (process.env.BENCH_TOKENS_CHILD === '1') await runChild();

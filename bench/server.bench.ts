// The decision API under load (issue 7): autocannon on 127.0.0.1 against the server in a child process
// (embedded store, request logging off, sendContextEvent=false, 10 000 visitor ids cycled so assignments are
// both read and written behind), next to, in the same run, (a) a bare node:http server that parses the same
// request, evaluates the same compiled campaigns with the engine and stringifies the answer (no fastify,
// no validation, no API key, no store), and (b) a bare server answering a fixed JSON of the same size. Then
// hit ingestion in hits/s, next to a bare node:http server in the same child over the same store, which
// JSON.parses the batch and inserts the same rows through the same store call (no fastify, no validation, no
// environment lookup): the figure is what the route adds to storing hits durably. This file is also the
// child: BENCH_SERVER_MODE selects which server it runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { HitRow, Store } from '../server/src/store/store.js';
import { compileFile, evaluate } from '../src/engine/index.js';
import type { BucketingFile, VisitorContext } from '../src/protocol/index.js';
import { median, nsPerOp, type Bench, type BenchRow } from './harness.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/engine-50x2x3.json', import.meta.url));
const VISITORS = 10_000;
const RUNS = 7;
/** Uncounted rounds first: round 0 is the first pass over the visitor ids, round 1 lets its writes drain. */
const WARM_UP_ROUNDS = 2;
const SECONDS = 3;
const CONNECTIONS = 50;
const HITS_PER_REQUEST = 20;

const contextOf = (i: number): VisitorContext => ({
  plan: ['free', 'gold', 'premium', 'business'][i % 4] ?? 'free',
  country: ['fr', 'us', 'de', 'es', 'it', 'gb'][i % 6] ?? 'fr',
  age: 18 + (i % 53),
  email: `user${i}@${['shop.io', 'mail.com', 'example.org'][i % 3] ?? 'shop.io'}`,
  appVersion: ['1.2.0', '1.10.0', '2.0.0', '2.1.3', '3.0.0-beta.1'][i % 5] ?? '1.2.0',
  vip: i % 7 === 0,
});
const bodies = Array.from({ length: VISITORS }, (_, i) =>
  JSON.stringify({ visitorId: `visitor-${i}`, context: contextOf(i) }),
);

/**
 * The hit ingestion baseline: parses the batch and stores each hit as a row through the same store call the
 * route makes, with no validation (a hit is taken as it comes), and answers the same body.
 */
const startBareHitServer = (store: Store, envId: string): Promise<number> => {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const batch = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        h: Array<Record<string, unknown>>;
      };
      const now = Date.now();
      const rows = batch.h.map((hit): HitRow => ({
        hid: hit.hid as string,
        type: hit.t as string,
        visitorId: hit.vid as string,
        customerId: (hit.cuid as string | null) ?? null,
        goal: (hit.ea as string | undefined) ?? null,
        revenue: null,
        createdMs: now - (hit.qt as number),
        receivedMs: now,
        body: hit,
      }));
      store.insertHits(envId, rows).then(
        (accepted) => {
          response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
          response.end(
            JSON.stringify({ accepted, duplicates: rows.length - accepted, rejected: [], rejectedCount: 0 }),
          );
        },
        () => {
          response.writeHead(500);
          response.end();
        },
      );
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  });
};

/** Child side: runs one server and prints `{"port":…,"envId":…,"apiKey":…}` on stdout. */
const runChild = async (mode: string): Promise<void> => {
  const file = JSON.parse(readFileSync(FIXTURE, 'utf8')) as BucketingFile;
  const compiled = compileFile(file);
  if (mode === 'app') {
    const { openPgliteStore } = await import('../server/src/store/pglite.js');
    const { createApp } = await import('../server/src/app.js');
    const { createLogger } = await import('../server/src/logger.js');
    const dir = process.env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'feature-bench-'));
    const store = await openPgliteStore(dir);
    const account = await store.createAccount('bench');
    const { environment, apiKey } = await store.createEnvironment({ accountId: account.id, name: 'bench' });
    await store.replaceCampaigns(environment.id, file.campaigns);
    const app = await createApp({ store, logger: createLogger('warn') });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const barePort = await startBareHitServer(store, environment.id);
    process.stdout.write(
      `${JSON.stringify({ port: typeof address === 'object' && address !== null ? address.port : 0, envId: environment.id, apiKey, barePort })}\n`,
    );
    return;
  }
  const fixed = Buffer.from(process.env.BENCH_FIXED_BODY ?? '{}');
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let out: Buffer | string = fixed;
      if (mode === 'bare') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          visitorId: string;
          context: VisitorContext;
        };
        out = JSON.stringify(
          evaluate(compiled, { id: body.visitorId, context: body.context, assignments: {} }, {}).decision,
        );
      }
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      response.end(out);
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(
      `${JSON.stringify({ port: typeof address === 'object' && address !== null ? address.port : 0, envId: 'bare', apiKey: '' })}\n`,
    );
  });
};

interface Child {
  process: ChildProcess;
  port: number;
  envId: string;
  apiKey: string;
  /** The app child only: the port of the bare hit server beside it (same process, same store). */
  barePort?: number;
}

const startChild = (mode: string, env: Record<string, string> = {}): Promise<Child> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
      env: { ...process.env, BENCH_SERVER_MODE: mode, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`bench server ${mode} did not start`)), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('\n')) return;
      clearTimeout(timer);
      const info = JSON.parse(out.split('\n')[0] ?? '{}') as Omit<Child, 'process'>;
      resolve({ process: child, ...info });
    });
    child.once('exit', (code) => reject(new Error(`bench server ${mode} exited (${String(code)})`)));
  });

interface Target {
  url: string;
  headers: Record<string, string>;
  makeBody: () => string;
}

interface Sample {
  rps: number;
  p99: number;
}

/** One bounded autocannon run against `target`. */
const loadOnce = async (target: Target): Promise<Sample> => {
  const result = await autocannon({
    url: target.url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { 'content-type': 'application/json', ...target.headers },
    requests: [{ setupRequest: (request) => ({ ...request, body: target.makeBody() }) }],
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${target.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
};

/** What a series of rounds measured: each target's samples of the counted rounds, and of round 0. */
interface Rounds {
  counted: Sample[][];
  first: Sample[];
}

/**
 * Runs the targets in rounds, one after the other within a round, so that a slow spell of this shared
 * machine lowers every server of a round alike: the ratio is the median of the per-round ratios. The first
 * WARM_UP_ROUNDS are not counted: round 0 warms the JIT up and makes the first pass over the visitor ids (all
 * new to the store, their assignments written behind), round 1 runs while those writes drain. Round 0 is
 * kept apart for its own row. Every server gets the same treatment.
 */
const loadInRounds = async (targets: readonly Target[]): Promise<Rounds> => {
  const counted: Sample[][] = targets.map(() => []);
  const first: Sample[] = [];
  for (let round = 0; round < WARM_UP_ROUNDS + RUNS; round++) {
    for (const [index, target] of targets.entries()) {
      const sample = await loadOnce(target);
      if (round === 0) first.push(sample);
      if (round >= WARM_UP_ROUNDS) counted[index]?.push(sample);
    }
  }
  return { counted, first };
};

const medianOf = (samples: readonly Sample[] | undefined): Sample => ({
  rps: median((samples ?? []).map((s) => s.rps)),
  p99: median((samples ?? []).map((s) => s.p99)),
});

/** The benchmark: decision API req/s and p99 against two bare baselines, then hits/s. */
export const bench: Bench = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-bench-'));
  const children: ChildProcess[] = [];
  try {
    const app = await startChild('app', { BENCH_DATA_DIR: dir });
    children.push(app.process);
    const bare = await startChild('bare');
    children.push(bare.process);
    const sample = await fetch(`http://127.0.0.1:${bare.port}/`, { method: 'POST', body: bodies[1] ?? '{}' });
    const fixed = await startChild('fixed', { BENCH_FIXED_BODY: await sample.text() });
    children.push(fixed.process);
    // Each server walks the visitor ids from the first, so each sees the same sequence.
    const cycle = (): (() => string) => {
      let i = 0;
      return () => bodies[i++ % VISITORS] ?? '{}';
    };
    const decisionUrl = `http://127.0.0.1:${app.port}/v2/${app.envId}/campaigns?exposeAllKeys=true&extras[]=accountSettings&sendContextEvent=false`;
    const decisions = await loadInRounds([
      { url: decisionUrl, headers: { 'x-api-key': app.apiKey }, makeBody: cycle() },
      { url: `http://127.0.0.1:${bare.port}/`, headers: {}, makeBody: cycle() },
      { url: `http://127.0.0.1:${fixed.port}/`, headers: {}, makeBody: cycle() },
    ]);
    const [oursSamples, plainSamples, ceilingSamples] = decisions.counted;
    const [oursFirst, plainFirst] = decisions.first;
    const ours = medianOf(oursSamples);
    const plain = medianOf(plainSamples);
    const ceiling = medianOf(ceilingSamples);
    const ratios = (oursSamples ?? []).map((s, round) => s.rps / (plainSamples?.[round]?.rps ?? Infinity));
    const ratio = median(ratios);
    // The same batches for both servers, each with its own idempotency ids (one store holds both).
    const hitBatches = (prefix: string): (() => string) => {
      let hid = 0;
      return () =>
        JSON.stringify({
          cid: app.envId,
          ds: 'APP',
          t: 'BATCH',
          h: Array.from({ length: HITS_PER_REQUEST }, () => ({
            t: 'EVENT',
            vid: `visitor-${hid % VISITORS}`,
            cuid: null,
            qt: 5,
            hid: `${prefix}-${++hid}`,
            ec: 'Action Tracking',
            ea: 'add_to_cart',
            ev: 1,
          })),
        });
    };
    const hitRounds = await loadInRounds([
      { url: `http://127.0.0.1:${app.port}/events`, headers: {}, makeBody: hitBatches('bench') },
      { url: `http://127.0.0.1:${app.barePort ?? 0}/`, headers: {}, makeBody: hitBatches('bare') },
    ]);
    const [hitSamples, bareHitSamples] = hitRounds.counted;
    const hits = medianOf(hitSamples);
    const bareHits = medianOf(bareHitSamples);
    const hitRatios = (hitSamples ?? []).map(
      (s, round) => s.rps / (bareHitSamples?.[round]?.rps ?? Infinity),
    );
    const hitRatio = median(hitRatios);
    // What validation costs per hit, which the HTTP figure (bound by the store's commits) hides: checkHit on
    // the bench's hits, next to JSON.parse of the same hits' text.
    const { checkHit } = await import('../server/src/validation/hit.js');
    const sampleHits = JSON.parse(
      `[${Array.from({ length: 1000 }, hitBatches('micro')).join(',')}]`,
    ) as Array<{
      h: unknown[];
    }>;
    const oneHits = sampleHits.flatMap((batch) => batch.h);
    const oneTexts = oneHits.map((hit) => JSON.stringify(hit));
    const checkNs = nsPerOp((i) =>
      checkHit(oneHits[i % oneHits.length], app.envId, 'h[0]', 1_700_000_000_000),
    );
    const parseNs = nsPerOp((i) => JSON.parse(oneTexts[i % oneTexts.length] ?? '{}'));
    const note = `50 campaigns (engine-50x2x3), ${CONNECTIONS} connections, ${WARM_UP_ROUNDS} warm-up + ${RUNS} rounds × ${SECONDS} s alternating the servers, medians (ratio: of per-round ratios)`;
    const rows: BenchRow[] = [
      {
        figure: 'decision API throughput (fastify + PGlite store)',
        value: ours.rps,
        unit: 'req/s',
        baseline: { figure: 'bare node:http + engine', value: plain.rps },
        ratio: { value: ratio, goal: '≥ 0.70', met: ratio >= 0.7 },
        note: `${note}; per-round ratios ${ratios.map((r) => r.toFixed(2)).join(' ')}`,
      },
      {
        figure: 'decision API p99 latency',
        value: ours.p99,
        unit: 'ms',
        baseline: { figure: 'bare node:http + engine', value: plain.p99 },
        note,
      },
      {
        figure: 'decision API, first pass (warm-up round 0: every visitor new, JIT warming)',
        value: oursFirst?.rps ?? 0,
        unit: 'req/s',
        baseline: { figure: 'bare node:http + engine, same round', value: plainFirst?.rps ?? 0 },
        note: `ratio ${((oursFirst?.rps ?? 0) / (plainFirst?.rps ?? Infinity)).toFixed(2)}, for context: the store reads and writes every visitor's assignments; p99 ${oursFirst?.p99 ?? 0} ms`,
      },
      {
        figure: 'fixed JSON of the same size (ceiling)',
        value: ceiling.rps,
        unit: 'req/s',
        note: `p99 ${ceiling.p99} ms`,
      },
      {
        figure: 'hit ingestion (durable before 200)',
        value: hits.rps * HITS_PER_REQUEST,
        unit: 'hits/s',
        baseline: {
          figure: 'bare node:http: JSON.parse + the same store insert, no validation',
          value: bareHits.rps * HITS_PER_REQUEST,
        },
        ratio: { value: hitRatio, goal: '≥ 0.80', met: hitRatio >= 0.8 },
        note: `${HITS_PER_REQUEST} hits per request, same PGlite store for both, ${CONNECTIONS} connections, ${WARM_UP_ROUNDS} warm-up + ${RUNS} rounds × ${SECONDS} s alternating; p99 ${hits.p99} ms (baseline ${bareHits.p99} ms); per-round ratios ${hitRatios.map((r) => r.toFixed(2)).join(' ')}`,
      },
      {
        figure: 'hit validation, in process (checkHit per hit)',
        value: checkNs,
        unit: 'ns/hit',
        baseline: { figure: 'JSON.parse of the same hit', value: parseNs },
        note: `the EVENT hits of the ingestion figure; ${(checkNs / parseNs).toFixed(2)}× the parse`,
      },
    ];
    return rows;
  } finally {
    for (const child of children) child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
};

const mode = process.env.BENCH_SERVER_MODE;
if (mode !== undefined) await runChild(mode);

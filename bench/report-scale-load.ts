// What the report-scale bench sends its server child (issue 31): console tabs that refresh a report the way
// the console does (the report and its daily series at once, report-view.ts), and decisions at a fixed rate,
// open loop (sent on schedule whether or not earlier ones have answered, so a stall shows in the latency
// instead of slowing the sender), each timed to the microsecond. Every loop is bounded in count and in time.
import { Agent, request } from 'node:http';

/** The server child's address and credentials. */
export interface Target {
  port: number;
  envId: string;
  apiKey: string;
  operatorKey: string;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Milliseconds of a GET of `path` with the operator key, body read; throws on anything but 200. */
const timedGet = async (target: Target, path: string): Promise<{ ms: number; body: unknown }> => {
  const started = process.hrtime.bigint();
  const response = await fetch(`http://127.0.0.1:${target.port}${path}`, {
    headers: { authorization: `Bearer ${target.operatorKey}` },
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${text.slice(0, 200)}`);
  return { ms, body: JSON.parse(text) as unknown };
};

/** One refresh of a console tab: what it took for both answers, and each. */
export interface Refresh {
  ms: number;
  reportMs: number;
  daysMs: number;
  report: unknown;
}

/** One refresh of a console's report tab: the report and the daily series, both at once. */
export const refreshTab = async (target: Target): Promise<Refresh> => {
  const base = `/admin/v1/environments/${target.envId}`;
  const started = process.hrtime.bigint();
  const [report, days] = await Promise.all([
    timedGet(target, `${base}/campaigns/c1/report`),
    timedGet(target, `${base}/reports/c1/days`),
  ]);
  return {
    ms: Number(process.hrtime.bigint() - started) / 1e6,
    reportMs: report.ms,
    daysMs: days.ms,
    report: report.body,
  };
};

/**
 * `tabs` console tabs refreshing every `everyMs` (staggered) until `signal` aborts; resolves with every
 * refresh's time. A refresh that takes longer than the period delays that tab's next one, as in the console.
 */
export const runTabs = async (
  target: Target,
  tabs: number,
  everyMs: number,
  signal: AbortSignal,
): Promise<Refresh[]> => {
  const refreshes: Refresh[] = [];
  const tab = async (offset: number): Promise<void> => {
    await sleep(offset);
    // Bounded in count too: at most one refresh per period over an hour.
    for (let i = 0; i < 3_600_000 / everyMs && !signal.aborted; i++) {
      const started = Date.now();
      refreshes.push(await refreshTab(target));
      const wait = everyMs - (Date.now() - started);
      if (wait > 0)
        await new Promise<void>((resolve) => {
          const end = (): void => {
            clearTimeout(timer);
            signal.removeEventListener('abort', end);
            resolve();
          };
          const timer = setTimeout(end, wait);
          if (signal.aborted) end();
          else signal.addEventListener('abort', end);
        });
    }
  };
  await Promise.all(Array.from({ length: tabs }, (_, i) => tab((i * everyMs) / tabs)));
  return refreshes;
};

/** What a decision series measured. */
export interface DecisionSeries {
  /** Each answered decision's milliseconds, sorted. */
  times: number[];
  failed: number;
  rps: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** One decision: milliseconds from send to the whole answer. */
const decide = (target: Target, body: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(
      {
        host: '127.0.0.1',
        port: target.port,
        method: 'POST',
        path: `/v2/${target.envId}/campaigns?sendContextEvent=false`,
        agent,
        timeout: 10_000,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-api-key': target.apiKey,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          if (response.statusCode !== 200) reject(new Error(`decision: ${response.statusCode ?? 0}`));
          else resolve(Number(process.hrtime.bigint() - started) / 1e6);
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('decision timed out')));
    req.on('error', reject);
    req.end(body);
  });

const bodies = Array.from({ length: 10_000 }, (_, i) =>
  JSON.stringify({
    visitorId: `decided-${i}`,
    context: {
      plan: ['free', 'gold', 'premium'][i % 3] ?? 'free',
      country: ['fr', 'us', 'de'][i % 3] ?? 'fr',
    },
  }),
);
let nextBody = 0;

/** Decisions at `rate` per second for `seconds`, sent every 5 ms on schedule (10 000 visitor ids cycled). */
export const runDecisions = async (
  target: Target,
  rate: number,
  seconds: number,
): Promise<DecisionSeries> => {
  const total = Math.round(rate * seconds);
  const pending: Array<Promise<number | null>> = [];
  const started = Date.now();
  let failed = 0;
  for (let sent = 0; sent < total;) {
    const due = Math.min(total, Math.floor(((Date.now() - started) * rate) / 1000) + 1);
    for (; sent < due; sent++)
      pending.push(
        decide(target, bodies[nextBody++ % bodies.length] ?? '{}').catch(() => {
          failed++;
          return null;
        }),
      );
    await sleep(5);
  }
  const times = (await Promise.all(pending)).filter((t): t is number => t !== null).sort((a, b) => a - b);
  return { times, failed, rps: (times.length * 1000) / (Date.now() - started) };
};

/** The `p` quantile of sorted values. */
export const quantile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

// The server of the report-scale bench in a process of its own (issue 31): the app on the store the bench
// loaded (a PGlite folder or a PostgreSQL schema), with an operator key so the bench reads reports the way a
// console tab does, and beside it, on another port of the same process, what only the bench asks: the
// process's memory (sampled every 20 ms, peaks kept) and the heap one report and daily series take
// (`--expose-gc`). Prints `{"port":…,"probePort":…}` on stdout once both listen.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { buildCampaignReport } from '../server/src/report/build-report.js';
import { buildDailySeries } from '../server/src/report/daily-series.js';
import type { Store } from '../server/src/store/store.js';

/** What GET /memory answers: peaks since start, and now. */
export interface ChildMemory {
  peakHeapUsed: number;
  peakRss: number;
  /** The kernel's peak resident size of the process (VmHWM), bytes; 0 where /proc cannot tell. */
  vmHwm: number;
  heapUsed: number;
  rss: number;
  heapLimit: number;
}

/** What GET /one-report answers: heap bytes across one report and its daily series, in process. */
export interface OneReport {
  /** heapUsed after minus before (collected before), the results held: what the work allocated. */
  allocated: number;
  /** The same after a collection with the results still held: what they keep. */
  retained: number;
  ms: number;
  gc: boolean;
}

const vmHwm = (): number => {
  try {
    const line = readFileSync('/proc/self/status', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmHWM:'));
    return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
};

const openStore = async (): Promise<Store> => {
  if (process.env.BENCH_STORE === 'postgres') {
    const { openPostgresStore } = await import('../server/src/store/postgres/postgres.js');
    return openPostgresStore({
      connectionString: process.env.BENCH_DATABASE_URL ?? '',
      schema: process.env.BENCH_PG_SCHEMA ?? '',
    });
  }
  const { openPgliteStore } = await import('../server/src/store/pglite/pglite.js');
  return openPgliteStore(process.env.BENCH_DATA_DIR ?? null);
};

const runChild = async (): Promise<void> => {
  const { createApp } = await import('../server/src/app.js');
  const { createLogger } = await import('../server/src/logger.js');
  const store = await openStore();
  const app = await createApp({
    store,
    logger: createLogger('warn'),
    operatorKeys: [process.env.BENCH_OPERATOR_KEY ?? ''],
  });
  await app.listen({ port: 0, host: '127.0.0.1' });

  const peaks = { heapUsed: 0, rss: 0 };
  const sample = (): void => {
    const { heapUsed, rss } = process.memoryUsage();
    peaks.heapUsed = Math.max(peaks.heapUsed, heapUsed);
    peaks.rss = Math.max(peaks.rss, rss);
  };
  setInterval(sample, 20).unref();
  const gc = (globalThis as { gc?: () => void }).gc;
  const { getHeapStatistics } = await import('node:v8');

  const probe = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const answer = (body: unknown): void => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/memory') {
      sample();
      const { heapUsed, rss } = process.memoryUsage();
      answer({
        peakHeapUsed: peaks.heapUsed,
        peakRss: peaks.rss,
        vmHwm: vmHwm(),
        heapUsed,
        rss,
        heapLimit: getHeapStatistics().heap_size_limit,
      } satisfies ChildMemory);
      return;
    }
    if (url.pathname === '/one-report') {
      const envId = url.searchParams.get('env') ?? '';
      void (async () => {
        gc?.();
        const before = process.memoryUsage().heapUsed;
        const started = process.hrtime.bigint();
        const now = new Date();
        const held = await Promise.all([
          buildCampaignReport(store, envId, 'c1', now),
          buildDailySeries(store, envId, 'c1', now),
        ]);
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const allocated = process.memoryUsage().heapUsed - before;
        gc?.();
        const retained = process.memoryUsage().heapUsed - before;
        const result: OneReport = { allocated, retained, ms, gc: gc !== undefined };
        // The results are read after the second measure, so they are held across it.
        answer({ ...result, held: held.length });
      })().catch((error: unknown) => {
        response.writeHead(500);
        response.end(String(error));
      });
      return;
    }
    response.writeHead(404);
    response.end();
  });
  probe.listen(0, '127.0.0.1', () => {
    const address = app.server.address();
    const probeAddress = probe.address();
    process.stdout.write(
      `${JSON.stringify({
        port: typeof address === 'object' && address !== null ? address.port : 0,
        probePort: typeof probeAddress === 'object' && probeAddress !== null ? probeAddress.port : 0,
      })}\n`,
    );
  });
  const stop = (): void => {
    void app
      .close()
      .then(() => store.close())
      .finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
};

if (process.env.BENCH_REPORT_SCALE_CHILD === '1') await runChild();

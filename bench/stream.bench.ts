// The live-update stream under many clients (PROTOCOL.md §17, issue 34): the memory one open stream costs the
// server, and the time one change takes to reach every open stream. The server runs in a child process
// (embedded store, request logging off) beside a bare control server in the same process, which reads the
// process's memory after a full collection and makes changes through the store (so that a change is published
// and heard as any other: NOTIFY, the environment cache, the hub). This process opens the streams over plain
// sockets and counts the events each one receives. Two sizes, 2 000 then 5 000 streams, each in a fresh child,
// its memory a delta against the same child's reading with no stream open (after a warm-up that opened and
// closed some, so that first-use allocations are not counted). The baseline, measured in the same run: a bare
// node:http server that answers the same headers and holds the response, nothing else (no fastify, no hub).
// This file is also the child (BENCH_STREAM_CHILD: `app` or `bare`).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request, createServer, type ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { median, type Bench, type BenchRow } from './harness.js';

/** The numbers of open streams measured (BENCH_STREAM_SIZES=100,1000 for a quick look). */
const SIZES = (process.env.BENCH_STREAM_SIZES ?? '2000,5000').split(',').map(Number);
/** Changes timed per size (their median is the figure). */
const CHANGES = 5;
/** Streams opened at once: more at a time overflows the listen backlog and stalls on SYN retries. */
const OPEN_BATCH = 100;
const OPEN_MAX_MS = 120_000;
const CHANGE_MAX_MS = 15_000;
/** Process memory a figure of "streams per GB" is computed against. */
const GIGABYTE = 1024 ** 3;

/** What the control server reports of its process. */
interface ChildMemory {
  rss: number;
  heapUsed: number;
  external: number;
  streams: number;
}

/** Warm-up streams opened and closed before the empty reading. */
const WARM_UP = 500;

/** The bare baseline: SSE headers, then the response held open until the client leaves. */
const startBareServer = async (): Promise<{ port: number; open: () => number }> => {
  let open = 0;
  const server = createServer((req, res) => {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'access-control-allow-origin': '*',
    });
    res.flushHeaders();
    open++;
    res.once('close', () => open--);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { port: typeof address === 'object' && address !== null ? address.port : 0, open: () => open };
};

/** Child side: the app (or the bare server) and the control server; prints `{"port":…,"controlPort":…,"envId":…}`. */
const runChild = async (mode: string): Promise<void> => {
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as () => void;
  if (mode === 'bare') {
    const bare = await startBareServer();
    await startControl(collect, bare.open, () => Promise.resolve(), { port: bare.port, envId: 'bare' });
    return;
  }
  const { openPgliteStore } = await import('../server/src/store/pglite/pglite.js');
  const { createApp, liveUpdatesOf } = await import('../server/src/app.js');
  const { createLogger } = await import('../server/src/logger.js');
  const dir = mkdtempSync(join(tmpdir(), 'feature-bench-stream-'));
  const store = await openPgliteStore(dir);
  const account = await store.createAccount('bench');
  const { environment } = await store.createEnvironment({ accountId: account.id, name: 'bench' });
  const app = await createApp({ store, logger: createLogger('warn'), maxStreams: 100_000 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  let panic = false;
  const change = async (): Promise<void> => {
    panic = !panic;
    await store.setPanic(environment.id, panic);
  };
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await startControl(collect, () => liveUpdatesOf(app).streams.size, change, { port, envId: environment.id });
  process.once('SIGTERM', () => {
    void app.close().finally(() => {
      void store.close().finally(() => {
        rmSync(dir, { recursive: true, force: true });
        process.exit(0);
      });
    });
  });
};

/** The control server beside a child's stream server: `/memory` after a full collection, `/change`. */
const startControl = async (
  collect: () => void,
  streams: () => number,
  change: () => Promise<void>,
  info: { port: number; envId: string },
): Promise<void> => {
  const control = createServer((req, res) => {
    void (async () => {
      if (req.url === '/memory') {
        // Twice, around a turn of the event loop: weak references and finalizers settle between the two.
        collect();
        await new Promise(setImmediate);
        collect();
        const usage = process.memoryUsage();
        const body: ChildMemory = {
          rss: usage.rss,
          heapUsed: usage.heapUsed,
          external: usage.external,
          streams: streams(),
        };
        res.end(JSON.stringify(body));
        return;
      }
      if (req.url === '/change') {
        await change();
        res.end('{}');
        return;
      }
      res.statusCode = 404;
      res.end();
    })();
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const address = control.address();
  const controlPort = typeof address === 'object' && address !== null ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ ...info, controlPort })}\n`);
};

interface Child {
  process: ChildProcess;
  port: number;
  controlPort: number;
  envId: string;
}

const startChild = (mode: 'app' | 'bare'): Promise<Child> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
      env: { ...process.env, BENCH_STREAM_CHILD: mode },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error('the stream bench server did not start')), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('\n')) return;
      clearTimeout(timer);
      resolve({ process: child, ...(JSON.parse(out.split('\n')[0] ?? '{}') as Omit<Child, 'process'>) });
    });
    child.once('exit', (code) => reject(new Error(`the stream bench server exited (${String(code)})`)));
  });

const control = (child: Child, path: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: child.controlPort, path, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(text));
    });
    req.once('error', reject);
    req.end();
  });

const memoryOf = async (child: Child): Promise<ChildMemory> =>
  JSON.parse(await control(child, '/memory')) as ChildMemory;

/** The open streams of this process: how many `change` events each has received. */
interface Clients {
  counts: Int32Array;
  requests: ClientRequest[];
}

/** Opens `count` streams, OPEN_BATCH at a time, each counting the change events it reads. */
const openStreams = async (child: Child, count: number): Promise<Clients> => {
  const counts = new Int32Array(count);
  const requests: ClientRequest[] = [];
  const deadline = Date.now() + OPEN_MAX_MS;
  const openOne = (i: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: child.port, path: `/v1/${child.envId}/stream`, agent: false },
        (res) => {
          if (res.statusCode !== 200) {
            reject(new Error(`stream ${i}: status ${String(res.statusCode)}`));
            return;
          }
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            // One change event per chunk at most: they are written one by one, far apart.
            if (chunk.includes('event: change')) counts[i] = (counts[i] ?? 0) + 1;
          });
          resolve();
        },
      );
      req.once('error', reject);
      req.end();
      requests.push(req);
    });
  for (let start = 0; start < count; start += OPEN_BATCH) {
    if (Date.now() > deadline) throw new Error(`opening ${count} streams took over ${OPEN_MAX_MS} ms`);
    const batch: Array<Promise<void>> = [];
    for (let i = start; i < Math.min(count, start + OPEN_BATCH); i++) batch.push(openOne(i));
    await Promise.all(batch);
  }
  return { counts, requests };
};

/** Milliseconds from asking for a change until every stream has received its `expected`-th event. */
const timeChange = async (child: Child, clients: Clients, expected: number): Promise<number> => {
  const started = performance.now();
  await control(child, '/change');
  for (;;) {
    let behind = 0;
    for (const n of clients.counts) if (n < expected) behind++;
    if (behind === 0) return performance.now() - started;
    if (performance.now() - started > CHANGE_MAX_MS)
      throw new Error(`${behind} of ${clients.counts.length} streams missed change ${expected}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
};

const until = async (check: () => Promise<boolean>, what: string): Promise<void> => {
  const deadline = Date.now() + 30_000;
  for (let i = 0; i < 3_000; i++) {
    if (await check()) return;
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`stream bench: ${what} did not happen within 30 s`);
};

/** What one child holds per open stream. */
interface PerStream {
  rss: number;
  heap: number;
  rssMb: [number, number];
}

/** Opens `size` streams on `child` (after a warm-up) and reads the memory they hold. */
const memoryPerStream = async (
  child: Child,
  size: number,
): Promise<{ perStream: PerStream; clients: Clients }> => {
  const warm = await openStreams(child, WARM_UP);
  await until(async () => (await memoryOf(child)).streams === WARM_UP, `${WARM_UP} warm-up streams open`);
  for (const req of warm.requests) req.destroy();
  await until(async () => (await memoryOf(child)).streams === 0, 'the warm-up streams closed');
  const empty = await memoryOf(child);
  const clients = await openStreams(child, size);
  await until(async () => (await memoryOf(child)).streams === size, `${size} streams open`);
  const full = await memoryOf(child);
  return {
    perStream: {
      rss: (full.rss - empty.rss) / size,
      heap: (full.heapUsed + full.external - empty.heapUsed - empty.external) / size,
      rssMb: [empty.rss / 2 ** 20, full.rss / 2 ** 20],
    },
    clients,
  };
};

const measureSize = async (size: number): Promise<BenchRow[]> => {
  const bare = await startChild('bare');
  let baseline: PerStream;
  try {
    baseline = (await memoryPerStream(bare, size)).perStream;
  } finally {
    bare.process.kill('SIGTERM');
  }
  const child = await startChild('app');
  try {
    const { perStream, clients } = await memoryPerStream(child, size);
    const delays: number[] = [];
    for (let change = 1; change <= CHANGES; change++) delays.push(await timeChange(child, clients, change));
    for (const req of clients.requests) req.destroy();
    await until(async () => (await memoryOf(child)).streams === 0, 'every stream closed');
    // The larger of the two readings: RSS moves with what the collector hands back, the heap misses native memory.
    const perGigabyte = Math.floor(GIGABYTE / Math.max(perStream.rss, perStream.heap, 1));
    const n = size.toLocaleString('en-US');
    const ratio = (value: number, base: number) => ({
      value: value / base,
      goal: '≤ 3× the bare server',
      met: value / base <= 3,
    });
    return [
      {
        figure: `stream: memory per open stream, ${n} open (heap + external, after GC)`,
        value: perStream.heap / 1024,
        unit: 'KB',
        baseline: { figure: 'bare node:http SSE', value: baseline.heap / 1024 },
        ratio: ratio(perStream.heap, baseline.heap),
        note: `about ${perGigabyte.toLocaleString('en-US')} streams per GB (the larger of heap and RSS per stream)`,
      },
      {
        figure: `stream: memory per open stream, ${n} open (RSS)`,
        value: perStream.rss / 1024,
        unit: 'KB',
        baseline: { figure: 'bare node:http SSE', value: baseline.rss / 1024 },
        note: `RSS ${perStream.rssMb[0].toFixed(0)} → ${perStream.rssMb[1].toFixed(0)} MB (the embedded store's WebAssembly memory is most of it); noisy: the collector hands memory back`,
      },
      {
        figure: `stream: one change reaches all ${n} streams`,
        value: median(delays),
        unit: 'ms',
        note: `median of ${CHANGES} changes (store → NOTIFY → cache → hub → sockets → read here); max ${Math.max(...delays).toFixed(1)} ms`,
      },
    ];
  } finally {
    child.process.kill('SIGTERM');
  }
};

/** Streams at each size: memory per stream and the time of one change to reach them all. */
export const bench: Bench = async () => {
  const rows: BenchRow[] = [];
  for (const size of SIZES) rows.push(...(await measureSize(size)));
  return rows;
};

const childMode = process.env.BENCH_STREAM_CHILD;
if (childMode !== undefined) await runChild(childMode);

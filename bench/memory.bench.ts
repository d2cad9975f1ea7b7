// Memory of the Node SDK (issue 18): the bytes a live visitor holds (50 flags, fetched), and the heap after
// garbage collection while a server builds and drops visitors, one per request, up to 1 000 000 of them.
// The heap is read after a full collection each time (`gc` exposed at run time through V8's flags), in a
// process of its own: run after the other benches in `npm run bench`'s process, their leftovers (sockets
// closing, servers' buffers) were freed or allocated between two readings and moved the live visitor's figure
// from 2.8 KB to 4.2 KB. This file is also that child (BENCH_MEMORY_CHILD).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Mode, type Visitor } from '../src/core/node.js';
import { startBenchSdk } from './bench-sdk.js';
import { startChildDouble } from './double-child.js';
import { median, type Bench, type BenchRow } from './harness.js';
import { benchVisitors } from './visitors.js';

const LIVE = 5_000;
/** Samples of the live visitor's bytes, each holding then dropping LIVE visitors. */
const SAMPLES = 5;
const CHURN = Number(process.env.BENCH_CHURN_VISITORS ?? 1_000_000);
/**
 * The churn's time bound: a million assignments take about 60 s on a quiet machine and 250 s on a slow spell
 * of this shared one (240 µs each), which a 240 s bound cut short at 865 000; the figure counts only if the
 * loop reaches CHURN.
 */
const CHURN_MAX_MS = 420_000;
/** Heap readings start once the bounded caches (visitor records, hit pool) are full and the JIT is warm. */
const WARM = 50_000;

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const heapAfterGc = async (): Promise<number> => {
  // Twice, around a turn of the event loop: weak references and finalizers settle between the two.
  collect();
  await new Promise(setImmediate);
  collect();
  return process.memoryUsage().heapUsed;
};

/** Bytes per live visitor: the heap holding LIVE fetched visitors, minus the heap once they are dropped. */
const liveVisitorBytes = async (url: string): Promise<BenchRow> => {
  const sdk = await startBenchSdk(url, Mode.DECISION_API);
  const people = benchVisitors();
  const build = async (i: number): Promise<Visitor> => {
    const person = people[i % people.length];
    const visitor = sdk
      .newVisitor({ visitorId: `live-${i}`, hasConsented: true })
      .withContext(person?.context ?? {})
      .build();
    await visitor.fetchFlags();
    return visitor;
  };
  // The same visitors each time: the caches then hold the same records at both readings of a sample.
  for (let i = 0; i < LIVE; i++) await build(i);
  // Several samples, their median: samples of one run fall in two groups (about 2.75 and 3.3 kB here), likely
  // as the visitor cache's generations hold this sample's records or the previous one's, which share objects
  // with the live visitors; one sample alone gave either figure.
  const samples: number[] = [];
  let flags = 0;
  for (let sample = 0; sample < SAMPLES; sample++) {
    let live: Visitor[] = [];
    for (let i = 0; i < LIVE; i++) live.push(await build(i));
    const holding = await heapAfterGc();
    flags = live[0]?.getFlags().count ?? 0;
    live = [];
    samples.push((holding - (await heapAfterGc())) / LIVE);
  }
  await sdk.close();
  const bytes = median(samples);
  return {
    figure: `memory: bytes per live visitor, ${flags} flags fetched (decision-API mode)`,
    value: bytes,
    unit: 'B',
    ratio: { value: bytes / 4096, goal: '≤ 1 (4 KB, issue 18)', met: bytes <= 4096 },
    note: `heap after GC holding ${LIVE.toLocaleString('en-US')} visitors minus after dropping them (caches unchanged between the two), median of ${SAMPLES} samples: ${samples.map((b) => Math.round(b)).join(', ')} B`,
  };
};

/** The heap after GC at WARM visitors built and dropped, and at CHURN (or what the time bound allowed). */
const churn = async (url: string): Promise<BenchRow> => {
  const sdk = await startBenchSdk(url, Mode.BUCKETING);
  const people = benchVisitors();
  const started = Date.now();
  let warmHeap = 0;
  let done = 0;
  for (; done < CHURN; done++) {
    const person = people[done % people.length];
    const visitor = sdk
      .newVisitor({ visitorId: `churn-${done}`, hasConsented: true })
      .withContext(person?.context ?? {})
      .build();
    await visitor.fetchFlags();
    if ((done & 63) === 63) await new Promise(setImmediate); // I/O between requests: the hits leave
    if (done + 1 === WARM) warmHeap = await heapAfterGc();
    if ((done & 1023) === 1023 && Date.now() - started > CHURN_MAX_MS) {
      done++;
      break;
    }
  }
  const endHeap = await heapAfterGc();
  await sdk.close();
  const growth = (endHeap - warmHeap) / Math.max(1, done - WARM);
  const mb = (n: number): string => `${(n / 1e6).toFixed(1)} MB`;
  return {
    figure: `memory: heap growth per visitor built and dropped, ${done.toLocaleString('en-US')} visitors (bucketing mode)`,
    value: growth,
    unit: 'B',
    ratio: { value: growth, goal: '≤ 1 B (no growth, issue 18)', met: growth <= 1 && done >= CHURN },
    note: `heap after GC ${mb(warmHeap)} at ${WARM.toLocaleString('en-US')} visitors (caches full), ${mb(endHeap)} at ${done.toLocaleString('en-US')}; ${((Date.now() - started) / 1000).toFixed(0)} s${done < CHURN ? `; stopped by the ${CHURN_MAX_MS / 1000} s bound` : ''}`,
  };
};

/** Child side: measures the rows and prints them as one JSON line on stdout. */
const runChild = async (): Promise<void> => {
  const double = await startChildDouble();
  try {
    const rows = [await liveVisitorBytes(double.url), await churn(double.url)];
    process.stdout.write(`${JSON.stringify(rows)}\n`);
  } finally {
    double.close();
  }
};

/** The memory rows, measured in a child process of their own. */
export const bench: Bench = () =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
      env: { ...process.env, BENCH_MEMORY_CHILD: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code === 0 && line.startsWith('[')) resolve(JSON.parse(line) as BenchRow[]);
      else reject(new Error(`the memory bench's child exited (${String(code)}) without its rows`));
    });
  });

if (process.env.BENCH_MEMORY_CHILD === '1') await runChild();

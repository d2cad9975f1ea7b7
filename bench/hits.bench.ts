// The SDK's hit pipeline (issue 17): how many hits a second go through the tracking manager's pool to a local
// server, next to, in the same run, the same hits POSTed in batches of the same size with plain fetch (no pool,
// no cache, no retry bookkeeping: the cost of the network and the server alone); and how much memory one queued
// hit holds, next to the size of its JSON cache record (what it would take as text). Both against a protocol
// double on 127.0.0.1 that acknowledges every batch (so the figure is the SDK's, not the store's). The start
// bytes are core.bench.ts's rows.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  BatchCachingStrategy,
  ConfigBuilder,
  Event,
  EventCategory,
  FeatureInstance,
  Level,
} from '../src/core/node.js';
import { startProtocolDouble, type ProtocolDouble } from '../test/support/protocol-double.js';
import { median, type Bench, type BenchRow } from './harness.js';

// Below the pool's default bound (10 000 items), beyond which the oldest hits are evicted by design.
const HITS = 5_000;
const BATCH = 100;
const RUNS = 5;
/** At most this long per run, whatever the machine: a run that takes longer is reported as it stands. */
const MAX_RUN_MS = 60_000;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const started = async (double: ProtocolDouble, poolMaxSize: number, batchIntervals: number) => {
  const sdk = new FeatureInstance();
  await sdk.start(
    'env1',
    'key1',
    new ConfigBuilder()
      .withServerUrl(double.url)
      .withLogLevel(Level.NONE)
      .withDisableDeveloperUsageTracking(true)
      .withTrackingConfig({
        batchStrategy: BatchCachingStrategy.BATCH_PERIODIC_CACHING,
        poolMaxSize,
        batchIntervals,
      })
      .build(),
  );
  return sdk;
};

const eventOf = (i: number) =>
  new Event({
    category: EventCategory.Action_Tracking,
    action: 'add_to_cart',
    label: `item-${i % 50}`,
    value: i % 7,
  });

const hitsReceived = (double: ProtocolDouble): number =>
  double
    .requestsTo('events')
    .reduce((sum, request) => sum + ((request.body as { h?: unknown[] } | null)?.h?.length ?? 0), 0);

/** Hits a second through the pool: sendHit N times, then close() (which flushes and waits for the answers). */
const throughPool = async (): Promise<number> => {
  const double = await startProtocolDouble();
  try {
    const sdk = await started(double, BATCH, 3600);
    const visitor = sdk.newVisitor({ visitorId: 'bench', hasConsented: true }).build();
    const from = performance.now();
    const deadline = from + MAX_RUN_MS;
    for (let i = 0; i < HITS && performance.now() < deadline; i++) void visitor.sendHit(eventOf(i));
    await sdk.close();
    const seconds = (performance.now() - from) / 1000;
    return hitsReceived(double) / seconds;
  } finally {
    await double.close();
  }
};

/** The same hits in batches of the same size with plain fetch, one request at a time, as the pool sends them. */
const plainFetch = async (): Promise<number> => {
  const double = await startProtocolDouble();
  try {
    const from = performance.now();
    for (let first = 0; first < HITS && performance.now() - from < MAX_RUN_MS; first += BATCH) {
      const h = Array.from({ length: BATCH }, (_, k) => ({
        t: 'EVENT',
        vid: 'bench',
        ec: 'Action Tracking',
        ea: 'add_to_cart',
        el: `item-${(first + k) % 50}`,
        ev: (first + k) % 7,
        hid: crypto.randomUUID(),
        qt: 0,
      }));
      const answer = await fetch(`${double.url}/events`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ cid: 'env1', ds: 'APP', t: 'BATCH', h }),
      });
      await answer.text();
    }
    return hitsReceived(double) / ((performance.now() - from) / 1000);
  } finally {
    await double.close();
  }
};

/** Heap bytes per queued hit (pool and memory cache, nothing sent), and the JSON size of one cache record. */
const memoryPerHit = async (): Promise<{ bytes: number; jsonBytes: number }> => {
  const double = await startProtocolDouble();
  try {
    // Nothing leaves: the pool never fills and the interval never comes.
    const sdk = await started(double, Number.MAX_SAFE_INTEGER, 3600);
    const visitor = sdk.newVisitor({ visitorId: 'bench', hasConsented: true }).build();
    await visitor.sendHit(eventOf(0));
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 1; i <= HITS; i++) await visitor.sendHit(eventOf(i));
    gc();
    const after = process.memoryUsage().heapUsed;
    // One cache record as §11 writes it, for scale.
    const record = {
      version: 1,
      data: {
        visitorId: 'bench',
        anonymousId: null,
        type: 'EVENT',
        time: Date.now(),
        content: {
          hid: crypto.randomUUID(),
          createdAt: Date.now(),
          category: 'Action_Tracking',
          action: 'add_to_cart',
          label: 'item-1',
          value: 1,
        },
      },
    };
    await sdk.close();
    return { bytes: (after - before) / HITS, jsonBytes: JSON.stringify(record).length };
  } finally {
    await double.close();
  }
};

export const bench: Bench = async () => {
  const pool: number[] = [];
  const plain: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    plain.push(await plainFetch());
    pool.push(await throughPool());
  }
  const sdk = median(pool);
  const baseline = median(plain);
  const memory = await memoryPerHit();
  const rows: BenchRow[] = [
    {
      figure: `hits through the pool to a local server (sendHit ×${HITS.toLocaleString('en-US')}, batches of ${BATCH}, close)`,
      value: sdk,
      unit: 'hits/s',
      baseline: { figure: `the same hits POSTed in batches of ${BATCH} with fetch`, value: baseline },
      ratio: { value: sdk / baseline, goal: '≥ 0.5×', met: sdk / baseline >= 0.5 },
      note: `median of ${RUNS} runs each; protocol double on 127.0.0.1 acknowledging every batch`,
    },
    {
      figure: `memory per queued hit (pool + memory cache, ${HITS.toLocaleString('en-US')} Event hits, heap after GC)`,
      value: memory.bytes,
      unit: 'B',
      baseline: { figure: 'JSON text of its §11 cache record', value: memory.jsonBytes },
      ratio: {
        value: memory.bytes / memory.jsonBytes,
        goal: '≤ 4×',
        met: memory.bytes / memory.jsonBytes <= 4,
      },
    },
  ];
  return rows;
};

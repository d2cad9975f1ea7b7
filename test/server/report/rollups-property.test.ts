// Issue 31's property: for random event streams inserted in random arrival orders and batch sizes through the
// store's real ingest path (insertActivations / insertHits, folds running in the background and on every
// report read mid-stream), the report and daily series read from the rollups equal the ones computed from
// scratch from every stored row (scanCampaign, the pre-issue algorithm). Streams cover late identity links
// (activation aid, hit cuid), several devices per person (one never linked), late exposures (qt up to a day),
// duplicates (same hid, in one batch and across batches), activations without hid (visit windows), reserved
// fs_ actions, page views, the 1 s attribution slack, variations and a group no definition has, a deleted
// campaign, and several campaigns per person. Both stores (PostgreSQL when DATABASE_URL is set).
//
// Replay one stream: ROLLUPS_SEED=<seed> ROLLUPS_EVENTS=<n> (both printed on a failure); another run of
// streams: ROLLUPS_BASE=<n>, ROLLUPS_STREAMS=<n>. A failure is shrunk to a smaller failing stream (bounded in
// time), printed as rows to paste into a hand-written case.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ActivationRow, HitRow } from '../../../server/src/store/collect-store.js';
import type { Store } from '../../../server/src/store/store.js';
import { seededRandom } from '../../support/seeded-random.js';
import { describeOnEveryStoreWith } from '../support.js';
import {
  activation,
  DAY,
  DAY0,
  HOUR,
  hit,
  MINUTE,
  rollupEnvironment,
  rollupMismatches,
  ROLLUP_CAMPAIGNS,
  VARIATIONS_OF_GROUP,
} from './rollups-support.js';

type Rand = () => number;

/** One step of a stream as it reaches the store. */
type Step =
  | {
      kind: 'insert';
      activations: ActivationRow[];
      hits: HitRow[];
      hitsFirst: boolean;
      together: boolean;
      /** Which instance stores the batch (PostgreSQL: two instances on one database, each folding). */
      via: number;
    }
  | { kind: 'read'; campaignId: string; compare: boolean; via: number }
  | { kind: 'delete'; campaignId: string };

interface Stream {
  seed: number;
  events: number;
  steps: Step[];
}

const CAMPAIGN_IDS = ROLLUP_CAMPAIGNS.map((c) => c.id);
const GROUPS = Object.keys(VARIATIONS_OF_GROUP);

const pick = <T>(rand: Rand, items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
const between = (rand: Rand, low: number, high: number): number =>
  low + Math.floor(rand() * (high - low + 1));

interface Device {
  anonymousId: string;
  /** How the device meets the customer id: through an activation's aid, a hit's cuid, as its vid, or never. */
  link: 'activation' | 'hit' | 'direct' | 'never';
}

interface Person {
  customerId: string | null;
  devices: Device[];
  cursor: number;
  preferred: Map<string, string>;
  lastExposureMs: number | null;
}

const personOf = (rand: Rand, i: number): Person => {
  const customerId = rand() < 0.6 ? `u${i}` : null;
  const deviceCount = rand() < 0.6 ? 1 : rand() < 0.75 ? 2 : 3;
  const devices = Array.from({ length: deviceCount }, (_, d): Device => {
    const r = rand();
    const link =
      customerId === null
        ? 'never'
        : r < 0.4
          ? 'activation'
          : r < 0.75
            ? 'hit'
            : r < 0.9
              ? 'direct'
              : 'never';
    return { anonymousId: `a${i}.${d}`, link };
  });
  const preferred = new Map(GROUPS.map((g) => [g, pick(rand, VARIATIONS_OF_GROUP[g] ?? [])]));
  // Starts spread over two days from 20:00 on day 0, so that sessions cross midnight.
  return {
    customerId,
    devices,
    cursor: DAY0 + 20 * HOUR + rand() * 2 * DAY,
    preferred,
    lastExposureMs: null,
  };
};

const queueTime = (rand: Rand): number => {
  const r = rand();
  if (r < 0.65) return Math.floor(rand() * 3000);
  if (r < 0.85) return Math.floor(rand() * HOUR);
  return Math.floor(rand() * DAY);
};

const advance = (rand: Rand, person: Person): number => {
  const r = rand();
  const step =
    r < 0.7
      ? rand() * 10 * MINUTE
      : r < 0.9
        ? rand() * 45 * MINUTE
        : r < 0.98
          ? rand() * 6 * HOUR
          : rand() * 30 * HOUR;
  person.cursor = Math.floor(person.cursor + step);
  return person.cursor;
};

/** The rows of one stream, in created order of each person (arrival order is drawn afterwards). */
const streamRows = (rand: Rand, events: number): Array<ActivationRow | HitRow> => {
  const persons = Array.from({ length: Math.max(2, Math.min(250, Math.round(events / 7))) }, (_, i) =>
    personOf(rand, i),
  );
  const rows: Array<ActivationRow | HitRow> = [];
  const activationsWithHid: ActivationRow[] = [];
  const hitsWithHid: HitRow[] = [];
  let hids = 0;
  const hid = (): string => `h${++hids}`;
  while (rows.length < events) {
    const person = pick(rand, persons);
    const device = pick(rand, person.devices);
    const at = advance(rand, person);
    const u = person.customerId;
    const signedIn = u !== null && device.link !== 'never' && (device.link === 'direct' || rand() < 0.45);
    // Another person's id on this device now and then: a shared browser (the first link stays), or a chain (an
    // anonymous id taken for an authenticated one, linked further: §14.2 merges nothing further).
    const other = between(rand, 0, persons.length - 1);
    const s = rand();
    const stranger = s < 0.02 ? `u${other}` : s < 0.03 ? `a${other}.0` : null;
    if (rand() < 0.4) {
      const r = rand();
      if (r < 0.05 && activationsWithHid.length > 0) {
        // The same hid sent again (a retry): counted once whichever copy arrives first.
        const first = pick(rand, activationsWithHid);
        rows.push({ ...first, receivedMs: first.receivedMs + Math.floor(rand() * HOUR) });
        continue;
      }
      // A group and variations no definition has (kept in the report after the defined ones).
      const group = rand() < 0.03 ? 'gx' : pick(rand, GROUPS);
      const v = rand();
      const variation =
        group === 'gx'
          ? pick(rand, ['vx', 'vy'])
          : v < 0.8
            ? (person.preferred.get(group) as string)
            : v < 0.97
              ? pick(rand, VARIATIONS_OF_GROUP[group] ?? [])
              : pick(rand, ['v-gone', 'v-old']);
      const ids =
        stranger !== null
          ? { vid: stranger, aid: device.anonymousId }
          : !signedIn
            ? { vid: device.anonymousId, aid: rand() < 0.03 ? device.anonymousId : null }
            : device.link === 'activation' && rand() < 0.8
              ? { vid: u, aid: device.anonymousId }
              : { vid: u, aid: null };
      const withHid = rand() < 0.62;
      // Other SDKs send one activation per flag read: a few copies spread over the next 40 minutes.
      const copies = withHid ? 1 : between(rand, 1, 3);
      for (let c = 0; c < copies; c++) {
        // Now and then at the very millisecond of the person's latest exposure: ties go by arrival (seq).
        const tie = c === 0 && person.lastExposureMs !== null && rand() < 0.05;
        const createdMs = tie
          ? (person.lastExposureMs as number)
          : at + (c === 0 ? 0 : Math.floor(rand() * 40 * MINUTE));
        const row = activation({
          ...ids,
          group,
          variation,
          createdMs,
          qt: queueTime(rand),
          hid: withHid ? hid() : null,
        });
        rows.push(row);
        if (withHid) activationsWithHid.push(row);
        person.lastExposureMs = Math.max(person.lastExposureMs ?? 0, createdMs);
      }
      continue;
    }
    const r = rand();
    if (r < 0.04 && hitsWithHid.length > 0) {
      const first = pick(rand, hitsWithHid);
      rows.push({ ...first, receivedMs: first.receivedMs + Math.floor(rand() * HOUR) });
      continue;
    }
    // Just before the person's latest exposure now and then: the 1 s slack's edges.
    const createdMs =
      person.lastExposureMs !== null && rand() < 0.08
        ? person.lastExposureMs - pick(rand, [0, 999, 1000, 1001, 1500, 60_000])
        : at;
    const type = r < 0.15 ? 'PAGEVIEW' : r < 0.62 ? 'EVENT' : 'TRANSACTION';
    const goal =
      type === 'EVENT'
        ? pick(rand, [
            'add_to_cart',
            'add_to_cart',
            'add_to_cart',
            'signup',
            'signup',
            'fs_consent',
            'purchase',
          ])
        : pick(rand, ['purchase', 'purchase', 'purchase', 'purchase', 'fs_shop']);
    const m = rand();
    const revenue = m < 0.85 ? between(rand, 1, 50_000) / 100 : m < 0.95 ? null : 0;
    const cuid =
      stranger ?? (!signedIn ? null : device.link === 'direct' ? u : device.link === 'never' ? null : u);
    const vid =
      device.link === 'direct' && signedIn && (stranger !== null || rand() < 0.7) ? u : device.anonymousId;
    const hr = rand();
    const row = hit({
      type,
      vid,
      cuid,
      goal,
      revenue,
      createdMs,
      qt: queueTime(rand),
      hid: hr < 0.96 ? hid() : null,
    });
    rows.push(row);
    if (row.hid !== null) hitsWithHid.push(row);
  }
  return rows;
};

const isActivation = (row: ActivationRow | HitRow): row is ActivationRow => 'variationGroupId' in row;

/** A stream: its rows in an arrival order, cut into batches, with reads (folds) and a deletion among them. */
const generateStream = (seed: number, events: number): Stream => {
  const rand = seededRandom(seed);
  const rows = streamRows(rand, events);
  const mode = rand();
  // Arrival: by received time (late exposures come from qt), with jitter, or in no order at all.
  const jitter = mode < 0.4 ? 0 : mode < 0.7 ? HOUR : Infinity;
  const keyed = rows.map((row) => ({
    row,
    key: Number.isFinite(jitter) ? row.receivedMs + rand() * jitter : rand(),
  }));
  keyed.sort((a, b) => a.key - b.key);
  const arrival = keyed.map((k) => k.row);
  const steps: Step[] = [];
  const deleteAt = rand() < 0.08 ? Math.floor(rand() * arrival.length) : -1;
  for (let start = 0; start < arrival.length;) {
    const r = rand();
    const size =
      r < 0.2
        ? 1
        : r < 0.6
          ? between(rand, 2, 12)
          : r < 0.9
            ? between(rand, 13, 120)
            : between(rand, 121, 600);
    const chunk = arrival.slice(start, start + size);
    if (deleteAt >= start && deleteAt < start + size) steps.push({ kind: 'delete', campaignId: 'c3' });
    start += size;
    steps.push({
      kind: 'insert',
      activations: chunk.filter(isActivation),
      hits: chunk.filter((row): row is HitRow => !isActivation(row)),
      hitsFirst: rand() < 0.5,
      together: rand() < 0.25,
      via: between(rand, 0, 1),
    });
    if (rand() < 0.1)
      steps.push({
        kind: 'read',
        campaignId: pick(rand, CAMPAIGN_IDS),
        compare: rand() < 0.3,
        via: between(rand, 0, 1),
      });
  }
  return { seed, events, steps };
};

/**
 * Plays a stream into a new environment through `stores` (instances on one database); returns the mismatches
 * found (mid-stream and at the end).
 */
const play = async (stores: readonly Store[], accountId: string, stream: Stream): Promise<string[]> => {
  const first = stores[0] as Store;
  const envId = await rollupEnvironment(first, accountId, `stream ${stream.seed}`);
  const found: string[] = [];
  for (const [index, step] of stream.steps.entries()) {
    const store = step.kind === 'delete' ? first : (stores[step.via % stores.length] as Store);
    if (step.kind === 'delete') await store.deleteCampaign(envId, step.campaignId);
    else if (step.kind === 'read') {
      if (!step.compare) await store.campaignRollups(envId, step.campaignId);
      else
        for (const d of await rollupMismatches(store, envId, step.campaignId))
          found.push(`after step ${index}: ${d}`);
    } else {
      const activations = (): Promise<number> => store.insertActivations(envId, step.activations);
      const hits = (): Promise<number> => store.insertHits(envId, step.hits);
      if (step.together) await Promise.all([activations(), hits()]);
      else if (step.hitsFirst) await hits().then(activations);
      else await activations().then(hits);
    }
  }
  for (const campaignId of CAMPAIGN_IDS) found.push(...(await rollupMismatches(first, envId, campaignId)));
  return found;
};

const rowsOf = (stream: Stream): number =>
  stream.steps.reduce((n, s) => n + (s.kind === 'insert' ? s.activations.length + s.hits.length : 0), 0);

const time = (ms: number): string => {
  const offset = ms - DAY0;
  return `DAY0 + ${offset}`;
};

/** A stream as code to paste into a hand-written case. */
const describeStream = (stream: Stream): string =>
  stream.steps
    .map((step) => {
      if (step.kind !== 'insert') return `// ${step.kind} ${step.campaignId}`;
      const a = step.activations.map(
        (r) =>
          `activation({ vid: '${r.visitorId}', aid: ${r.anonymousId === null ? 'null' : `'${r.anonymousId}'`}, group: '${r.variationGroupId}', variation: '${r.variationId}', createdMs: ${time(r.createdMs)}, hid: ${r.hid === null ? 'null' : `'${r.hid}'`} })`,
      );
      const h = step.hits.map(
        (r) =>
          `hit({ type: '${r.type}', vid: '${r.visitorId}', cuid: ${r.customerId === null ? 'null' : `'${r.customerId}'`}, goal: ${JSON.stringify(r.goal)}, revenue: ${String(r.revenue)}, createdMs: ${time(r.createdMs)}, hid: ${r.hid === null ? 'null' : `'${r.hid}'`} })`,
      );
      const parts = step.hitsFirst
        ? [`hits [${h.join(', ')}]`, `activations [${a.join(', ')}]`]
        : [`activations [${a.join(', ')}]`, `hits [${h.join(', ')}]`];
      return `insert${step.together ? ' (together)' : ''}: ${parts.filter((p) => !p.endsWith('[]')).join('; ')}`;
    })
    .join('\n');

/**
 * Shrinks a failing stream (delta debugging over steps, then over rows), within `budgetMs`: each try plays a
 * candidate into a new environment and keeps it when it still fails.
 */
const shrink = async (
  stores: readonly Store[],
  accountId: string,
  stream: Stream,
  budgetMs: number,
): Promise<Stream> => {
  const deadline = Date.now() + budgetMs;
  // Background folds run on timers, so a failure may depend on timing: a candidate gets two tries.
  const fails = async (candidate: Stream): Promise<boolean> =>
    (await play(stores, accountId, candidate)).length > 0 ||
    (await play(stores, accountId, candidate)).length > 0;
  let current = stream;
  // Steps: remove chunks of halving size.
  for (
    let size = Math.ceil(current.steps.length / 2);
    size >= 1 && Date.now() < deadline;
    size = Math.floor(size / 2)
  )
    for (let start = current.steps.length - size; start >= 0 && Date.now() < deadline; start -= size) {
      const candidate = {
        ...current,
        steps: [...current.steps.slice(0, start), ...current.steps.slice(start + size)],
      };
      if (await fails(candidate)) current = candidate;
    }
  // Rows: remove runs of halving length, the same way.
  const withoutRows = (stream: Stream, from: number, count: number): Stream => {
    let index = 0;
    const keep = (): boolean => {
      const i = index++;
      return i < from || i >= from + count;
    };
    return {
      ...stream,
      steps: stream.steps.map((step) =>
        step.kind !== 'insert'
          ? step
          : { ...step, activations: step.activations.filter(keep), hits: step.hits.filter(keep) },
      ),
    };
  };
  for (
    let size = Math.ceil(rowsOf(current) / 2);
    size >= 1 && Date.now() < deadline;
    size = Math.floor(size / 2)
  )
    for (let from = rowsOf(current) - size; from >= 0 && Date.now() < deadline; from -= size) {
      const candidate = withoutRows(current, from, size);
      if (await fails(candidate)) current = candidate;
    }
  return {
    ...current,
    steps: current.steps.filter((s) => s.kind !== 'insert' || s.activations.length + s.hits.length > 0),
  };
};

const BASE = Number(process.env.ROLLUPS_BASE ?? 31);
const STREAMS = Number(process.env.ROLLUPS_STREAMS ?? 500);

/** The streams of a run: most short, every 20th a few hundred events, every 100th 2 000. */
const streamPlan = (): Array<{ seed: number; events: number }> => {
  const replay = process.env.ROLLUPS_SEED;
  if (replay !== undefined && replay !== '')
    return [{ seed: Number(replay) >>> 0, events: Number(process.env.ROLLUPS_EVENTS ?? 200) }];
  return Array.from({ length: STREAMS }, (_, i) => {
    const seed = (Math.imul(BASE, 0x9e3779b1) + Math.imul(i + 1, 0x85ebca6b)) >>> 0;
    const rand = seededRandom(seed ^ 0x5bd1e995);
    const events = i % 100 === 0 ? 2000 : i % 20 === 5 ? between(rand, 150, 600) : between(rand, 4, 40);
    return { seed, events };
  });
};

describeOnEveryStoreWith(
  'report rollups equal the from-scratch report (property)',
  {
    start: async (store) => ({ store, accountId: (await store.createAccount('rollups property')).id }),
    stop: () => Promise.resolve(),
  },
  (kind, started) => {
    void it('on random streams in random arrival orders', { timeout: 15 * 60_000 }, async () => {
      const { store, accountId } = started('store');
      // PostgreSQL: a second instance on the same database stores and reads half of the batches, folding too.
      const sibling = kind.openSibling === undefined ? null : await kind.openSibling();
      const stores = sibling === null ? [store] : [store, sibling];
      try {
        await runStreams(kind.name, stores, accountId);
      } finally {
        await sibling?.close();
      }
    });
  },
);

/** Plays every stream of the plan; fails listing the streams that differ, the first one shrunk. */
const runStreams = async (name: string, stores: readonly Store[], accountId: string): Promise<void> => {
  const plan = streamPlan();
  const began = Date.now();
  const failures: Array<{ stream: Stream; found: string[] }> = [];
  let events = 0;
  // Streams of other environments run side by side (they share nothing but the store).
  const lanes = name === 'postgres' ? 4 : 2;
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let i = next++; i < plan.length; i = next++) {
        const { seed, events: n } = plan[i] as { seed: number; events: number };
        const stream = generateStream(seed, n);
        events += rowsOf(stream);
        const found = await play(stores, accountId, stream);
        if (found.length > 0) failures.push({ stream, found });
      }
    }),
  );
  const seconds = ((Date.now() - began) / 1000).toFixed(1);
  process.stdout.write(
    `# ${name}: ${plan.length} streams, ${events} rows, ${seconds} s, ${failures.length} failing\n`,
  );
  if (failures.length === 0) return;
  // The smallest failing stream is the quickest to shrink.
  const first = [...failures].sort((a, b) => rowsOf(a.stream) - rowsOf(b.stream))[0] as (typeof failures)[0];
  const small = await shrink(stores, accountId, first.stream, 90_000);
  const replay = (s: Stream): string => `ROLLUPS_SEED=${s.seed} ROLLUPS_EVENTS=${s.events}`;
  assert.fail(
    [
      `${failures.length} of ${plan.length} streams differ from the reference on ${name}:`,
      ...failures.slice(0, 10).map((f) => `  ${replay(f.stream)}: ${f.found.slice(0, 6).join(' | ')}`),
      `Shrunk (${replay(first.stream)}, ${rowsOf(small)} rows): ${(await play(stores, accountId, small)).slice(0, 10).join(' | ')}`,
      rowsOf(small) <= 80 ? describeStream(small) : '(too long to print: replay it with the seed above)',
    ].join('\n'),
  );
};

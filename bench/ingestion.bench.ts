// Ingestion on PostgreSQL against its physical limit (issue 31). In the same run, in alternated rounds:
// (a) a bare `pg` program in a child process, 50 connections each inserting one row at a time into a copy of
// the hits table (same columns, indexes and foreign key, synchronous commit: the server's durability), which
// is what the database and this disk allow at that concurrency; (b) the server, single-hit POST /events at 50
// concurrent connections (autocannon in this process, the server in a child); (c) two server instances on
// the same database, the 50 connections split across them; the same for activations (POST /v2/activate).
// Each server series runs twice: with the pipelined group commit (the product's) and with the statements of
// an environment chained one at a time (the behaviour before issue 31, rebuilt in the child by wrapping the
// store's insert), so the before/after comes from the same run. Beside each figure: how busy the server's
// main thread and PostgreSQL's processes were, which says what limits it.
// Needs DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test); without it the file prints one row
// saying it was skipped. Everything lives in a schema of its own, dropped at the end.
// This file is also the child: BENCH_INGEST_MODE selects the server or the bare program.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import {
  GROUP_MAX_ROWS,
  groupCommit,
  type IdempotentRow,
  type InsertRows,
} from '../server/src/store/sql/group-commit.js';
import type { BucketingFile } from '../src/protocol/index.js';
import { median, type Bench, type BenchRow } from './harness.js';
import { processCpu } from './process-cpu.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/engine-50x2x3.json', import.meta.url));
const CONNECTIONS = 50;
const SECONDS = 3;
/** Counted rounds; each round runs every target once, in turn. */
const RUNS = 3;
/** One uncounted round first: JIT, connections, the tables' first pages. */
const WARM_UP_ROUNDS = 1;
/** The bare program stops at this many inserts even if its time is not up. */
const BARE_MAX_INSERTS = 2_000_000;

const ENV = {
  mode: 'BENCH_INGEST_MODE',
  url: 'BENCH_INGEST_URL',
  schema: 'BENCH_INGEST_SCHEMA',
  envId: 'BENCH_INGEST_ENV',
  chained: 'BENCH_INGEST_CHAINED',
  table: 'BENCH_INGEST_TABLE',
} as const;

type Kind = 'hits' | 'activations';

/** An activation's variation group and variation, both in the environment's campaigns (else rejected). */
interface Variation {
  groupId: string;
  variationId: string;
  campaignId: string;
}

const firstVariation = (file: BucketingFile): Variation => {
  const campaign = file.campaigns[0];
  const group = campaign?.variationGroups[0];
  const variation = group?.variations[0];
  if (campaign === undefined || group === undefined || variation === undefined)
    throw new Error('the fixture has no variation');
  return { campaignId: campaign.id, groupId: group.id, variationId: variation.id };
};

/**
 * The same insert with the environment's statements chained one at a time, as before issue 31: an outer
 * group commit allowing one statement in flight over the store's own, which then always finds nothing in
 * flight and sends what it is given at once. Every id in this bench is unique, so the outer layer may count
 * each row as stored.
 */
const chained = <R extends IdempotentRow>(insert: InsertRows<R>): InsertRows<R> =>
  groupCommit<R>(
    async (envId, rows) => {
      await insert(envId, rows);
      return rows.map((row) => row.hid);
    },
    GROUP_MAX_ROWS,
    { statementsInFlight: 1 },
  );

/** Child: the server on the run's schema; prints `{"port":…}` on stdout. */
const runServer = async (): Promise<void> => {
  const { openPostgresStore } = await import('../server/src/store/postgres/postgres.js');
  const { createApp } = await import('../server/src/app.js');
  const { createLogger } = await import('../server/src/logger.js');
  const store = await openPostgresStore({
    connectionString: process.env[ENV.url] ?? '',
    schema: process.env[ENV.schema] ?? '',
  });
  if (process.env[ENV.chained] === '1') {
    store.insertHits = chained(store.insertHits.bind(store));
    store.insertActivations = chained(store.insertActivations.bind(store));
  }
  const app = await createApp({ store, logger: createLogger('warn') });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  process.stdout.write(
    `${JSON.stringify({ port: typeof address === 'object' && address !== null ? address.port : 0 })}\n`,
  );
};

/**
 * Child: the bare program. 50 connections, each inserting one row per statement (autocommit: one commit
 * each) for SECONDS or BARE_MAX_INSERTS in all; prints `{"rows":…,"seconds":…}` and exits.
 */
const runBare = async (): Promise<void> => {
  const table = process.env[ENV.table] === 'activations' ? 'bare_activations' : 'bare_hits';
  const envId = process.env[ENV.envId] ?? '';
  const pool = new pg.Pool({
    connectionString: process.env[ENV.url] ?? '',
    max: CONNECTIONS,
    options: `-c search_path=${process.env[ENV.schema] ?? ''}`,
  });
  // Every connection opened before the clock starts, as the server's pool is warm when it is measured.
  const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => pool.connect()));
  const text =
    table === 'bare_hits'
      ? `INSERT INTO bare_hits (env_id, hid, type, visitor_id, customer_id, goal, revenue, created_ms, received_ms, body)
         VALUES ($1, $2, 'EVENT', $3, NULL, 'add_to_cart', NULL, $4, $5, $6::jsonb)
         ON CONFLICT (env_id, hid) DO NOTHING RETURNING hid`
      : `INSERT INTO bare_activations (env_id, hid, visitor_id, anonymous_id, campaign_id, variation_group_id,
           variation_id, created_ms, received_ms)
         VALUES ($1, $2, $3, NULL, 'c', 'g', 'x', $4, $5)
         ON CONFLICT (env_id, hid) DO NOTHING RETURNING hid`;
  const prefix = randomBytes(4).toString('hex');
  let next = 0;
  const started = Date.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    clients.map(async (client) => {
      while (Date.now() < deadline && next < BARE_MAX_INSERTS) {
        const i = next++;
        const now = Date.now();
        const hid = `${prefix}-${i}`;
        const visitor = `visitor-${i % 10_000}`;
        const params =
          table === 'bare_hits'
            ? [
                envId,
                hid,
                visitor,
                now - 5,
                now,
                JSON.stringify({
                  t: 'EVENT',
                  vid: visitor,
                  cuid: null,
                  qt: 5,
                  hid,
                  ec: 'Action Tracking',
                  ea: 'add_to_cart',
                  ev: 1,
                }),
              ]
            : [envId, hid, visitor, now - 5, now];
        await client.query({ text, values: params, name: table });
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  // Printed before the connections close, so that their backends' CPU is still there to be read.
  process.stdout.write(`${JSON.stringify({ rows: next, seconds })}\n`);
  for (const client of clients) client.release();
  await pool.end();
};

/** Starts this file as a child in `mode` and resolves with its first stdout line, parsed. */
const startChild = (
  mode: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; info: Record<string, number> }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
      env: { ...process.env, ...env, [ENV.mode]: mode },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`bench child ${mode} gave no answer`));
    }, 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('\n')) return;
      clearTimeout(timer);
      resolve({ child, info: JSON.parse(out.split('\n')[0] ?? '{}') as Record<string, number> });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bench child ${mode} exited (${String(code)})`));
    });
  });

/** CPU milliseconds used so far by every PostgreSQL process of this machine (user + system, /proc). */
const postgresCpuMs = (): number | null => {
  try {
    let ticks = 0;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue; // ended meanwhile
      }
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks * 10; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
};

/** Busy and total jiffies of the whole machine so far (/proc/stat's first line), or null. */
const machineJiffies = (): { busy: number; total: number } | null => {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    // idle and iowait are the machine waiting.
    return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
  } catch {
    return null;
  }
};

/** One measured run: rows stored per second, and how busy the server's main threads and PostgreSQL were. */
interface Sample {
  perSecond: number;
  /** The servers' main threads' CPU over the run, in % of one core each (mean of the instances). */
  mainBusy: number | null;
  /** PostgreSQL's processes' CPU over the run, in % of one core. */
  postgresBusy: number | null;
  /** The whole machine's CPU over the run (every process, this bench's and others'), in % of all cores. */
  machineBusy: number | null;
}

type Target = () => Promise<Sample>;

/** Runs `work` between two CPU readings of `pids` and of PostgreSQL. */
const measured = async (
  pids: ReadonlyArray<number | undefined>,
  work: () => Promise<{ rows: number; seconds: number }>,
): Promise<Sample> => {
  const before = pids.map(processCpu);
  const pgBefore = postgresCpuMs();
  const machineBefore = machineJiffies();
  const { rows, seconds } = await work();
  const after = pids.map(processCpu);
  const pgAfter = postgresCpuMs();
  const machineAfter = machineJiffies();
  const mains = before.map((b, i) => {
    const a = after[i];
    return a && b ? (a.main - b.main) / (seconds * 10) : null;
  });
  return {
    perSecond: rows / seconds,
    mainBusy: mains.length === 0 || mains.some((m) => m === null) ? null : median(mains as number[]),
    // A backend that ended during the run takes its CPU with it: a negative difference is unknown.
    postgresBusy:
      pgAfter === null || pgBefore === null || pgAfter < pgBefore
        ? null
        : (pgAfter - pgBefore) / (seconds * 10),
    machineBusy:
      machineAfter === null || machineBefore === null || machineAfter.total === machineBefore.total
        ? null
        : ((machineAfter.busy - machineBefore.busy) * 100) / (machineAfter.total - machineBefore.total),
  };
};

/** Single-item POSTs from `CONNECTIONS` connections split across `ports`, each item with an id of its own. */
const httpTarget =
  (
    kind: Kind,
    servers: ReadonlyArray<{ port: number; pid: number | undefined }>,
    envId: string,
    variation: Variation,
    label: string,
  ): Target =>
  () =>
    measured(
      servers.map((s) => s.pid),
      async () => {
        let n = 0;
        const body = (): string => {
          const hid = `${label}-${randomBytes(3).toString('hex')}-${++n}`;
          const vid = `visitor-${n % 10_000}`;
          return kind === 'hits'
            ? JSON.stringify({
                cid: envId,
                ds: 'APP',
                t: 'BATCH',
                h: [
                  {
                    t: 'EVENT',
                    vid,
                    cuid: null,
                    qt: 5,
                    hid,
                    ec: 'Action Tracking',
                    ea: 'add_to_cart',
                    ev: 1,
                  },
                ],
              })
            : JSON.stringify({
                cid: envId,
                batch: [{ vid, aid: null, caid: variation.groupId, vaid: variation.variationId, qt: 5, hid }],
              });
        };
        const path = kind === 'hits' ? '/events' : '/v2/activate';
        const results = await Promise.all(
          servers.map((server, i) =>
            autocannon({
              url: `http://127.0.0.1:${server.port}${path}`,
              method: 'POST',
              // The connections split evenly, the first instance taking the odd one out.
              connections:
                Math.floor(CONNECTIONS / servers.length) + (i < CONNECTIONS % servers.length ? 1 : 0),
              duration: SECONDS,
              headers: { 'content-type': 'application/json' },
              requests: [{ setupRequest: (request) => ({ ...request, body: body() }) }],
            }),
          ),
        );
        for (const result of results)
          if (result.non2xx > 0 || result.errors > 0)
            throw new Error(`${path}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
        return {
          rows: results.reduce((sum, r) => sum + r.requests.total, 0),
          seconds: Math.max(...results.map((r) => r.duration)),
        };
      },
    );

/** The bare program, started afresh for each run (its own process, its own 50 connections). */
const bareTarget =
  (kind: Kind, env: Record<string, string>): Target =>
  () =>
    measured([], async () => {
      const { child, info } = await startChild('bare', {
        ...env,
        [ENV.table]: kind,
      });
      child.kill('SIGTERM');
      return { rows: info.rows ?? 0, seconds: info.seconds ?? SECONDS };
    });

/** Medians of how busy the servers, PostgreSQL and the machine were over the counted runs. */
const fmtBusy = (samples: readonly Sample[]): string => {
  const pct = (values: Array<number | null>): string => {
    const known = values.filter((v): v is number => v !== null);
    return known.length === 0 ? '?' : `${Math.round(median(known))} %`;
  };
  const main = samples.some((s) => s.mainBusy !== null)
    ? `server main thread ${pct(samples.map((s) => s.mainBusy))} of a core, `
    : '';
  return `busy: ${main}PostgreSQL ${pct(samples.map((s) => s.postgresBusy))} of a core, machine ${pct(samples.map((s) => s.machineBusy))} of its cores`;
};

export const bench: Bench = async () => {
  const url = process.env.DATABASE_URL;
  if (url === undefined || url === '') {
    process.stderr.write('bench: ingestion.bench.ts skipped: DATABASE_URL is not set\n');
    return [
      {
        figure: 'ingestion on PostgreSQL (issue 31)',
        value: 0,
        unit: 'hits/s',
        note: 'SKIPPED: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to run it',
      },
    ];
  }
  const schema = `bench_ingest_${randomBytes(5).toString('hex')}`;
  const file = JSON.parse(readFileSync(FIXTURE, 'utf8')) as BucketingFile;
  const variation = firstVariation(file);
  const children: ChildProcess[] = [];
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { openPostgresStore } = await import('../server/src/store/postgres/postgres.js');
    const setup = await openPostgresStore({ connectionString: url, schema, max: 1 });
    let envId: string;
    try {
      const account = await setup.createAccount('bench');
      const { environment } = await setup.createEnvironment({ accountId: account.id, name: 'bench' });
      envId = environment.id;
      await setup.replaceCampaigns(envId, file.campaigns);
    } finally {
      await setup.close();
    }
    // The bare program's tables: copies of the product's (columns, defaults, indexes), plus the foreign key
    // the product's rows are checked against, so both do the same work per row. The product claims each
    // idempotency id in collected_ids since its tables are partitioned by month (migration 010); the bare
    // program keeps the cheapest form of the same guarantee, a unique index on (env_id, hid) of its own table.
    for (const table of ['hits', 'activations'])
      await admin.query(
        `CREATE TABLE "${schema}".bare_${table} (LIKE "${schema}".${table} INCLUDING ALL);
         ALTER TABLE "${schema}".bare_${table} ADD FOREIGN KEY (env_id) REFERENCES "${schema}".environments (id);
         CREATE UNIQUE INDEX ON "${schema}".bare_${table} (env_id, hid)`,
      );

    const env = { [ENV.url]: url, [ENV.schema]: schema, [ENV.envId]: envId };
    const server = async (chain: boolean) => {
      const { child, info } = await startChild('server', {
        ...env,
        [ENV.chained]: chain ? '1' : '0',
      });
      children.push(child);
      return { port: info.port ?? 0, pid: child.pid };
    };
    const [newA, newB, oldA, oldB] = [
      await server(false),
      await server(false),
      await server(true),
      await server(true),
    ];

    const targets = {
      bareHits: bareTarget('hits', env),
      hitsOne: httpTarget('hits', [newA], envId, variation, 'h1'),
      hitsTwo: httpTarget('hits', [newA, newB], envId, variation, 'h2'),
      hitsOneChained: httpTarget('hits', [oldA], envId, variation, 'c1'),
      hitsTwoChained: httpTarget('hits', [oldA, oldB], envId, variation, 'c2'),
      bareActivations: bareTarget('activations', env),
      activationsOne: httpTarget('activations', [newA], envId, variation, 'a1'),
      activationsTwo: httpTarget('activations', [newA, newB], envId, variation, 'a2'),
      activationsOneChained: httpTarget('activations', [oldA], envId, variation, 'ac1'),
    };
    type Name = keyof typeof targets;
    const samples = Object.fromEntries(Object.keys(targets).map((name) => [name, [] as Sample[]])) as Record<
      Name,
      Sample[]
    >;
    // Rounds alternate the targets, so that a slow spell of this shared machine weighs on all of them alike.
    for (let round = 0; round < WARM_UP_ROUNDS + RUNS; round++)
      for (const [name, target] of Object.entries(targets) as Array<[Name, Target]>) {
        const sample = await target();
        if (round >= WARM_UP_ROUNDS) samples[name].push(sample);
      }

    const rate = (name: Name): number => median(samples[name].map((s) => s.perSecond));
    const runs = (name: Name): string => samples[name].map((s) => Math.round(s.perSecond)).join(', ');
    /** The median of the per-round ratios of `a` to `b`, and those ratios. */
    const ratioOf = (a: Name, b: Name): { value: number; each: string } => {
      const each = samples[a].map((s, i) => s.perSecond / (samples[b][i]?.perSecond ?? Infinity));
      return { value: median(each), each: each.map((r) => r.toFixed(2)).join(' ') };
    };
    const note = `${CONNECTIONS} connections, ${WARM_UP_ROUNDS} warm-up + ${RUNS} rounds × ${SECONDS} s alternating every series, medians (ratio: of per-round ratios)`;
    /** A row; against `base` with a goal (a ratio in the table) or without one (the ratio in the note). */
    const row = (
      figure: string,
      name: Name,
      base: { name: Name; figure: string; goal: number | null } | null,
      extra: string,
    ): BenchRow => {
      const ratio = base === null ? null : ratioOf(name, base.name);
      const goal = base?.goal ?? null;
      return {
        figure,
        value: rate(name),
        unit: name.toLowerCase().includes('activations') ? 'activations/s' : 'hits/s',
        ...(base === null ? {} : { baseline: { figure: base.figure, value: rate(base.name) } }),
        ...(ratio === null || goal === null
          ? {}
          : { ratio: { value: ratio.value, goal: `≥ ${goal.toFixed(2)}`, met: ratio.value >= goal } }),
        note: `${extra}; runs ${runs(name)}${ratio === null ? '' : `; ratio ${ratio.value.toFixed(2)} (per round ${ratio.each})`}; ${fmtBusy(samples[name])}; ${note}`,
      };
    };
    const bare = 'bare pg: one INSERT per commit, 50 connections';
    return [
      row(
        'ingestion: bare pg single-row inserts (physical limit)',
        'bareHits',
        null,
        `a copy of the hits table, synchronous_commit on, ${CONNECTIONS} connections`,
      ),
      row(
        'ingestion: single-hit POST /events, one instance',
        'hitsOne',
        { name: 'bareHits', figure: bare, goal: 0.8 },
        'pipelined group commit',
      ),
      row(
        'ingestion: single-hit POST /events, two instances',
        'hitsTwo',
        { name: 'hitsOne', figure: 'one instance', goal: 1 },
        'pipelined, 25 connections to each instance',
      ),
      row(
        'ingestion: single-hit POST /events, one instance, chained (before)',
        'hitsOneChained',
        { name: 'bareHits', figure: bare, goal: null },
        'one statement in flight per environment, as before issue 31; no goal',
      ),
      row(
        'ingestion: single-hit POST /events, two instances, chained (before)',
        'hitsTwoChained',
        { name: 'hitsOneChained', figure: 'one instance, chained', goal: null },
        'as before issue 31; no goal',
      ),
      row(
        'ingestion: bare pg single-row activation inserts',
        'bareActivations',
        null,
        `a copy of the activations table, ${CONNECTIONS} connections`,
      ),
      row(
        'ingestion: single-activation POST /v2/activate, one instance',
        'activationsOne',
        { name: 'bareActivations', figure: bare, goal: 0.8 },
        'pipelined group commit',
      ),
      row(
        'ingestion: single-activation POST /v2/activate, two instances',
        'activationsTwo',
        { name: 'activationsOne', figure: 'one instance', goal: 1 },
        'pipelined, 25 connections to each instance',
      ),
      row(
        'ingestion: single-activation POST /v2/activate, one instance, chained (before)',
        'activationsOneChained',
        { name: 'bareActivations', figure: bare, goal: null },
        'as before issue 31; no goal',
      ),
    ];
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await admin.end();
  }
};

const mode = process.env[ENV.mode];
if (mode === 'server') await runServer();
else if (mode === 'bare') await runBare();

// Issue 35: a read-only `feature-server` command took 5-7.5 s, most of it loading the server's modules and
// opening the embedded store; while a server runs it now goes to that server first and loads neither. The
// built binary (server/bin/feature-server.js, as `npx feature-server` runs it) in child processes, wall time
// from spawn to exit: `report` and `campaign list` through a running server, against `report` on the store
// with no server (the baseline, what every command cost before), and `--help` (node's start and the CLI's own
// modules, the floor of any command). Medians of a few runs each, every run bounded in time.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyTemplateDataDir } from '../test/server/template-data-dir.js';
import { median, type Bench } from './harness.js';

const ROOT = new URL('../', import.meta.url).pathname;
const BIN = join(ROOT, 'server/bin/feature-server.js');
const RUNS = 5;
const STORE_RUNS = 3;
const TIMEOUT_MS = 60_000;

/** One run of the binary: its wall time; throws when it fails, so a broken command is never timed. */
const timedRun = (args: string[], env: NodeJS.ProcessEnv): { ms: number; stdout: string } => {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8', timeout: TIMEOUT_MS });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0)
    throw new Error(`feature-server ${args.join(' ')}: exit ${String(run.status)}\n${run.stderr}`);
  return { ms, stdout: run.stdout };
};

/** The median wall time of `runs` runs. */
const medianMs = (args: string[], env: NodeJS.ProcessEnv, runs: number): number =>
  median(Array.from({ length: runs }, () => timedRun(args, env).ms));

/** Starts `serve` on the folder; resolves once it listens, with a way to stop it. */
const startServer = async (env: NodeJS.ProcessEnv): Promise<() => Promise<void>> => {
  const child = spawn(process.execPath, [BIN, 'serve', '--json'], {
    env: { ...env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the server did not start within 60 s')), TIMEOUT_MS);
      child.stdout.once('data', () => {
        clearTimeout(timer);
        resolve();
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the server exited with ${String(code)}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
};

/** The rows: `report` and `campaign list` through a running server, against `report` on the store. */
export const bench: Bench = async () => {
  if (!existsSync(join(ROOT, 'server/dist/cli.js')))
    throw new Error('the server is not built: run `npm run build` before this bench');
  const dir = mkdtempSync(join(tmpdir(), 'feature-cli-bench-'));
  const env = { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'error', FEATURE_DATA_DIR: join(dir, 'data') };
  try {
    await copyTemplateDataDir(env.FEATURE_DATA_DIR);
    const demo = JSON.parse(timedRun(['demo', '--json'], env).stdout) as { envId: string };
    const report = ['report', '--env', demo.envId];
    const list = ['campaign', 'list', '--env', demo.envId];
    const help = medianMs(['--help'], env, RUNS);
    const onStore = medianMs(report, env, STORE_RUNS);
    const stop = await startServer(env);
    let throughReport: number;
    let throughList: number;
    try {
      timedRun(report, env); // one uncounted: the server's first report warms its caches
      throughReport = medianMs(report, env, RUNS);
      throughList = medianMs(list, env, RUNS);
    } finally {
      await stop();
    }
    const baseline = { figure: '`report` on the embedded store, no server running', value: onStore };
    // Wall times grow with the machine's load (other processes on 2 cores): the load and the floor say how much.
    const load = loadavg()[0] ?? 0;
    const note = `median of ${RUNS} runs (${STORE_RUNS} on the store), wall time of \`node server/bin/feature-server.js …\` from spawn to exit; \`--help\` (node's start and the CLI's own modules): ${help.toFixed(0)} ms; load average ${load.toFixed(1)}`;
    return [
      {
        figure: 'cli: `report --env E` through a running server (demo data)',
        value: throughReport,
        unit: 'ms',
        baseline,
        ratio: { value: throughReport / onStore, goal: 'under 1 s (issue 35)', met: throughReport < 1000 },
        note,
      },
      {
        figure: 'cli: `campaign list --env E` through a running server (demo data)',
        value: throughList,
        unit: 'ms',
        baseline,
        ratio: { value: throughList / onStore, goal: 'under 1 s (issue 35)', met: throughList < 1000 },
        note,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

// Runs the `feature-server` CLI from source: in a child process (tsx), as the bin script runs the built one,
// or, for one-shot commands whose test is not about the process, in the test's own process.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { runCli } from '../../server/src/cli.js';

const ENTRY =
  "import { runCli } from './server/src/cli.ts'; const code = await runCli(process.argv.slice(1)); if (code !== 0) process.exit(code);";

/** Spawns the CLI with `args` and extra environment variables. */
export const spawnCli = (args: string[], env: Record<string, string>): ChildProcess =>
  spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', ENTRY, '--', ...args], {
    cwd: new URL('../../', import.meta.url).pathname,
    env: cliEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/** The environment a command runs with: the test run's, without its DATABASE_URL, then `env`. */
const cliEnv = (env: Record<string, string>): NodeJS.ProcessEnv =>
  // These tests use the embedded store: a DATABASE_URL inherited from the test run would win over it.
  ({ ...process.env, DATABASE_URL: '', LOG_LEVEL: 'error', ...env });

/**
 * Runs a one-shot CLI command in this process (runCli with buffers for stdout and stderr, and the environment
 * a child would get, stdout not a terminal); returns exit code, stdout and stderr like runCliCommand. A child
 * per command costs seconds of node and tsx startup (16-20 s against 5 s in process under a test run's
 * load). Tests of the process itself use runCliCommand: the binary's exit code, and a folder held by another
 * process (a lock this process holds would be its own). Not for serve or start, which log on this process's
 * file descriptors and stop on its signals.
 */
export const runCliInProcess = async (
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> => {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: cliEnv(env),
    stdoutIsTerminal: false,
  });
  return { code, stdout, stderr };
};

/** Runs a CLI command to its end in a child process; returns exit code, stdout and stderr. */
export const runCliCommand = async (
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> => {
  const child = spawnCli(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
};

/**
 * Starts `serve --json` (or `args`, e.g. `start --json`) and resolves once it listens, with the child, its
 * URL and the whole JSON line it printed.
 */
export const startServerProcess = async (
  env: Record<string, string>,
  args: string[] = ['serve', '--json'],
): Promise<{ child: ChildProcess; url: string; printed: Record<string, unknown> }> => {
  const child = spawnCli(args, { PORT: '0', ...env });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const printed = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => {
      // A server that never said where it listens is stopped, or it would keep the test file running.
      child.kill('SIGKILL');
      reject(new Error(`server did not start within 60 s: ${stderr}`));
    }, 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n')[0] ?? '';
      if (stdout.includes('\n')) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as Record<string, unknown>);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${String(code)}: ${stderr}`)));
  });
  if (typeof printed.url !== 'string') throw new Error(`no url in ${JSON.stringify(printed)}`);
  return { child, url: printed.url, printed };
};

/** Everything a server process wrote from its start to its stop, and how it exited. */
export interface ServerRun {
  stdout: string;
  stderr: string;
  code: number | null;
}

/**
 * Runs a server command (`serve`, `start`) until `ready(stdout)` holds, then `whileRunning` (given the
 * output so far), then stops it with SIGINT; resolves with everything it wrote, from start to stop.
 */
export const runServerProcess = async (
  args: string[],
  env: Record<string, string>,
  ready: (stdout: string) => boolean,
  whileRunning: (output: ServerRun) => Promise<void> = () => Promise.resolve(),
): Promise<ServerRun> => {
  const child = spawnCli(args, { PORT: '0', ...env });
  const run: ServerRun = { stdout: '', stderr: '', code: null };
  const exited = once(child, 'exit') as Promise<[number | null]>;
  child.stderr?.on('data', (chunk: Buffer) => (run.stderr += chunk.toString()));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready in 60 s: ${run.stderr}`)), 60_000);
      child.stdout?.on('data', (chunk: Buffer) => {
        run.stdout += chunk.toString();
        if (ready(run.stdout)) {
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then(([code]) => {
        clearTimeout(timer);
        reject(new Error(`${args.join(' ')} exited with ${String(code)}: ${run.stderr}`));
      });
    });
    await whileRunning(run);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    [run.code] = await exited;
  }
  return run;
};

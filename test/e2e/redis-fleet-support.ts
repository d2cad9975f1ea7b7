// The processes of test/e2e/redis-fleet.test.ts: each a real Node process (`node --import tsx`) running
// redis-fleet-process.ts with one task, its stdout read line by line as JSON events.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import type { FleetTask } from './redis-fleet-process.js';

export type { FleetTask } from './redis-fleet-process.js';

/** One line a fleet process printed. */
export type FleetEvent = { event: string } & Record<string, unknown>;

/** A running fleet process. */
export interface FleetProcess {
  child: ChildProcessWithoutNullStreams;
  events: FleetEvent[];
  /** Resolves with the first event named `name`; rejects if the process ends first or after `maxMs`. */
  next(name: string, maxMs?: number): Promise<FleetEvent>;
  /** Resolves with the exit code (or signal) once the process has ended; rejects after `maxMs`. */
  exited(maxMs?: number): Promise<number | string>;
  /** Opens the gate of a process started with `gate: true`. */
  go(): void;
  /** Kills the process with SIGKILL (no exit handler, no flush: a crash) and waits for its end. */
  kill(): Promise<void>;
}

const SCRIPT = new URL('./redis-fleet-process.ts', import.meta.url).pathname;

/** Starts one process; `running` collects it so the test can kill whatever is left. */
export const startFleetProcess = (task: FleetTask, running: FleetProcess[]): FleetProcess => {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, JSON.stringify(task)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const events: FleetEvent[] = [];
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  createInterface({ input: child.stdout }).on('line', (line) => {
    try {
      events.push(JSON.parse(line) as FleetEvent);
    } catch {
      stderr += `${line}\n`;
    }
    for (const wake of waiters) wake();
  });
  let status: number | string | undefined;
  const ended = new Promise<number | string>((resolve) =>
    child.once('close', (code, signal) => {
      status = code ?? signal ?? 'unknown';
      for (const wake of waiters) wake();
      resolve(status);
    }),
  );
  const bounded = <T>(what: string, maxMs: number, check: () => T | undefined): Promise<T> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`${what}: not within ${maxMs} ms\n${stderr}`)), maxMs);
      const finish = (error?: Error, value?: T): void => {
        clearTimeout(timer);
        waiters.delete(wake);
        if (error) reject(error);
        else resolve(value as T);
      };
      const wake = (): void => {
        const value = check();
        if (value !== undefined) finish(undefined, value);
        else if (status !== undefined) finish(new Error(`${what}: the process ended (${status})\n${stderr}`));
      };
      waiters.add(wake);
      wake();
    });
  const fleet: FleetProcess = {
    child,
    events,
    next: (name, maxMs = 30_000) =>
      bounded(`event ${name}`, maxMs, () => events.find((e) => e.event === name)),
    async exited(maxMs = 60_000) {
      const timer = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no exit within ${maxMs} ms\n${stderr}`)), maxMs).unref(),
      );
      return Promise.race([ended, timer]);
    },
    go() {
      child.stdin.write('go\n');
    },
    async kill() {
      if (status === undefined) child.kill('SIGKILL');
      await ended;
    },
  };
  running.push(fleet);
  return fleet;
};

/** A URL on 127.0.0.1 where nothing listens (a port taken from the system, then freed). */
export const deadUrl = async (): Promise<string> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
};

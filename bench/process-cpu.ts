// CPU time a bench child has used, read from Linux's /proc: the main thread apart from every other thread
// (PGlite's worker, V8's garbage collection helpers, libuv's pool). A throughput ratio says how fast a server
// answers next to its baseline on this shared 2-core machine, where autocannon, the server and its store
// thread compete for the cores; the CPU a server spends per answer, split by thread, says where its time goes
// (issue 18). Both move with the machine between 3 s rounds (per-round spreads of about ±20 % seen here).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** CPU milliseconds used so far (user + system), by the main thread and by all the others. */
export interface ProcessCpu {
  main: number;
  other: number;
}

let ticksPerSecond: number | null = null;

const msPerTick = (): number => {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return 1000 / ticksPerSecond;
};

/** utime + stime of one /proc stat line, in ticks (fields 14 and 15, counted after the command's ")"). */
const ticksOf = (stat: string): number => {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
};

/** The CPU process `pid` has used so far, or null where /proc cannot tell (not Linux, process gone). */
export const processCpu = (pid: number | undefined): ProcessCpu | null => {
  if (pid === undefined) return null;
  try {
    const tick = msPerTick();
    // The process line counts threads that have ended too; the main thread's own line is its task's.
    const total = ticksOf(readFileSync(`/proc/${pid}/stat`, 'utf8')) * tick;
    const main = ticksOf(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8')) * tick;
    const other = total - main;
    return { main, other };
  } catch {
    return null;
  }
};

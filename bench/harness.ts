// A small harness for in-process figures. Every loop is bounded in count and in time; figures are reported
// next to a baseline measured in the same run, so they compare across machines as ratios.

/** One row of the table `npm run bench` prints. */
export interface BenchRow {
  /** What is measured, in the product's words. */
  figure: string;
  /** The measured value. */
  value: number;
  /** Its unit: "ns/op", "req/s", "ms", "KB", … */
  unit: string;
  /** The baseline measured in the same run, when the figure is a comparison. */
  baseline?: { figure: string; value: number };
  /** value / baseline (or the inverse for throughputs), with the goal it must meet. */
  ratio?: { value: number; goal: string; met: boolean };
  /** The same figure for peer SDKs measured in the same process and run (issue 18), in the same unit. */
  peers?: Array<{ name: string; value: number }>;
  /** Extra context: workload, runs. */
  note?: string;
}

/** A benchmark file's export: returns its rows. */
export type Bench = () => Promise<BenchRow[]>;

/** The median of a list of numbers. */
export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/** Nanoseconds per call of `fn` over one run of `iterations` calls, stopping early after `maxMsPerRun`. */
const timeRun = (fn: (i: number) => unknown, iterations: number, maxMsPerRun: number): number => {
  let sink: unknown;
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(maxMsPerRun) * 1_000_000n;
  let done = 0;
  for (; done < iterations; done++) {
    sink = fn(done);
    if ((done & 1023) === 1023 && process.hrtime.bigint() > deadline) {
      done++;
      break;
    }
  }
  if (sink === Symbol.for('never')) console.log(sink); // keeps the results alive against dead-code removal
  return Number(process.hrtime.bigint() - started) / done;
};

/**
 * Nanoseconds per call of `fn`, the median of `runs` runs of `iterations` calls each, after one warm-up run.
 * Each run stops early after `maxMsPerRun` so a slow machine cannot hang the bench.
 */
export const nsPerOp = (
  fn: (i: number) => unknown,
  { iterations = 100_000, runs = 5, maxMsPerRun = 2_000 } = {},
): number => alternateNsPerOp([fn], { iterations, runs, maxMsPerRun }).medians[0] ?? 0;

/** What `alternateNsPerOp` measured: each contender's median and its runs, in the order given. */
export interface AlternatedNs {
  medians: number[];
  runs: number[][];
}

/**
 * Nanoseconds per call of each of `fns`, in alternated runs: one warm-up run each, then `runs` rounds of one run
 * of each contender in turn, so that a slow spell of the machine weighs on all of them alike and a ratio is
 * best taken per round (`runs[a][r] / runs[b][r]`). Each run stops early after `maxMsPerRun`.
 */
export const alternateNsPerOp = (
  fns: ReadonlyArray<(i: number) => unknown>,
  { iterations = 100_000, runs = 5, maxMsPerRun = 2_000 } = {},
): AlternatedNs => {
  for (const fn of fns) timeRun(fn, iterations, maxMsPerRun);
  const all = fns.map((): number[] => []);
  for (let r = 0; r < runs; r++)
    for (const [index, fn] of fns.entries()) all[index]?.push(timeRun(fn, iterations, maxMsPerRun));
  return { medians: all.map(median), runs: all };
};

/** The ratio of runs `a` to runs `b` in each round (same rounds); a figure's ratio is their median. */
export const perRoundRatios = (a: readonly number[], b: readonly number[]): number[] =>
  a.map((value, round) => value / (b[round] ?? Infinity));

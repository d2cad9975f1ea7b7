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

/**
 * Nanoseconds per call of `fn`, the median of `runs` runs of `iterations` calls each, after one warm-up run.
 * Each run stops early after `maxMsPerRun` so a slow machine cannot hang the bench.
 */
export const nsPerOp = (
  fn: (i: number) => unknown,
  { iterations = 100_000, runs = 5, maxMsPerRun = 2_000 } = {},
): number => {
  let sink: unknown;
  const once = (): number => {
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
    return Number(process.hrtime.bigint() - started) / done;
  };
  once();
  const results: number[] = [];
  for (let r = 0; r < runs; r++) results.push(once());
  if (sink === Symbol.for('never')) console.log(sink); // keeps the results alive against dead-code removal
  return median(results);
};

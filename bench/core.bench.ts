// Core SDK figures: the cost of a flag read (the hot path of every render) against a plain Map lookup measured
// in the same run, and the min+gzip sizes of the decision-API browser entry (8 KB budget) and of its lazy chunks.
import { spawnSync } from 'node:child_process';
import type { JsonValue } from '../src/protocol/index.js';
import { startBenchSdk } from './bench-sdk.js';
import { flagValue as flagValues, startChildDouble } from './double-child.js';
import { alternateNsPerOp, median, perRoundRatios, type Bench, type BenchRow } from './harness.js';

const FLAGS = 50;
const READS = 100_000;

const readCost = async (): Promise<BenchRow> => {
  const double = await startChildDouble();
  const sdk = await startBenchSdk(double.url);
  const visitor = sdk.newVisitor({ visitorId: 'bench', hasConsented: true }).build();
  await visitor.fetchFlags();
  const keys = Array.from({ length: FLAGS }, (_, i) => `flag${i}`);
  const defaults = keys.map((_, i) => (i % 3 === 0 ? '' : i % 3 === 1 ? 0 : false));
  const plain = new Map<string, JsonValue>(keys.map((k, i) => [k, flagValues(i)]));
  // Ours and its baseline in alternated runs, so that a slow spell of the machine weighs on both alike.
  const { medians, runs } = alternateNsPerOp(
    [
      (i) => visitor.getFlag(keys[i % FLAGS] ?? '').value(defaults[i % FLAGS], { visitorExposed: false }),
      (i) => {
        const v = plain.get(keys[i % FLAGS] ?? '');
        const d = defaults[i % FLAGS];
        return typeof v === typeof d ? v : d;
      },
    ],
    { iterations: READS },
  );
  const [sdkRead = 0, baseline = 1] = medians;
  await sdk.close();
  double.close();
  const ratio = median(perRoundRatios(runs[0] ?? [], runs[1] ?? []));
  return {
    figure: `getFlag(key).value(default, {visitorExposed:false}), ${FLAGS} flags`,
    value: sdkRead,
    unit: 'ns/op',
    baseline: { figure: 'Map.get + typeof check', value: baseline },
    ratio: { value: ratio, goal: '≤ 4× (issue 18)', met: ratio <= 4 },
    note: `${READS.toLocaleString('en-US')} reads per run, 5 runs alternated with the baseline's, medians and the median of per-run ratios; ${((sdkRead * READS) / 1e6).toFixed(1)} ms per ${READS.toLocaleString('en-US')} reads`,
  };
};

interface SizeCheck {
  name: string;
  size: number;
  sizeLimit: number;
  passed: boolean;
}

/**
 * The size budgets, measured by size-limit itself (.size-limit.json), so the figures are exactly what the
 * build enforces: the entry is `import { Feature }` with what it imports statically (chunks/ included, the
 * lazy/ chunks left out), each lazy chunk has its own row, and the elements' first render and first 5 s are
 * measured on the /sdk/ bundles, each file gzipped as served. Builds dist/browser and dist/sdk first.
 */
const bundleSizes = (): BenchRow[] => {
  // Built each time: stale files would report another version's sizes.
  spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], {
    stdio: 'inherit',
  });
  // The /sdk/ bundles pages load (the elements' first-render rows measure them).
  for (const mode of ['elements', 'core'])
    spawnSync(
      process.execPath,
      [
        'node_modules/vite/bin/vite.js',
        'build',
        '-c',
        'vite.sdk.config.ts',
        '--mode',
        mode,
        '--logLevel',
        'warn',
      ],
      { stdio: 'inherit' },
    );
  const run = spawnSync(process.execPath, ['node_modules/size-limit/bin.js', '--json'], { encoding: 'utf8' });
  const checks = JSON.parse(run.stdout) as SizeCheck[];
  return checks.map((check) => {
    const isCoreEntry = check.name.startsWith('core, decision-API entry');
    const kb = check.size / 1000;
    const budget = check.sizeLimit / 1000;
    return {
      // A check's name reads `what (file, when it loads): what it holds`; the figure keeps the part before the colon.
      figure: `${isCoreEntry ? 'core decision-API browser entry' : check.name.split(':')[0]}, min+gzip`,
      value: kb,
      unit: 'KB',
      ratio: { value: kb / budget, goal: `≤ 1 (budget ${budget} KB)`, met: check.passed },
      ...(isCoreEntry ? { note: check.name } : {}),
    };
  });
};

/** The core SDK's figures. */
export const bench: Bench = async () => [await readCost(), ...bundleSizes()];

// Core SDK figures: the cost of a flag read (the hot path of every render) against a plain Map lookup measured
// in the same run, and the min+gzip size of the decision-API browser entry against its 8 KB budget.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ConfigBuilder, FeatureInstance, Level } from '../src/core/node.js';
import type { JsonValue } from '../src/protocol/index.js';
import { startProtocolDouble } from '../test/support/protocol-double.js';
import { nsPerOp, type Bench, type BenchRow } from './harness.js';

const FLAGS = 50;
const READS = 100_000;
const BUDGET_KB = 8;

/** ~50 flags of mixed types over 10 campaigns, as a visitor of a busy page would hold. */
const flagValues = (i: number): JsonValue => (i % 3 === 0 ? `v${i}` : i % 3 === 1 ? i : i % 2 === 0);

const readCost = async (): Promise<BenchRow> => {
  const double = await startProtocolDouble({
    decide: (b) => ({
      visitorId: b.visitorId,
      campaigns: Array.from({ length: 10 }, (_, c) => ({
        id: `c${c}`,
        name: `Campaign ${c}`,
        slug: null,
        type: 'ab',
        variationGroupId: `vg${c}`,
        variationGroupName: `Group ${c}`,
        variation: {
          id: `v${c}`,
          name: `Variation ${c}`,
          reference: false,
          modifications: {
            type: 'FLAG',
            value: Object.fromEntries(
              Array.from({ length: FLAGS / 10 }, (_, k) => [`flag${c * 5 + k}`, flagValues(c * 5 + k)]),
            ),
          },
        },
      })),
    }),
  });
  const sdk = new FeatureInstance();
  await sdk.start(
    'env1',
    'key1',
    new ConfigBuilder()
      .withServerUrl(double.url)
      .withLogLevel(Level.NONE)
      .withDisableDeveloperUsageTracking(true)
      .build(),
  );
  const visitor = sdk.newVisitor({ visitorId: 'bench', hasConsented: true }).build();
  await visitor.fetchFlags();
  const keys = Array.from({ length: FLAGS }, (_, i) => `flag${i}`);
  const defaults = keys.map((_, i) => (i % 3 === 0 ? '' : i % 3 === 1 ? 0 : false));
  const sdkRead = nsPerOp(
    (i) => visitor.getFlag(keys[i % FLAGS] ?? '').value(defaults[i % FLAGS], { visitorExposed: false }),
    {
      iterations: READS,
    },
  );
  const plain = new Map<string, JsonValue>(keys.map((k, i) => [k, flagValues(i)]));
  const baseline = nsPerOp(
    (i) => {
      const v = plain.get(keys[i % FLAGS] ?? '');
      const d = defaults[i % FLAGS];
      return typeof v === typeof d ? v : d;
    },
    { iterations: READS },
  );
  await sdk.close();
  await double.close();
  const ratio = sdkRead / baseline;
  return {
    figure: `getFlag(key).value(default, {visitorExposed:false}), ${FLAGS} flags`,
    value: sdkRead,
    unit: 'ns/op',
    baseline: { figure: 'Map.get + typeof check', value: baseline },
    ratio: { value: ratio, goal: '≤ 50×', met: ratio <= 50 },
    note: `${READS.toLocaleString('en-US')} reads per run, median of 5 runs; ${((sdkRead * READS) / 1e6).toFixed(1)} ms per ${READS.toLocaleString('en-US')} reads`,
  };
};

/** dist/browser/core.js and the chunks it imports statically (dynamic `import()` chunks are not downloaded). */
const staticClosure = (file: string, seen = new Set<string>()): string[] => {
  if (seen.has(file)) return [];
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  const imports = [...text.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["']/g)].map(
    (m) => m[1] ?? '',
  );
  return [
    file,
    ...imports.filter((i) => i.startsWith('.')).flatMap((i) => staticClosure(join(dirname(file), i), seen)),
  ];
};

const bundleSize = (): BenchRow => {
  const entry = 'dist/browser/core.js';
  if (!existsSync(entry))
    spawnSync('node_modules/.bin/vite', ['build', '--logLevel', 'warn'], { stdio: 'inherit' });
  const files = staticClosure(entry);
  const gzipped = files.reduce((n, f) => n + gzipSync(readFileSync(f), { level: 9 }).length, 0);
  const kb = gzipped / 1000;
  return {
    figure: 'core decision-API browser entry, min+gzip',
    value: kb,
    unit: 'KB',
    ratio: { value: kb / BUDGET_KB, goal: `≤ 1 (budget ${BUDGET_KB} KB)`, met: kb <= BUDGET_KB },
    note: `${files.length} file(s): ${files.join(', ')}`,
  };
};

/** The core SDK's figures. */
export const bench: Bench = async () => [await readCost(), bundleSize()];

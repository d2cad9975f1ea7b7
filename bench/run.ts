// `npm run bench`: runs every bench/*.bench.ts (or those named on the command line) and prints one table.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Bench, BenchRow } from './harness.js';

const dir = import.meta.dirname;
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

const rows: BenchRow[] = [];
let failed = false;
for (const file of files) {
  process.stderr.write(`bench: ${file}…\n`);
  const started = Date.now();
  try {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as { bench: Bench };
    rows.push(...(await mod.bench()));
  } catch (error) {
    failed = true;
    console.error(`bench: ${file} failed:`, error);
  }
  process.stderr.write(`bench: ${file} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

const fmt = (n: number): string =>
  n >= 100 ? Math.round(n).toLocaleString('en-US') : n >= 1 ? n.toFixed(2) : n.toPrecision(3);
const table = rows.map((r) => ({
  figure: r.figure,
  value: `${fmt(r.value)} ${r.unit}`,
  baseline: r.baseline ? `${fmt(r.baseline.value)} ${r.unit} (${r.baseline.figure})` : '',
  ratio: r.ratio
    ? `${r.ratio.value.toFixed(2)} (goal ${r.ratio.goal}: ${r.ratio.met ? 'met' : 'NOT met'})`
    : '',
  peers: (r.peers ?? [])
    .map((p) => `${p.name} ${fmt(p.value)} ${r.unit} (${fmt(p.value / r.value)}×)`)
    .join('; '),
  note: r.note ?? '',
}));
const cols = ['figure', 'value', 'baseline', 'ratio', 'peers', 'note'] as const;
const widths = cols.map((c) => Math.max(c.length, ...table.map((t) => t[c].length)));
const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ');
console.log(line(cols));
console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
for (const t of table) console.log(line(cols.map((c) => t[c])));
if (failed) process.exit(1);

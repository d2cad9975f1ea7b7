// The engine's cost of one decision: `evaluate` on a compiled file of 50 campaigns × 2 variation groups × 3
// mixed targeting rules, against a bare loop doing the same work by hand (the same rules checked inline, one
// hash and an allocation walk per matched group). Goal: evaluate ≤ 2× the bare loop.
import { readFileSync } from 'node:fs';
import { compileFile, evaluate, murmur3, type EngineVisitor } from '../src/engine/index.js';
import type { BucketingFile, JsonValue, Targeting, VisitorContext } from '../src/protocol/index.js';
import { median, nsPerOp, type Bench, type BenchRow } from './harness.js';
import { BENCH_VISITORS as VISITORS, benchVisitors as visitors } from './visitors.js';

const FIXTURE = new URL('./fixtures/engine-50x2x3.json', import.meta.url);
/** A plain `MAJOR.MINOR.PATCH[-pre]` comparison, enough for the fixture's versions. */
const versionAtLeast = (c: string, t: string): boolean => {
  const a = c.split('-')[0]?.split('.') ?? [];
  const b = t.split('-')[0]?.split('.') ?? [];
  for (let i = 0; i < 3; i++) {
    const d = Number(a[i] ?? 0) - Number(b[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return !c.includes('-') || t.includes('-');
};

/** One rule checked by hand: what code without an engine would write. */
const ruleInline = (rule: Targeting, context: VisitorContext): boolean => {
  const c = context[rule.key];
  const t: JsonValue = rule.value;
  switch (rule.operator) {
    case 'EQUALS':
      return Array.isArray(t) ? t.includes(c ?? null) : c === t;
    case 'NOT_EQUALS':
      return c !== undefined && typeof c === typeof t && c !== t;
    case 'GREATER_THAN_OR_EQUALS':
      return typeof c === 'number' && typeof t === 'number' && c >= t;
    case 'LOWER_THAN':
      return typeof c === 'number' && typeof t === 'number' && c < t;
    case 'CONTAINS':
      return typeof c === 'string' && typeof t === 'string' && c.includes(t);
    case 'ENDS_WITH':
      return typeof c === 'string' && typeof t === 'string' && c.endsWith(t);
    case 'SEMVER_GREATER_THAN_OR_EQUALS':
      return typeof c === 'string' && typeof t === 'string' && versionAtLeast(c, t);
    case 'EXISTS':
      return c !== undefined;
    default:
      return false;
  }
};

/** The bare loop: targeting inline, then `murmur3(vgid + id) % 100` against the allocations. */
const bareLoop = (file: BucketingFile, visitor: EngineVisitor): number => {
  let allocated = 0;
  const rangeBucket = murmur3(visitor.id) % 100;
  for (const campaign of file.campaigns) {
    const ranges = campaign.bucketRanges ?? [];
    if (!ranges.some(({ r }) => rangeBucket >= r[0] && rangeBucket < r[1])) continue;
    for (const group of campaign.variationGroups) {
      const groups = group.targeting?.targetingGroups ?? [];
      if (!groups.some((g) => g.targetings.every((rule) => ruleInline(rule, visitor.context)))) continue;
      const bucket = murmur3(group.id + visitor.id) % 100;
      let sum = 0;
      for (const variation of group.variations) {
        sum += variation.allocation ?? 0;
        if (bucket < sum) {
          allocated++;
          break;
        }
      }
      break;
    }
  }
  return allocated;
};

/** The engine's rows: evaluate on the compiled file vs the bare loop, and the one-off compile cost. */
export const bench: Bench = () => {
  const file = JSON.parse(readFileSync(FIXTURE, 'utf8')) as BucketingFile;
  const compiled = compileFile(file);
  const people = visitors();
  const at = (i: number): EngineVisitor => people[i % VISITORS] ?? { id: '', context: {}, assignments: {} };
  const matched = people.reduce((n, v) => n + evaluate(compiled, v).decision.campaigns.length, 0) / VISITORS;

  // Alternate the two, five rounds each, and keep medians: on a shared machine the load changes from one
  // second to the next, and measuring one after the other would put that change into the ratio.
  const bases: number[] = [];
  const engines: number[] = [];
  for (let round = 0; round < 5; round++) {
    bases.push(nsPerOp((i) => bareLoop(file, at(i)), { iterations: 20_000, runs: 1 }));
    engines.push(
      nsPerOp((i) => evaluate(compiled, at(i), { exposeAllKeys: true }), { iterations: 20_000, runs: 1 }),
    );
  }
  const base = median(bases);
  const engine = median(engines);
  const compile = nsPerOp(() => compileFile(file), { iterations: 300, runs: 3 });
  const ratio = engine / base;
  const rows: BenchRow[] = [
    {
      figure: 'engine: evaluate one visitor, 50 campaigns (compiled file)',
      value: engine,
      unit: 'ns/op',
      baseline: { figure: 'bare hash-and-compare loop', value: base },
      ratio: { value: ratio, goal: '≤ 2', met: ratio <= 2 },
      note: `50×2×3 file, ${VISITORS} visitors cycled, ${matched.toFixed(1)} campaigns per decision, medians of 5 alternated runs`,
    },
    {
      figure: 'engine: compileFile, 50 campaigns',
      value: compile / 1000,
      unit: 'µs/op',
      note: 'once per bucketing file',
    },
  ];
  return Promise.resolve(rows);
};

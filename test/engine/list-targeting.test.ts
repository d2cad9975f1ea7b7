// List targetings (PROTOCOL.md §7) compiled into sets, bounds and per-file string automata (issue 29): the
// same answers as testing every element, and a decision whose work follows the input's size, not the
// product of a list's length and the context value's. The reference below tests element by element, as §7
// words it; it shares no code with the engine but its SemVer parser (tested on its own vectors).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareSemVer, compileFile, evaluate, matchesRule, parseSemVer } from '../../src/engine/index.js';
import { comparableVersion, compareVersions } from '../../src/engine/semver.js';
import { StringPatterns } from '../../src/engine/string-patterns.js';
import {
  TARGETING_OPERATORS,
  type BucketingFile,
  type JsonValue,
  type Targeting,
} from '../../src/protocol/index.js';
import { seededRandom } from '../support/seeded-random.js';

const prng = seededRandom;

/** A file of one toggle campaign per rule list (campaign c<i>, group g<i>, flag f<i>), all of its traffic. */
const fileOf = (rules: readonly Targeting[][]): BucketingFile => ({
  panic: false,
  campaigns: rules.map((targetings, i) => ({
    id: `c${i}`,
    name: `c${i}`,
    type: 'toggle',
    variationGroups: [
      {
        id: `g${i}`,
        name: `g${i}`,
        targeting: { targetingGroups: [{ targetings }] },
        variations: [
          {
            id: `v${i}`,
            name: 'on',
            allocation: 100,
            modifications: { type: 'FLAG', value: { [`f${i}`]: true } },
          },
        ],
      },
    ],
  })),
  accountSettings: { enabledXPC: false, enabled1V1T: false },
});

type Scalar = string | number | boolean;

/** One element under one operator, as §7's table says (type-strict, case-sensitive). */
const holds = (operator: string, c: Scalar, t: unknown): boolean => {
  const same = typeof c === typeof t;
  const versions = (): number | undefined => {
    if (typeof c !== 'string' || typeof t !== 'string') return undefined;
    const a = parseSemVer(c);
    const b = parseSemVer(t);
    return a === undefined || b === undefined ? undefined : compareSemVer(a, b);
  };
  const d = operator.startsWith('SEMVER_') ? versions() : undefined;
  switch (operator) {
    case 'EQUALS':
      return same && c === t;
    case 'NOT_EQUALS':
      return same && c !== t;
    case 'CONTAINS':
      return typeof c === 'string' && typeof t === 'string' && c.includes(t);
    case 'NOT_CONTAINS':
      return typeof c === 'string' && typeof t === 'string' && !c.includes(t);
    case 'STARTS_WITH':
      return typeof c === 'string' && typeof t === 'string' && c.startsWith(t);
    case 'ENDS_WITH':
      return typeof c === 'string' && typeof t === 'string' && c.endsWith(t);
    case 'GREATER_THAN':
      return same && (typeof t === 'string' || typeof t === 'number') && c > t;
    case 'GREATER_THAN_OR_EQUALS':
      return same && (typeof t === 'string' || typeof t === 'number') && c >= t;
    case 'LOWER_THAN':
      return same && (typeof t === 'string' || typeof t === 'number') && c < t;
    case 'LOWER_THAN_OR_EQUALS':
      return same && (typeof t === 'string' || typeof t === 'number') && c <= t;
    case 'SEMVER_EQUALS':
      return d === 0;
    case 'SEMVER_NOT_EQUALS':
      return d !== undefined && d !== 0;
    case 'SEMVER_GREATER_THAN':
      return d !== undefined && d > 0;
    case 'SEMVER_LOWER_THAN':
      return d !== undefined && d < 0;
    case 'SEMVER_GREATER_THAN_OR_EQUALS':
      return d !== undefined && d >= 0;
    default:
      return d !== undefined && d <= 0;
  }
};

/** §7 on a list: NOT_EQUALS and NOT_CONTAINS for every element, the others for some; [] never. */
const reference = (operator: string, c: unknown, list: readonly unknown[]): boolean => {
  if (typeof c !== 'string' && typeof c !== 'number' && typeof c !== 'boolean') return false;
  if (list.length === 0) return false;
  return operator === 'NOT_EQUALS' || operator === 'NOT_CONTAINS'
    ? list.every((t) => holds(operator, c, t))
    : list.some((t) => holds(operator, c, t));
};

// Every operator but EXISTS / NOT_EXISTS, which ignore the target.
const OPERATORS = TARGETING_OPERATORS.filter((op) => op !== 'EXISTS' && op !== 'NOT_EXISTS');

// A small alphabet makes overlaps, shared prefixes and suffixes frequent; the surrogate pair and the lone
// surrogate check that strings are compared by UTF-16 code units, as `includes` does.
const PIECES = ['a', 'b', 'ab', 'ba', 'aab', 'é', '😀', '\ud83d', '.', '1', '-', ''];
const VERSIONS = [
  '1.0.0',
  '1.2',
  'v2.0.0',
  '2.0.0-rc.1',
  '2.0.0-rc.2',
  '10.1.1',
  '2.0',
  '1.0.0+build',
  'x.y',
];

const drawString = (rand: () => number, pieces: number): string => {
  let s = '';
  for (let i = 0; i < pieces; i++) s += PIECES[Math.floor(rand() * PIECES.length)] ?? '';
  return s;
};

const drawScalar = (rand: () => number, operator: string): JsonValue => {
  const r = rand();
  if (operator.startsWith('SEMVER_') && r < 0.7) return VERSIONS[Math.floor(rand() * VERSIONS.length)] ?? '';
  if (r < 0.65) return drawString(rand, Math.floor(rand() * 4));
  if (r < 0.85) return Math.floor(rand() * 7) - 3;
  if (r < 0.92) return rand() < 0.5;
  return rand() < 0.5 ? null : ['a'];
};

void describe('list targetings give what testing every element gives (§7)', () => {
  for (const operator of OPERATORS) {
    void it(`${operator}: 600 random lists and values`, () => {
      const rand = prng(operator.length * 7919 + operator.charCodeAt(0));
      const wrong: unknown[] = [];
      for (let i = 0; i < 600; i++) {
        // Lists above and below the few-targets threshold, so both scan strategies are covered.
        const length = Math.floor(rand() * (rand() < 0.5 ? 5 : 30));
        const list = Array.from({ length }, () => drawScalar(rand, operator));
        // Same-type values mostly, so that the interesting cases dominate.
        const value = rand() < 0.15 ? drawScalar(rand, 'EQUALS') : drawScalar(rand, operator);
        for (const c of [value, drawString(rand, 8)]) {
          const expected = reference(operator, c, list);
          const actual = matchesRule({ operator, key: 'k', value: list }, { k: c as Scalar }, 'visitor');
          if (actual !== expected) wrong.push({ list, c, expected });
        }
      }
      assert.deepEqual(wrong, []);
    });
  }

  void it('rules of one file on one key share a scan and still answer each for its own list', () => {
    const rand = prng(29);
    const lists = Array.from({ length: 40 }, () =>
      Array.from({ length: 1 + Math.floor(rand() * 12) }, () => drawString(rand, 1 + Math.floor(rand() * 3))),
    );
    const operators = ['CONTAINS', 'NOT_CONTAINS', 'STARTS_WITH', 'ENDS_WITH'];
    // One campaign per list, one group each, one variation setting a flag named after the campaign.
    const file = fileOf(
      lists.map((list, i) => [{ key: 'q', operator: operators[i % 4] ?? '', value: list }]),
    );
    const compiled = compileFile(file);
    const wrong: unknown[] = [];
    // Texts alternate, and repeat as new string objects, so a stale memo of the last scan would show.
    for (let round = 0; round < 200; round++) {
      const q = drawString(rand, Math.floor(rand() * 14));
      const { campaigns } = evaluate(compiled, {
        id: `v${round}`,
        assignments: {},
        context: { q: q.split('').join('') },
      }).decision;
      const got = new Set(campaigns.map((c) => c.id));
      lists.forEach((list, i) => {
        const expected = reference(operators[i % 4] ?? '', q, list);
        if (got.has(`c${i}`) !== expected) wrong.push({ q, campaign: i, list, expected });
      });
    }
    assert.deepEqual(wrong, []);
  });
});

/** Counts calls of `String.prototype[name]` while `run` runs. */
const countCalls = (name: 'includes' | 'charCodeAt', run: () => void): number => {
  const original = Object.getOwnPropertyDescriptor(String.prototype, name)?.value as (
    this: string,
    ...args: unknown[]
  ) => unknown;
  let calls = 0;
  Object.defineProperty(String.prototype, name, {
    configurable: true,
    writable: true,
    value: function (this: string, ...args: unknown[]) {
      calls++;
      return original.apply(this, args);
    },
  });
  try {
    run();
  } finally {
    Object.defineProperty(String.prototype, name, { configurable: true, writable: true, value: original });
  }
  return calls;
};

void describe('a CONTAINS list of 10 000 items on a 31 980-character value (issue 29, finding 1)', () => {
  // The reported case: items "ab0x" … "ab9999x" and a value "abab…"; tested one by one that was 10 000
  // searches of 32 000 characters each, 1.5-4 s of main thread per decision.
  const items = Array.from({ length: 10_000 }, (_, i) => `ab${i}x`);
  const file: BucketingFile = {
    panic: false,
    campaigns: [
      {
        id: 'c1',
        name: 'Heavy',
        type: 'ab',
        variationGroups: [
          {
            id: 'g1',
            name: 'g1',
            targeting: {
              targetingGroups: [{ targetings: [{ key: 'q', operator: 'CONTAINS', value: items }] }],
            },
            variations: [
              {
                id: 'v1',
                name: 'Original',
                reference: true,
                allocation: 100,
                modifications: { type: 'FLAG', value: { heavy: true } },
              },
            ],
          },
        ],
      },
    ],
    accountSettings: { enabledXPC: false, enabled1V1T: false },
  };
  const compiled = compileFile(file);
  const abab = 'ab'.repeat(15_990);

  void it('matches exactly as §7 says: not on "abab…" nor "…ab10000x", yes with an item at either end', () => {
    assert.equal(
      evaluate(compiled, { id: 'v', assignments: {}, context: { q: abab } }).decision.campaigns.length,
      0,
    );
    assert.equal(
      evaluate(compiled, { id: 'v', assignments: {}, context: { q: `${abab}ab9999x` } }).decision.campaigns
        .length,
      1,
    );
    assert.equal(
      evaluate(compiled, { id: 'v', assignments: {}, context: { q: `ab5123x${abab}` } }).decision.campaigns
        .length,
      1,
    );
    assert.equal(
      evaluate(compiled, { id: 'v', assignments: {}, context: { q: `${abab}ab10000x` } }).decision.campaigns
        .length,
      0,
    );
    assert.equal(
      evaluate(compiled, { id: 'v', assignments: {}, context: { q: `${abab}ab1x0` } }).decision.campaigns
        .length,
      1,
    );
    assert.equal(
      evaluate(compiled, { id: 'v', assignments: {}, context: { q: `${abab}abx` } }).decision.campaigns
        .length,
      0,
    );
  });

  void it('reads the value once, whatever the list length: no search per item', () => {
    const q = `${abab}-`;
    const includes = countCalls('includes', () =>
      evaluate(compiled, { id: 'w', assignments: {}, context: { q } }),
    );
    const reads = countCalls('charCodeAt', () =>
      evaluate(compiled, { id: 'x', assignments: {}, context: { q: q.split('').join('') } }),
    );
    assert.ok(includes < 10, `String.prototype.includes called ${includes} times`);
    // One pass over the value, plus the visitor's own hashing: not 10 000 × 32 000.
    assert.ok(reads <= q.length + 200, `charCodeAt called ${reads} times for a ${q.length}-character value`);
  });

  void it('the same list in a rule compiled alone gives the same answers (bucketing mode in the SDK)', () => {
    const rule = { key: 'q', operator: 'CONTAINS', value: items };
    assert.equal(matchesRule(rule, { q: abab }, 'v'), false);
    assert.equal(matchesRule(rule, { q: `${abab}ab42x` }, 'v'), true);
  });
});

void describe('SEMVER rules of one file read each value once (issue 29)', () => {
  void it('200 rules alternating between two long values parse each value once per decision', () => {
    const long = (n: number): string => `1.${n}.0-${'x'.repeat(8000)}`;
    const rules = Array.from({ length: 200 }, (_, i) => ({
      key: i % 2 === 0 ? 'a' : 'b',
      operator: i % 4 < 2 ? 'SEMVER_GREATER_THAN' : 'SEMVER_NOT_EQUALS',
      value: i % 3 === 0 ? ['0.1.0', '0.2.0'] : '0.1.0',
    }));
    const file = fileOf([rules]);
    const compiled = compileFile(file);
    const exec = Object.getOwnPropertyDescriptor(RegExp.prototype, 'exec')?.value as (
      this: RegExp,
      text: string,
    ) => RegExpExecArray | null;
    let calls = 0;
    let matched = 0;
    Object.defineProperty(RegExp.prototype, 'exec', {
      configurable: true,
      writable: true,
      value: function (this: RegExp, text: string) {
        calls++;
        return exec.call(this, text);
      },
    });
    try {
      matched = evaluate(compiled, { id: 'v', assignments: {}, context: { a: long(1), b: long(2) } }).decision
        .campaigns.length;
    } finally {
      Object.defineProperty(RegExp.prototype, 'exec', { configurable: true, writable: true, value: exec });
    }
    assert.equal(matched, 1);
    assert.ok(calls <= 4, `the values were parsed ${calls} times for 200 rules`);
  });
});

void describe('comparable versions order as SemVer 2.0 precedence (one string comparison a rule)', () => {
  void it('the key order equals compareSemVer on 4 000 random pairs and the equal pairs', () => {
    const rand = prng(2029);
    const part = (): string => (rand() < 0.3 ? '0' : String(Math.floor(rand() * (rand() < 0.2 ? 1e6 : 12))));
    const identifier = (): string => {
      const r = rand();
      if (r < 0.4) return part();
      const letters = 'aAbz-9';
      let id = '';
      for (let i = 0, n = 1 + Math.floor(rand() * 4); i < n; i++)
        id += letters[Math.floor(rand() * 6)] ?? 'a';
      return /^\d+$/.test(id) ? `x${id}` : id;
    };
    const version = (): string => {
      const pre =
        rand() < 0.6 ? `-${Array.from({ length: 1 + Math.floor(rand() * 4) }, identifier).join('.')}` : '';
      return `${part()}.${part()}.${part()}${pre}${rand() < 0.2 ? '+build.7' : ''}`;
    };
    const wrong: unknown[] = [];
    for (let i = 0; i < 4000; i++) {
      const [a, b] = [version(), rand() < 0.2 ? '' : version()];
      const x = parseSemVer(a);
      const y = parseSemVer(b === '' ? a.replace(/\+.*$/, '+other') : b);
      if (x === undefined || y === undefined) continue;
      const expected = Math.sign(compareSemVer(x, y));
      const actual = Math.sign(compareVersions(comparableVersion(x), comparableVersion(y)));
      if (actual !== expected) wrong.push({ a, b, expected, actual });
    }
    assert.deepEqual(wrong, []);
  });
});

void describe('string patterns (issue 29 review)', () => {
  void it('a rule added after a scan answers for the text it is asked about', () => {
    const patterns = new StringPatterns();
    const x = patterns.rule('q', 'inside', ['x3']);
    patterns.seal();
    assert.equal(x('hello x3'), true);
    const hello = patterns.rule('q', 'inside', ['hello']);
    assert.equal(hello('hello x3'), true);
    assert.equal(x('hello x3'), true);
  });

  void it('long single targets are searched by the automaton, not by includes (linear on any text)', () => {
    const targets = ['a'.repeat(64) + 'b' + 'a'.repeat(959), 'a'.repeat(900) + 'c', 'b'.repeat(20)];
    const rules = targets.map((value) => ({ key: 'q', operator: 'CONTAINS', value }));
    const file = fileOf(rules.map((rule) => [rule]));
    const compiled = compileFile(file);
    const q = `${'a'.repeat(8192)}${'b'.repeat(20)}`;
    let matched: string[] = [];
    const includes = countCalls('includes', () => {
      matched = evaluate(compiled, { id: 'v', assignments: {}, context: { q } }).decision.campaigns.map(
        (c) => c.id,
      );
    });
    assert.deepEqual(matched, ['c2']);
    assert.equal(includes, 0);
  });
});

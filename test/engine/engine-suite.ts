// The engine's suite, written once and run by node:test (engine.test.ts) and by mocha in Chromium
// (engine.browser.test.ts). Expected values come from test/fixtures/engine-cases.json, never from the engine.
import {
  allocationBucket,
  buildFlags,
  compareSemVer,
  compileFile,
  evaluate,
  inBucketRanges,
  matchesRule,
  murmur3,
  murmur3Prefix,
  murmur3Resume,
  parseSemVer,
  semVerComparator,
  walkVariations,
  type EngineVisitor,
  type SemVer,
} from '../../src/engine/index.js';
import type { DecisionCampaign, JsonValue } from '../../src/protocol/index.js';
import type { DecisionFile, EngineCases } from './engine-cases.js';

/** The test API both runners provide: node:test + node:assert/strict, or mocha + chai's assert. */
export interface SuiteApi {
  describe: (name: string, fn: () => void) => void;
  it: (name: string, fn: () => void) => void;
  assert: {
    equal: (actual: unknown, expected: unknown, message?: string) => void;
    deepEqual: (actual: unknown, expected: unknown, message?: string) => void;
    ok: (value: unknown, message?: string) => void;
  };
}

/** Plain JSON of a value: frozen, shared or prototype-less objects compare as what goes on the wire. */
const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

const semver = (text: string): SemVer => {
  const v = parseSemVer(text);
  if (v === undefined) throw new Error(`${text} should parse`);
  return v;
};

/** Flags in the vectors' form: `{key: {value, campaignId, variationId}}`. */
const flagView = (campaigns: DecisionCampaign[]): Record<string, unknown> =>
  Object.fromEntries(
    [...buildFlags(campaigns)].map(([key, f]) => [
      key,
      { value: f.value, campaignId: f.metadata.campaignId, variationId: f.metadata.variationId },
    ]),
  );

const decisionSuite = ({ describe, it, assert }: SuiteApi, files: DecisionFile[], label: string): void => {
  files.forEach((f, fi) => {
    describe(`${label} ${fi}: ${f.about ?? ''}`, () => {
      const compiled = compileFile(f.file);
      f.cases.forEach((c, ci) => {
        it(c.name ?? `case ${ci}: visitor ${c.visitor.id}`, () => {
          const options = c.options ?? { exposeAllKeys: true };
          for (const input of [compiled, f.file]) {
            const r = evaluate(input, c.visitor, options);
            assert.deepEqual(json(r.decision), c.decision);
            assert.deepEqual(json(r.newAssignments), c.newAssignments);
            if (c.flags !== undefined) assert.deepEqual(json(flagView(r.decision.campaigns)), c.flags);
            // Vector cases do not say (an unknown operator is reported); hand-worked cases do.
            if (c.reasons !== undefined) assert.equal(r.reasons.length > 0, c.reasons, r.reasons.join('; '));
          }
        });
      });
    });
  });
};

/** Registers every engine test; `cases` is the parsed engine-cases.json. */
export const defineEngineSuite = (t: SuiteApi, cases: EngineCases): void => {
  const { describe, it, assert } = t;

  describe('murmur3 (§8.1, §15)', () => {
    for (const c of cases.murmur3) {
      it(`${JSON.stringify(c.input)} (${c.source})`, () => {
        assert.equal(murmur3(c.input), c.hash);
        assert.equal(murmur3(c.input) % 100, c.bucket);
      });
    }
    it('a prefix resumed at every split gives the whole hash', () => {
      for (const c of cases.murmur3) {
        for (let i = 0; i <= c.input.length; i++) {
          const resumed = murmur3Resume(murmur3Prefix(c.input.slice(0, i)), c.input.slice(i));
          assert.equal(resumed, c.hash, `${JSON.stringify(c.input)} split at ${i}`);
        }
      }
    });
  });

  describe('allocation (§8.2, §8.3, §15)', () => {
    for (const c of cases.allocation) {
      it(`${c.groupId} + ${c.visitorId} → bucket ${c.bucket}, ${JSON.stringify(c.allocations)} → ${c.variation}`, () => {
        assert.equal(allocationBucket(c.groupId, c.visitorId), c.bucket);
        assert.equal(
          walkVariations(
            c.allocations.map((a) => a ?? undefined),
            c.bucket,
          ),
          c.variation,
        );
      });
    }
    it('the walk skips absent and zero allocations and stops past the sum', () => {
      for (const w of cases.walks) {
        const got = walkVariations(
          w.allocations.map((a) => a ?? undefined),
          w.bucket,
        );
        assert.equal(got, w.variation, `${JSON.stringify(w.allocations)} at ${w.bucket}`);
      }
    });
    it('bucket ranges are [from, to)', () => {
      for (const r of cases.bucketRanges) {
        assert.equal(
          inBucketRanges(r.ranges.flat(), r.bucket),
          r.in,
          `${JSON.stringify(r.ranges)} at ${r.bucket}`,
        );
      }
    });
  });

  describe('semver (§7)', () => {
    it('parses MAJOR[.MINOR[.PATCH]][-pre][+build] with an optional v', () => {
      for (const [text, core, pre] of cases.semver.parsed) {
        assert.deepEqual(json(parseSemVer(text)), { core, pre }, text);
      }
    });
    it('refuses what is not a version', () => {
      for (const text of cases.semver.invalid)
        assert.equal(parseSemVer(text), undefined, JSON.stringify(text));
    });
    it('orders by SemVer 2.0 precedence', () => {
      const list = cases.semver.ordered;
      list.forEach((a, i) => {
        list.forEach((b, j) => {
          assert.equal(Math.sign(compareSemVer(semver(a), semver(b))), Math.sign(i - j), `${a} vs ${b}`);
        });
      });
      for (const [a, b] of cases.semver.lower) {
        assert.ok(compareSemVer(semver(a), semver(b)) < 0, `${a} < ${b}`);
        assert.ok(compareSemVer(semver(b), semver(a)) > 0, `${b} > ${a}`);
      }
    });
    it('compares text to a target alike on the plain-release fast path and the full parser', () => {
      const texts = [...cases.semver.ordered, ...cases.semver.equal.flat(), ...cases.semver.lower.flat()];
      for (const target of texts) {
        const compare = semVerComparator(semver(target));
        for (const text of texts) {
          const expected = Math.sign(compareSemVer(semver(text), semver(target)));
          assert.equal(Math.sign(compare(text) ?? Number.NaN), expected, `${text} vs ${target}`);
        }
        for (const text of cases.semver.invalid) assert.equal(compare(text), undefined, JSON.stringify(text));
      }
    });
    it('ignores the build and fills missing parts with 0', () => {
      for (const [a, b] of cases.semver.equal)
        assert.equal(compareSemVer(semver(a), semver(b)), 0, `${a} = ${b}`);
    });
  });

  describe('targeting (§7)', () => {
    const byOperator = new Map<string, EngineCases['targeting']>();
    for (const c of cases.targeting) byOperator.set(c[0], [...(byOperator.get(c[0]) ?? []), c]);
    for (const [operator, list] of byOperator) {
      it(`${operator}: ${list.length} cases`, () => {
        const wrong = list.filter(([op, key, value, context, match, visitorId]) => {
          const rule = { operator: op, key, value };
          return matchesRule(rule, context, visitorId ?? 'visitor-1') !== match;
        });
        assert.deepEqual(wrong, []);
      });
    }
  });

  describe('flags (§9.1)', () => {
    const campaign = (
      id: string,
      value: Record<string, JsonValue>,
      slug: string | null = null,
    ): DecisionCampaign => ({
      id,
      name: `Campaign ${id}`,
      slug,
      type: 'ab',
      variationGroupId: `g${id}`,
      variationGroupName: `Group ${id}`,
      variation: {
        id: `v${id}`,
        name: `Variation ${id}`,
        reference: false,
        modifications: { type: 'FLAG', value },
      },
    });
    it('the last campaign wins, but a null never replaces a value', () => {
      const flags = buildFlags([
        campaign('1', { a: 1, b: null, c: 'x' }),
        campaign('2', { a: 2, b: null, c: null }),
        campaign('3', { a: null }),
      ]);
      assert.deepEqual(
        [...flags.values()].map((f) => [f.key, f.value, f.metadata.campaignId]),
        [
          ['a', 2, '2'],
          ['b', null, '2'],
          ['c', 'x', '1'],
        ],
      );
    });
    it('gives full metadata, slug "" when null', () => {
      const [a, b] = [...buildFlags([campaign('1', { a: true }), campaign('2', { b: [] }, 'two')]).values()];
      assert.deepEqual(a?.metadata, {
        campaignId: '1',
        campaignName: 'Campaign 1',
        variationGroupId: 'g1',
        variationGroupName: 'Group 1',
        variationId: 'v1',
        variationName: 'Variation 1',
        isReference: false,
        campaignType: 'ab',
        slug: '',
      });
      assert.equal(b?.metadata.slug, 'two');
    });
    it('skips a campaign without an object of values, and keeps __proto__ as a key', () => {
      const bad = campaign('1', {});
      const values = JSON.parse('{"__proto__": "p"}') as Record<string, JsonValue>;
      const flags = buildFlags([
        {
          ...bad,
          variation: {
            ...bad.variation,
            modifications: { type: 'FLAG', value: [] as unknown as Record<string, JsonValue> },
          },
        },
        campaign('2', values),
      ]);
      assert.deepEqual([...flags.keys()], ['__proto__']);
    });
  });

  describe('decisions: shared vectors (§3, §8, §9)', () => decisionSuite(t, cases.decisions, 'file'));
  describe('decisions: hand-worked (XPC, 1V1T, bucketRanges, malformed)', () =>
    decisionSuite(t, cases.own, 'own'));

  describe('evaluate is pure and total', () => {
    const first = cases.decisions[0];
    const visitor = first?.cases[0]?.visitor;
    it('does not change its inputs and gives the same answer twice', () => {
      if (first === undefined || visitor === undefined) throw new Error('the fixture has no decision case');
      const before = JSON.stringify([first.file, visitor]);
      const a = evaluate(first.file, visitor, { exposeAllKeys: true, extras: true });
      const b = evaluate(compileFile(first.file), visitor, { exposeAllKeys: true, extras: true });
      assert.equal(JSON.stringify([first.file, visitor]), before);
      assert.deepEqual(json(a), json(b));
    });
    it('hands out frozen campaign objects, so one answer cannot change the next', () => {
      if (first === undefined || visitor === undefined) throw new Error('the fixture has no decision case');
      const r = evaluate(compileFile(first.file), visitor, { exposeAllKeys: true });
      assert.ok(r.decision.campaigns.length > 0);
      for (const c of r.decision.campaigns) {
        assert.ok(Object.isFrozen(c) && Object.isFrozen(c.variation.modifications.value));
      }
    });
    it('never throws on a malformed visitor', () => {
      const file = first?.file;
      for (const v of [null, 1, 'x', {}, { id: 5 }, { id: 'v', context: null, assignments: [] }]) {
        const r = evaluate(file, v as unknown as EngineVisitor);
        assert.ok(r.reasons.length > 0, JSON.stringify(v));
      }
    });
  });
};

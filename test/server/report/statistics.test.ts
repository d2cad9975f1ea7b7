// The report's statistics (PROTOCOL.md §14.7, §14.8) against independent figures: mpmath at 50 digits
// (test/fixtures/report-statistics.py, which shares no code with the server), compared to a relative 1e-9.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ANALYSIS_DEFAULTS, type AnalysisSettings, type SampleRatio } from '../../../src/protocol/index.js';
import { holmAdjusted } from '../../../server/src/report/holm.js';
import { chiSquareSurvival, sampleRatio } from '../../../server/src/report/sample-ratio.js';
import { sequentialComparison } from '../../../server/src/report/sequential.js';
import { verdictOf, type VerdictInput } from '../../../server/src/report/verdict.js';

interface Fixture {
  sequential: Array<{
    input: [number, number, number, number, number, number];
    expected: { p_value: number; interval: [number, number] } | null;
  }>;
  chi2: Array<{ input: [number, number]; expected: number }>;
  srm: Array<{ input: [number[], number[]]; expected: SampleRatio | null }>;
  holm: Array<{ input: number[]; expected: number[] }>;
}

const fixture = JSON.parse(
  readFileSync(new URL('../../fixtures/report-statistics.json', import.meta.url), 'utf8'),
) as Fixture;

/** Equal to a relative 1e-9 (an absolute 1e-300 near zero). */
const close = (actual: number | null | undefined, expected: number, what: string): void => {
  assert.ok(actual !== null && actual !== undefined, `${what}: got ${String(actual)}, expected ${expected}`);
  const scale = Math.max(Math.abs(expected), 1e-300);
  assert.ok(Math.abs(actual - expected) / scale <= 1e-9, `${what}: ${actual} against ${expected}`);
};

void describe('always-valid figures (§14.7)', () => {
  for (const { input, expected } of fixture.sequential) {
    const [xr, nr, xv, nv, alpha, s] = input;
    void it(`${xv}/${nv} against ${xr}/${nr}, α ${alpha}, S ${s}`, () => {
      const got = sequentialComparison(
        { successes: xr, trials: nr },
        { successes: xv, trials: nv },
        alpha,
        s,
      );
      if (expected === null) {
        assert.deepEqual(got, { pValue: null, interval: null });
        return;
      }
      close(got.pValue, expected.p_value, 'p-value');
      close(got.interval?.[0], expected.interval[0], 'interval low');
      close(got.interval?.[1], expected.interval[1], 'interval high');
      // §14.7: the interval excludes 0 exactly when the p-value is below alpha.
      const excludes = (got.interval?.[0] ?? 0) > 0 || (got.interval?.[1] ?? 0) < 0;
      assert.equal(excludes, (got.pValue ?? 1) < alpha);
    });
  }

  void it('one side empty: no figures', () => {
    assert.deepEqual(
      sequentialComparison({ successes: 0, trials: 0 }, { successes: 5, trials: 50 }, 0.05, 5000),
      {
        pValue: null,
        interval: null,
      },
    );
  });
});

void describe("Holm's adjustment (§14.7)", () => {
  for (const { input, expected } of fixture.holm) {
    void it(`[${input.join(', ')}]`, () => {
      const got = holmAdjusted(input);
      expected.forEach((e, i) => close(got[i], e, `p[${i}]`));
    });
  }
  void it('nulls are left null and not counted', () => {
    assert.deepEqual(holmAdjusted([null, 0.02, null, 0.03]), [null, 0.04, null, 0.04]);
  });
});

void describe('chi-square survival (§14.8)', () => {
  for (const { input, expected } of fixture.chi2) {
    void it(`χ² = ${input[0]}, ${input[1]} degrees of freedom`, () => {
      close(chiSquareSurvival(input[0], input[1]), expected, 'p-value');
    });
  }
  void it('refuses a degree of freedom that is not a positive integer', () => {
    assert.throws(() => chiSquareSurvival(1, 0), /positive integer/);
    assert.throws(() => chiSquareSurvival(1, 1.5), /positive integer/);
  });
});

void describe('sample ratio (§14.8)', () => {
  for (const { input, expected } of fixture.srm) {
    void it(`visitors [${input[0].join(', ')}] on allocations [${input[1].join(', ')}]`, () => {
      const got = sampleRatio(input[0], input[1]);
      if (expected === null) {
        assert.equal(got, null);
        return;
      }
      assert.ok(got !== null, 'a test was expected');
      close(got.p_value, expected.p_value, 'p-value');
      assert.equal(got.mismatch, expected.mismatch);
      assert.deepEqual(got.observed, expected.observed);
      expected.expected.forEach((e, i) => close(got.expected[i], e, `expected[${i}]`));
    });
  }
});

void describe('verdicts (§14.8)', () => {
  const settings: AnalysisSettings = {
    ...ANALYSIS_DEFAULTS,
    primary_goal: { type: 'event', name: 'add_to_cart' },
  };
  const base: VerdictInput = {
    reference: false,
    primary: true,
    sampleRatioMismatch: false,
    referenceSide: { successes: 100, trials: 1000 },
    variationSide: { successes: 150, trials: 1000 },
    fixedPValue: 0.0004,
    adjustedSequentialPValue: 0.01,
    settings,
  };
  void it('the table, top to bottom', () => {
    assert.equal(verdictOf({ ...base, reference: true }), 'reference');
    assert.equal(verdictOf({ ...base, primary: false }), 'exploratory');
    assert.equal(verdictOf({ ...base, sampleRatioMismatch: true }), 'sample_ratio_mismatch');
    assert.equal(verdictOf(base), 'better');
    assert.equal(verdictOf({ ...base, variationSide: { successes: 60, trials: 1000 } }), 'worse');
    assert.equal(verdictOf({ ...base, adjustedSequentialPValue: 0.2 }), 'inconclusive');
  });
  void it('not enough data: under 100 visitors, or under 10 converting or 10 not converting, on either side', () => {
    assert.equal(verdictOf({ ...base, referenceSide: { successes: 20, trials: 99 } }), 'not_enough_data');
    assert.equal(verdictOf({ ...base, variationSide: { successes: 9, trials: 1000 } }), 'not_enough_data');
    assert.equal(verdictOf({ ...base, variationSide: { successes: 991, trials: 1000 } }), 'not_enough_data');
    assert.equal(verdictOf({ ...base, referenceSide: { successes: 0, trials: 1000 } }), 'not_enough_data');
    assert.equal(verdictOf({ ...base, referenceSide: { successes: 1000, trials: 1000 } }), 'not_enough_data');
    assert.equal(verdictOf({ ...base, variationSide: { successes: 20, trials: 100 } }), 'better');
    assert.equal(verdictOf({ ...base, variationSide: { successes: 90, trials: 100 } }), 'better');
  });
  void it('the method chooses the p-value; alpha at both bounds', () => {
    const fixed = { ...settings, method: 'fixed' as const };
    assert.equal(verdictOf({ ...base, settings: fixed, adjustedSequentialPValue: 0.9 }), 'better');
    assert.equal(verdictOf({ ...base, settings: fixed, fixedPValue: 0.06 }), 'inconclusive');
    assert.equal(verdictOf({ ...base, settings: { ...settings, alpha: 0.001 } }), 'inconclusive');
    assert.equal(
      verdictOf({ ...base, settings: { ...settings, alpha: 0.001 }, adjustedSequentialPValue: 0.0009 }),
      'better',
    );
    assert.equal(
      verdictOf({ ...base, settings: { ...settings, alpha: 0.2 }, adjustedSequentialPValue: 0.19 }),
      'better',
    );
    assert.equal(
      verdictOf({ ...base, settings: { ...settings, alpha: 0.2 }, adjustedSequentialPValue: 0.2 }),
      'inconclusive',
    );
  });
});

// Verdicts under the way the product is used: the console reads a live report every few seconds. Seeded
// simulations through compareGoal, the code the report draws its verdicts with (issue 30):
// - A/A: 2 000 tests with no true difference, each read at 200 looks. The sequential method declares a
//   winner or loser in at most α plus simulation error of them; the fixed-horizon method, read the same way,
//   in far more (so this test can fail).
// - A/B: 10 % against 11 %, read every 500 visitors up to twice the fixed-horizon sample size for 80 % power:
//   the sequential method reaches `better` in at least 80 % of runs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANALYSIS_DEFAULTS, type AnalysisSettings, type Verdict } from '../../../src/protocol/index.js';
import { compareGoal } from '../../../server/src/report/goal-comparison.js';
import { seededRandom } from '../../support/seeded-random.js';

const ALPHA = 0.05;

/** Visitors per arm for 80 % power at two-sided α 0.05 (the fixed-horizon calculation). */
const fixedHorizonPerArm = (p1: number, p2: number): number => {
  const zAlpha = 1.959963984540054;
  const zBeta = 0.8416212335729143;
  return Math.ceil(((zAlpha + zBeta) ** 2 * (p1 * (1 - p1) + p2 * (1 - p2))) / (p2 - p1) ** 2);
};

interface Run {
  /** The first look's verdict other than inconclusive / not enough data, or null. */
  decided: Verdict | null;
  /** Visitors at that look. */
  at: number;
}

/**
 * One simulated test: visitors split 50/50 at random, converting at `rates`, the report read after every
 * `lookEvery` visitors up to `total`; stops at the first `better` or `worse`.
 */
const simulate = (
  rand: () => number,
  rates: [number, number],
  total: number,
  lookEvery: number,
  settings: AnalysisSettings,
): Run => {
  const trials = [0, 0];
  const successes = [0, 0];
  for (let visitor = 1; visitor <= total; visitor++) {
    const arm = rand() < 0.5 ? 0 : 1;
    trials[arm] = (trials[arm] ?? 0) + 1;
    if (rand() < rates[arm]) successes[arm] = (successes[arm] ?? 0) + 1;
    if (visitor % lookEvery !== 0) continue;
    const sides = [0, 1].map((i) => ({ successes: successes[i] ?? 0, trials: trials[i] ?? 0 }));
    const verdict = compareGoal(sides, 0, settings, true, false)[1]?.verdict ?? null;
    if (verdict === 'better' || verdict === 'worse') return { decided: verdict, at: visitor };
  }
  return { decided: null, at: total };
};

const settingsOf = (method: AnalysisSettings['method'], expectedVisitors: number): AnalysisSettings => ({
  ...ANALYSIS_DEFAULTS,
  primary_goal: { type: 'event', name: 'add_to_cart' },
  method,
  alpha: ALPHA,
  expected_visitors: expectedVisitors,
});

void describe('verdicts under repeated looks (seeded simulations)', () => {
  void it('A/A: 2 000 tests read at 200 looks: sequential within α, fixed-horizon far above', () => {
    const runs = 2000;
    const looks = 200;
    const lookEvery = 50;
    const total = looks * lookEvery;
    let sequentialFalse = 0;
    let fixedFalse = 0;
    const rand = seededRandom(3030);
    for (let r = 0; r < runs; r++) {
      // Both methods read the same visitors: the seed of each run is drawn once.
      const seed = Math.floor(rand() * 2 ** 32);
      if (simulate(seededRandom(seed), [0.1, 0.1], total, lookEvery, settingsOf('sequential', total)).decided)
        sequentialFalse++;
      if (simulate(seededRandom(seed), [0.1, 0.1], total, lookEvery, settingsOf('fixed', total)).decided)
        fixedFalse++;
    }
    const sequentialShare = sequentialFalse / runs;
    const fixedShare = fixedFalse / runs;
    // α plus three standard errors of a share of α over 2 000 runs.
    const bound = ALPHA + 3 * Math.sqrt((ALPHA * (1 - ALPHA)) / runs);
    assert.ok(
      sequentialShare <= bound,
      `sequential: ${sequentialShare} of A/A tests declared a winner or loser (bound ${bound.toFixed(4)})`,
    );
    assert.ok(fixedShare > 0.15, `fixed-horizon read 200 times: ${fixedShare} (it should far exceed α)`);
    console.log(
      `A/A, ${runs} tests × ${looks} looks: sequential ${(100 * sequentialShare).toFixed(2)} %, fixed-horizon ${(100 * fixedShare).toFixed(2)} %`,
    );
  });

  void it('A/B 10 % → 11 %: sequential reaches better in at least 80 % of runs by twice the fixed-horizon size', () => {
    const perArm = fixedHorizonPerArm(0.1, 0.11);
    const fixedTotal = 2 * perArm;
    const runs = 500;
    const rand = seededRandom(1011);
    let better = 0;
    let betterByFixedSize = 0;
    let worse = 0;
    for (let r = 0; r < runs; r++) {
      const run = simulate(rand, [0.1, 0.11], 2 * fixedTotal, 500, settingsOf('sequential', fixedTotal));
      if (run.decided === 'better') {
        better++;
        if (run.at <= fixedTotal) betterByFixedSize++;
      }
      if (run.decided === 'worse') worse++;
    }
    assert.ok(better / runs >= 0.8, `better in ${better} of ${runs} runs`);
    assert.ok(worse / runs <= ALPHA, `worse in ${worse} of ${runs} runs`);
    console.log(
      `A/B 10 % → 11 % (${fixedTotal} visitors for 80 % power at a fixed horizon): better in ${(100 * better) / runs} % of runs by ${2 * fixedTotal} visitors, ${(100 * betterByFixedSize) / runs} % by ${fixedTotal}`,
    );
  });
});

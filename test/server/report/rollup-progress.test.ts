// The progress line of long folds (upgrade backfill, report --rebuild): how far, and the time left at the rate
// so far.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { progressLine } from '../../../server/src/report/rollups/rollup-progress.js';

void describe('progressLine', () => {
  void it('says how far and estimates the time left from the rate so far', () => {
    assert.equal(
      progressLine({ folded: 120_000, total: 1_000_000, elapsedMs: 6_000 }),
      'Report rollups: 120,000 of 1,000,000 rows folded (12 %), about 44 s left',
    );
  });
  void it('counts long estimates in minutes', () => {
    assert.equal(
      progressLine({ folded: 10_000, total: 1_000_000, elapsedMs: 10_000 }),
      'Report rollups: 10,000 of 1,000,000 rows folded (1 %), about 17 min left',
    );
  });
  void it('gives no estimate before the first fold nor at the end', () => {
    assert.equal(
      progressLine({ folded: 0, total: 50, elapsedMs: 0 }),
      'Report rollups: 0 of 50 rows folded (0 %)',
    );
    assert.equal(
      progressLine({ folded: 60, total: 50, elapsedMs: 900 }),
      'Report rollups: 50 of 50 rows folded (100 %)',
    );
    assert.equal(
      progressLine({ folded: 0, total: 0, elapsedMs: 5 }),
      'Report rollups: 0 of 0 rows folded (100 %)',
    );
  });
});

// The Bloom filter of (environment, visitor) pairs: never "no" for a pair added, whatever it grew to; few
// "maybe"s for pairs never added; pairs of other environments apart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VisitorFilter } from '../../../server/src/store/pglite/visitor-filter.js';

void describe('visitor filter', () => {
  // 300 000 pairs: past the first partition (about 110 000) and the second.
  const filter = new VisitorFilter();
  const ADDED = 300_000;
  for (let i = 0; i < ADDED; i++) filter.add(`env-${i % 3}`, `visitor-${i}`);

  void it('holds every pair added', () => {
    let missed = 0;
    for (let i = 0; i < ADDED; i++) if (!filter.mightHave(`env-${i % 3}`, `visitor-${i}`)) missed++;
    assert.equal(missed, 0);
  });

  void it('answers "maybe" for few pairs never added', () => {
    let maybe = 0;
    const PROBED = 100_000;
    for (let i = 0; i < PROBED; i++) if (filter.mightHave('env-0', `stranger-${i}`)) maybe++;
    // About 1 % per partition, three partitions.
    assert.ok(maybe < PROBED * 0.04, `${maybe} false positives in ${PROBED}`);
  });

  void it('keeps environments apart and splits environment and visitor ids', () => {
    let maybe = 0;
    // Added as (env-1, visitor-1), (env-1, visitor-4), …: never under env-0, nor with the split moved.
    for (let i = 1; i < 30_000; i += 3) {
      if (filter.mightHave('env-0', `visitor-${i}`)) maybe++;
      if (filter.mightHave('env-1v', `isitor-${i}`)) maybe++;
    }
    assert.ok(maybe < 20_000 * 0.04, `${maybe} false positives in 20000`);
  });

  void it('counts a pair once', () => {
    const small = new VisitorFilter();
    small.add('env', 'again');
    small.add('env', 'again');
    assert.equal(small.size, 1);
  });
});

// The floor under failed credential checks (server/src/http/failure-floor.ts): never answered early by the
// clock the routes read, whatever fraction of a millisecond is left when the wait starts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { noSoonerThan } from '../../../server/src/http/failure-floor.js';

void test('noSoonerThan waits until the time has passed by performance.now(), for every fraction of a millisecond', async () => {
  const early: string[] = [];
  for (let i = 0; i < 200; i++) {
    // Started a fraction of a millisecond ago, as a request that took some time before its check failed.
    const started = performance.now() - (i % 10) / 10;
    const floor = 2 + (i % 7) / 7;
    await noSoonerThan(started, floor);
    const elapsed = performance.now() - started;
    if (elapsed < floor) early.push(`${elapsed.toFixed(3)} < ${floor.toFixed(3)}`);
  }
  assert.deepEqual(early, []);
});

void test('noSoonerThan resolves at once when the time has already passed', async () => {
  let resolved = false;
  const waiting = noSoonerThan(performance.now() - 50, 10).then(() => (resolved = true));
  await Promise.resolve();
  assert.equal(resolved, true);
  await waiting;
});

import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';

import { until } from './until.js';

void describe('until', () => {
  void it('returns the first answer that is not false, null or undefined', async () => {
    const answers = [false, null, undefined, 0];
    let checks = 0;
    const found = await until(() => answers[checks++], { what: 'a count', intervalMs: 0 });
    assert.equal(found, 0);
    assert.equal(checks, 4);
  });

  void it('stops at its check bound, naming what it waited for and the last answer', async () => {
    let checks = 0;
    await assert.rejects(
      until(
        () => {
          checks++;
          return null;
        },
        { what: 'the row to appear', intervalMs: 0, maxChecks: 5 },
      ),
      /^Error: until: the row to appear: not within \d+ ms and 5 checks \(bounds 5000 ms, 5 checks\); last check answered null$/,
    );
    assert.equal(checks, 5);
  });

  void it('counts a throwing check as not yet, and reports its last error as the cause', async () => {
    let checks = 0;
    const found = await until(
      () => {
        checks++;
        if (checks < 3) throw new Error(`not ready ${checks}`);
        return 'ready';
      },
      { what: 'readiness', intervalMs: 0 },
    );
    assert.equal(found, 'ready');
    const refused = await until(
      () => {
        throw new Error('still down');
      },
      { what: 'the server', intervalMs: 0, maxChecks: 2 },
    ).catch((error: unknown) => error);
    assert.ok(refused instanceof Error);
    assert.match(refused.message, /last check threw Error: still down$/);
    assert.ok(refused.cause instanceof Error && refused.cause.message === 'still down');
  });

  void it('stops at its time bound even when the check bound is far off', async () => {
    const refused = await until(() => false, {
      what: 'never',
      timeoutMs: 30,
      intervalMs: 10,
      maxChecks: 10_000,
    }).catch((error: unknown) => error);
    assert.ok(refused instanceof Error);
    const checks = Number(/and (\d+) checks/.exec(refused.message)?.[1]);
    assert.ok(checks >= 2 && checks < 10_000, refused.message);
  });

  void it('polls on real timers when the test has faked them, so it ends at its bound instead of hanging', async () => {
    mock.timers.enable({ apis: ['setTimeout', 'setImmediate', 'Date'] });
    try {
      await assert.rejects(
        until(() => false, { what: 'a faked clock', intervalMs: 1, maxChecks: 3 }),
        /3 checks/,
      );
    } finally {
      mock.timers.reset();
    }
  });
});

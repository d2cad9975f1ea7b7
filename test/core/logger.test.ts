// The logger (PROTOCOL.md §16.4): ranks, the configured level, once per instance, a throwing log manager.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Level, Logger, type LevelName } from '../../src/core/logger.js';

const record = () => {
  const lines: string[] = [];
  return {
    lines,
    manager: { log: (_l: Level, name: LevelName, message: string) => lines.push(`${name} ${message}`) },
  };
};

void describe('Logger', () => {
  void test('the ranks of §16.4', () => {
    assert.deepEqual(Level, {
      NONE: 0,
      EMERGENCY: 1,
      ALERT: 2,
      CRITICAL: 3,
      ERROR: 4,
      WARNING: 5,
      NOTICE: 6,
      INFO: 7,
      DEBUG: 8,
      ALL: 9,
    });
  });

  void test('WARNING writes errors and warnings, not INFO; ALL writes everything; NONE nothing', () => {
    for (const [level, expected] of [
      [Level.WARNING, ['ERROR e', 'WARNING w']],
      [Level.ALL, ['ERROR e', 'WARNING w', 'INFO i', 'DEBUG d']],
      [Level.NONE, []],
      [Level.ERROR, ['ERROR e']],
    ] as Array<[Level, string[]]>) {
      const r = record();
      const logger = new Logger(level, r.manager);
      logger.error('e');
      logger.warning('w');
      logger.info('i');
      logger.debug('d');
      assert.deepEqual(r.lines, expected);
    }
  });

  void test('the default level is ALL; setLevel changes it at run time', () => {
    const r = record();
    const logger = new Logger(undefined, r.manager);
    assert.equal(logger.getLevel(), Level.ALL);
    logger.debug('a');
    logger.setLevel(Level.ERROR);
    logger.debug('b');
    assert.deepEqual(r.lines, ['DEBUG a']);
  });

  void test('a repeated warning with the same key is written once per logger', () => {
    const r = record();
    const one = new Logger(Level.ALL, r.manager);
    const two = new Logger(Level.ALL, r.manager);
    one.warning('x', 'k');
    one.warning('x', 'k');
    one.warning('y', 'other');
    two.warning('x', 'k');
    assert.deepEqual(r.lines, ['WARNING x', 'WARNING y', 'WARNING x']);
  });

  void test('a throwing log manager never breaks the caller', () => {
    const logger = new Logger(Level.ALL, {
      log: () => {
        throw new Error('boom');
      },
    });
    assert.doesNotThrow(() => logger.error('e'));
  });
});

// The server's readable log lines: one line an event with time, level, message and fields; secrets stay
// redacted; LOG_FORMAT picks JSON or readable lines, and a terminal is what decides without it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  chooseLogFormat,
  formatLogLine,
  prettyDestination,
  useColor,
} from '../../../server/src/cli/log-format.js';
import { createLogger } from '../../../server/src/logger.js';

// 2026-11-22 14:03:07.045 in the local time zone: the lines show local wall-clock time.
const TIME = new Date(2026, 10, 22, 14, 3, 7, 45).getTime();

const record = (fields: Record<string, unknown>): string =>
  JSON.stringify({ level: 30, time: TIME, pid: 42, hostname: 'box', service: 'feature-server', ...fields });

void describe('formatLogLine', () => {
  void it('writes time, level, message and the fields that are not on every line', () => {
    const line = formatLogLine(
      record({ msg: 'request', status: 404, ms: 10.704018999, envId: 'e1', note: 'two words' }),
      { color: false },
    );
    assert.equal(line, '14:03:07.045 INFO  request status=404 ms=10.7 envId=e1 note="two words"');
  });

  void it('names each pino level', () => {
    const names = [10, 20, 30, 40, 50, 60].map(
      (level) => formatLogLine(record({ level, msg: 'm' }), { color: false }).split(' ')[1],
    );
    assert.deepEqual(names, ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL']);
  });

  void it('adds an error message, and its stack below from ERROR up only', () => {
    const err = {
      type: 'Error',
      message: 'connection refused',
      stack: 'Error: connection refused\n    at a (x.js:1:2)',
    };
    assert.equal(
      formatLogLine(record({ level: 40, msg: 'retrying', err }), { color: false }),
      '14:03:07.045 WARN  retrying: connection refused',
    );
    assert.equal(
      formatLogLine(record({ level: 50, msg: 'the assignment purge failed', err }), { color: false }),
      '14:03:07.045 ERROR the assignment purge failed: connection refused\n    at a (x.js:1:2)',
    );
  });

  void it('writes nested values as JSON and leaves a line that is not JSON as it is', () => {
    assert.equal(
      formatLogLine(record({ msg: 'm', body: { a: [1, 'b'] } }), { color: false }),
      '14:03:07.045 INFO  m body={"a":[1,"b"]}',
    );
    assert.equal(formatLogLine('plain text\n', { color: false }), 'plain text');
  });

  void it('colours the level and dims the rest only when asked', () => {
    const line = formatLogLine(record({ level: 40, msg: 'm', k: 'v' }), { color: true });
    assert.equal(line, '\u001b[2m14:03:07.045\u001b[0m \u001b[33mWARN \u001b[0m m \u001b[2mk=\u001b[0mv');
  });
});

void describe('readable logs through the server logger', () => {
  void it('keeps API keys, authorization headers and access tokens redacted', () => {
    const lines: string[] = [];
    const log = createLogger('info', prettyDestination({ write: (text: string) => lines.push(text) }, false));
    log.info({ apiKey: 'fk_secret-key', headers: { authorization: 'Bearer tok-123' } }, 'call');
    log.info({ url: '/v2/e1/campaigns?access_token=tok-456&x=1' }, 'request');
    const text = lines.join('');
    assert.doesNotMatch(text, /fk_secret-key|tok-123|tok-456/);
    assert.match(text, /apiKey=\[redacted\] headers=\{"authorization":"\[redacted\]"\}/);
    assert.match(text, /url=\/v2\/e1\/campaigns\?access_token=\[redacted\]&x=1/);
    assert.equal(lines.length, 2, 'one line an event');
  });
});

void describe('chooseLogFormat and useColor', () => {
  void it('is readable wherever the logs go, and JSON only when LOG_FORMAT asks', () => {
    assert.equal(chooseLogFormat(undefined), 'pretty');
    assert.equal(chooseLogFormat(''), 'pretty');
    assert.equal(chooseLogFormat('json'), 'json');
    assert.equal(chooseLogFormat('pretty'), 'pretty');
  });

  void it('says what to set when LOG_FORMAT is unknown', () => {
    assert.throws(
      () => chooseLogFormat('text'),
      /LOG_FORMAT=text is invalid: use pretty \(the default: one readable line an event\) or json/,
    );
  });

  void it('colours on a terminal only, and never with NO_COLOR or TERM=dumb', () => {
    assert.equal(useColor(true, {}), true);
    assert.equal(useColor(false, {}), false);
    assert.equal(useColor(true, { NO_COLOR: '1' }), false);
    assert.equal(useColor(true, { TERM: 'dumb' }), false);
  });
});

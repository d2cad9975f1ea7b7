// The repeat memory of PROTOCOL.md §5.1 (what a visitor id sent, when), the `sent` field of the visitor cache
// record (§10), on their own: the 30-minute window, the bound, merging a record's marks, and records without
// or with a malformed `sent`.
import assert from 'node:assert/strict';
import { REPEAT_WINDOW_MS, RepeatMemory, readSent } from '../../../src/core/visitor/repeat-memory.js';
import { parseVisitorRecord } from '../../../src/core/visitor/visitor-record.js';
import { makeVisitorRecordText } from '../records.js';
import { nodeHarness } from '../shared/node-harness.js';

const { describe, it } = nodeHarness;

const T0 = Date.UTC(2026, 10, 28, 12);

const clockAt = (t: number) => {
  const clock = { t, now: () => clock.t };
  return clock;
};

describe('RepeatMemory', () => {
  it('a value is a repeat for 30 minutes after it was marked, for its id and kind only', () => {
    const clock = clockAt(T0);
    const memory = new RepeatMemory(clock.now);
    assert.equal(memory.repeats('v1', 'consent', true), false, 'nothing sent yet');
    memory.mark('v1', 'consent', true);
    assert.equal(memory.repeats('v1', 'consent', true), true);
    assert.equal(memory.repeats('v1', 'consent', false), false, 'another value');
    assert.equal(memory.repeats('v2', 'consent', true), false, 'another id');
    assert.equal(memory.repeats('v1', 'context', 'd1'), false, 'another kind');
    clock.t = T0 + REPEAT_WINDOW_MS - 1;
    assert.equal(memory.repeats('v1', 'consent', true), true);
    clock.t = T0 + REPEAT_WINDOW_MS;
    assert.equal(memory.repeats('v1', 'consent', true), false, 'after 30 minutes');
    assert.deepEqual(memory.sent('v1'), { consent: [true, T0] });
  });

  it('an entry is replaced, never changed in place (records hold it as handed over)', () => {
    const memory = new RepeatMemory(clockAt(T0).now);
    memory.mark('v1', 'consent', true);
    const before = memory.sent('v1');
    memory.mark('v1', 'context', 'd1');
    assert.deepEqual(before, { consent: [true, T0] });
    assert.deepEqual(memory.sent('v1'), { consent: [true, T0], context: ['d1', T0] });
  });

  it('forgets one kind of an id, keeping the other', () => {
    const memory = new RepeatMemory(clockAt(T0).now);
    memory.forget('v1', 'context');
    assert.equal(memory.sent('v1'), undefined);
    memory.mark('v1', 'consent', true);
    memory.mark('v1', 'context', 'd1');
    memory.forget('v1', 'context');
    assert.deepEqual(memory.sent('v1'), { consent: [true, T0] });
    assert.equal(memory.repeats('v1', 'context', 'd1'), false);
  });

  it('keeps at most its bound of ids, dropping the oldest', () => {
    const memory = new RepeatMemory(clockAt(T0).now, 10);
    for (let i = 0; i < 25; i++) memory.mark(`v${i}`, 'consent', true);
    const kept = Array.from({ length: 25 }, (_, i) => `v${i}`).filter((id) => memory.sent(id) !== undefined);
    assert.ok(kept.length <= 10, `${kept.length} ids kept`);
    assert.ok(kept.includes('v24'), 'the newest is kept');
    assert.equal(memory.sent('v0'), undefined, 'the oldest is dropped');
  });

  it('learns the newer of each mark from a record', () => {
    const clock = clockAt(T0);
    const memory = new RepeatMemory(clock.now);
    memory.mark('v1', 'consent', false);
    memory.learn('v1', { consent: [true, T0 - 1000], context: ['d1', T0 - 1000] });
    assert.deepEqual(memory.sent('v1'), { consent: [false, T0], context: ['d1', T0 - 1000] });
    memory.learn('v1', { consent: [true, T0 + 5] });
    assert.equal(memory.repeats('v1', 'consent', true), true);
    memory.learn('v1', undefined);
    assert.deepEqual(memory.sent('v1'), { consent: [true, T0 + 5], context: ['d1', T0 - 1000] });
  });
});

describe('the `sent` field of a visitor cache record (PROTOCOL.md §10)', () => {
  const withSentField = (sent: unknown): string => {
    const record = JSON.parse(makeVisitorRecordText('v1', [])) as { data: Record<string, unknown> };
    record.data.sent = sent;
    return JSON.stringify(record);
  };

  it('a record without it stays valid and reads as nothing sent', () => {
    const data = parseVisitorRecord(makeVisitorRecordText('v1', []), 'v1');
    assert.notEqual(data, null);
    assert.equal(data !== null && 'sent' in data, false);
  });

  it('well-formed marks are read; malformed ones are dropped, and never make the record unusable', () => {
    const sent = { consent: [true, T0], context: ['abc.1', T0] };
    assert.deepEqual(parseVisitorRecord(withSentField(sent), 'v1')?.sent, sent);
    assert.deepEqual(
      parseVisitorRecord(withSentField({ consent: ['yes', T0], context: ['d', T0] }), 'v1')?.sent,
      {
        context: ['d', T0],
      },
    );
    assert.equal(parseVisitorRecord(withSentField('x'), 'v1')?.sent, undefined);
    assert.equal(readSent({ consent: [true], context: [1, 2] }), undefined);
    assert.equal(readSent({ consent: [true, Number.NaN] }), undefined);
  });
});

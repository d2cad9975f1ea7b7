// The repeat memory of PROTOCOL.md §5.1 (what a visitor id sent, when), the `sent` field of the visitor cache
// record (§10), on their own: the 30-minute window, the bound, merging a record's marks, and records without
// or with a malformed `sent`.
import assert from 'node:assert/strict';
import { contextDigest, sentContext } from '../../../src/core/decision/context-digest.js';
import type { SentContext } from '../../../src/core/decision/sent-context.js';
import {
  REPEAT_WINDOW_MS,
  RepeatMemory,
  readSent,
  storedSent,
} from '../../../src/core/visitor/repeat-memory.js';
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
    assert.equal(memory.repeatsConsent('v1', true), false, 'nothing sent yet');
    memory.mark('v1', 'consent', true);
    assert.equal(memory.repeatsConsent('v1', true), true);
    assert.equal(memory.repeatsConsent('v1', false), false, 'another value');
    assert.equal(memory.repeatsConsent('v2', true), false, 'another id');
    assert.equal(memory.repeatsContext('v1', sentContext({ plan: 'gold' })), false, 'another kind');
    clock.t = T0 + REPEAT_WINDOW_MS - 1;
    assert.equal(memory.repeatsConsent('v1', true), true);
    clock.t = T0 + REPEAT_WINDOW_MS;
    assert.equal(memory.repeatsConsent('v1', true), false, 'after 30 minutes');
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
    assert.equal(memory.repeatsContext('v1', { context: {}, digest: 'd1' }), false);
  });

  it('keeps at most its bound of ids, dropping the oldest', () => {
    const memory = new RepeatMemory(clockAt(T0).now, 10);
    for (let i = 0; i < 25; i++) memory.mark(`v${i}`, 'consent', true);
    const kept = Array.from({ length: 25 }, (_, i) => `v${i}`).filter((id) => memory.sent(id) !== undefined);
    assert.ok(kept.length <= 10, `${kept.length} ids kept`);
    assert.ok(kept.includes('v24'), 'the newest is kept');
    assert.equal(memory.sent('v0'), undefined, 'the oldest is dropped');
  });

  it('a context sent by this process repeats for an equal context, compared key by key, never hashed', () => {
    const clock = clockAt(T0);
    const memory = new RepeatMemory(clock.now);
    // A mark whose digest must not be read: comparing two contexts of this process needs no hash.
    const unhashed = (context: Record<string, string | number | boolean>): SentContext => ({
      context,
      get digest(): string {
        throw new Error('the digest was computed');
      },
    });
    memory.mark('v1', 'context', unhashed({ plan: 'gold', age: 31 }));
    assert.equal(
      memory.repeatsContext('v1', unhashed({ age: 31, plan: 'gold' })),
      true,
      'same keys and values',
    );
    assert.equal(
      memory.repeatsContext('v1', unhashed({ plan: 'gold', age: '31' })),
      false,
      'a value of another type',
    );
    assert.equal(memory.repeatsContext('v1', unhashed({ plan: 'gold' })), false, 'a key fewer');
    assert.equal(memory.repeatsContext('v2', unhashed({ plan: 'gold', age: 31 })), false, 'another id');
    clock.t = T0 + REPEAT_WINDOW_MS;
    assert.equal(memory.repeatsContext('v1', unhashed({ plan: 'gold', age: 31 })), false, 'after 30 minutes');
  });

  it("a stored record's digest repeats for a context with that digest, which is then computed", () => {
    const memory = new RepeatMemory(clockAt(T0).now);
    memory.learn('v1', { context: [contextDigest({ plan: 'gold' }), T0 - 1000] });
    assert.equal(memory.repeatsContext('v1', sentContext({ plan: 'gold' })), true);
    assert.equal(memory.repeatsContext('v1', sentContext({ plan: 'silver' })), false);
  });

  it('a record written as JSON text holds a sent context as its digest', () => {
    const sent = sentContext({ plan: 'gold' });
    assert.deepEqual(storedSent({ consent: [true, T0], context: [sent, T0] }), {
      consent: [true, T0],
      context: [contextDigest({ plan: 'gold' }), T0],
    });
    const stored = { consent: [true, T0], context: ['d1', T0] } as const;
    assert.equal(storedSent(stored), stored, 'a stored digest as it is');
    assert.equal(storedSent(undefined), undefined);
  });

  it('learns the newer of each mark from a record', () => {
    const clock = clockAt(T0);
    const memory = new RepeatMemory(clock.now);
    memory.mark('v1', 'consent', false);
    memory.learn('v1', { consent: [true, T0 - 1000], context: ['d1', T0 - 1000] });
    assert.deepEqual(memory.sent('v1'), { consent: [false, T0], context: ['d1', T0 - 1000] });
    memory.learn('v1', { consent: [true, T0 + 5] });
    assert.equal(memory.repeatsConsent('v1', true), true);
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

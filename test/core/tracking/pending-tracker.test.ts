// PendingTracker (src/core/tracking/pending-tracker.ts): the tracker usable from the moment `start` begins
// loading the after-first-render chunk, calls kept in order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PendingTracker } from '../../../src/core/tracking/pending-tracker.js';
import type { TrackedVisitor, Tracker } from '../../../src/core/tracking/tracker.js';

const visitor: TrackedVisitor = { visitorId: 'v1', anonymousId: null, authenticated: false };

/** A tracker that records the ids of the hits it is given (in their `ea` field). */
const recording = (calls: string[]): Tracker => {
  const done = (): Promise<void> => Promise.resolve();
  return {
    addHit(_visitor, hit) {
      calls.push(JSON.stringify(hit.content.ea));
      return done();
    },
    sendHit: done,
    addActivation: done,
    expose: done,
    dropVisitor(visitorId) {
      calls.push(`drop ${visitorId}`);
      return done();
    },
    flush: done,
    close: done,
  };
};

const hit = (id: string) => ({ type: 'EVENT' as const, content: { ea: id } });

void test('calls made while the chunk loads run once it is in, in call order', async () => {
  const calls: string[] = [];
  let resolve: (t: Tracker) => void = () => undefined;
  const tracker = new PendingTracker(new Promise<Tracker>((r) => (resolve = r)));
  const first = tracker.addHit(visitor, hit('a'));
  const second = tracker.dropVisitor('v1');
  assert.deepEqual(calls, [], 'nothing runs before the chunk is in');
  resolve(recording(calls));
  // Made after the chunk resolved but before its callbacks ran: still after a and the drop.
  const third = tracker.addHit(visitor, hit('c'));
  await Promise.all([first, second, third]);
  assert.deepEqual(calls, ['"a"', 'drop v1', '"c"']);
});

void test('once the chunk is in, a call reaches it at once, without waiting for the microtask queue', async () => {
  const calls: string[] = [];
  const tracker = new PendingTracker(Promise.resolve(recording(calls)));
  await tracker.addHit(visitor, hit('early'));
  const now = tracker.addHit(visitor, hit('now'));
  assert.deepEqual(calls, ['"early"', '"now"'], 'the call ran synchronously');
  await now;
});

void test('a chunk that fails to load rejects every call', async () => {
  const tracker = new PendingTracker(Promise.reject<Tracker>(new Error('chunk failed')));
  await assert.rejects(tracker.addHit(visitor, hit('a')), /chunk failed/);
  await new Promise(setImmediate);
  await assert.rejects(tracker.flush(), /chunk failed/);
});

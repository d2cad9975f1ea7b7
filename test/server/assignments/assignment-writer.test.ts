// The write-behind's one-second promise (PROTOCOL.md §3) watched: a batch committed later than a second after
// its oldest decision is logged, at most once a minute; batches on time log nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Logger } from 'pino';
import { AssignmentWriter } from '../../../server/src/assignments/assignment-writer.js';
import type { VisitorAssignments } from '../../../server/src/store/assignment-store.js';
import type { Store } from '../../../server/src/store/store.js';

/** A store whose commits take `commitMs` of the fake clock, and a logger that keeps its warnings. */
const setup = () => {
  const clock = { now: 1_000_000, commitMs: 0 };
  const saved: VisitorAssignments[][] = [];
  const store = {
    saveAssignments: (_envId: string, visitors: VisitorAssignments[]) => {
      clock.now += clock.commitMs;
      saved.push(visitors);
      return Promise.resolve();
    },
  } as unknown as Store;
  const warnings: Array<{ lagMs: number; message: string }> = [];
  const log = {
    warn: (fields: { lagMs: number }, message: string) => warnings.push({ lagMs: fields.lagMs, message }),
    error: () => undefined,
  } as unknown as Logger;
  const writer = new AssignmentWriter(store, log, () => clock.now);
  return { clock, saved, warnings, writer };
};

void describe('AssignmentWriter: commits later than one second', () => {
  void it('logs nothing when batches commit within a second of their oldest decision', async () => {
    const { clock, saved, warnings, writer } = setup();
    clock.commitMs = 400;
    writer.enqueue('env1', 'v1', { vg1: 'a' }, clock.now);
    clock.now += 500;
    writer.enqueue('env1', 'v2', { vg1: 'b' }, clock.now);
    await writer.flush(); // 500 ms queued + 400 ms committing: 900 ms
    assert.equal(saved.length, 1);
    assert.deepEqual(warnings, []);
  });

  void it('warns with the lag when a batch commits late, then at most once a minute', async () => {
    const { clock, warnings, writer } = setup();
    clock.commitMs = 1_200;
    writer.enqueue('env1', 'v1', { vg1: 'a' }, clock.now);
    await writer.flush();
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]?.lagMs, 1_200);
    assert.match(warnings[0].message, /committed 1200 ms after their decisions .*allows 1000 ms/);
    // Late again within the minute: nothing more.
    writer.enqueue('env1', 'v2', { vg1: 'a' }, clock.now);
    await writer.flush();
    assert.equal(warnings.length, 1);
    // A minute later, late again: one more.
    clock.now += 60_000;
    writer.enqueue('env1', 'v3', { vg1: 'a' }, clock.now);
    await writer.flush();
    assert.equal(warnings.length, 2);
  });

  void it('measures from the oldest decision of the batch, not the newest', async () => {
    const { clock, warnings, writer } = setup();
    clock.commitMs = 100;
    writer.enqueue('env1', 'v1', { vg1: 'a' }, clock.now);
    clock.now += 950; // the store was busy: the batch waited
    writer.enqueue('env2', 'v2', { vg1: 'b' }, clock.now);
    await writer.flush(); // 950 + 100 + 100 (two environments) ms after v1's decision
    assert.equal(warnings[0]?.lagMs, 1_150);
  });
});

// <undo-notice>: a notice with Undo that expires after its time, on a clock the test holds (no waiting): the time
// stops while the focus is in the notice or the pointer over it, and starts afresh when they leave.
import { assert, expect, fixture, oneEvent } from '@open-wc/testing';
import { html } from 'lit';
import '../../../server/console/src/widgets/undo-notice.js';
import type { Schedule, UndoNotice } from '../../../server/console/src/widgets/undo-notice.js';
import { UNDO_MS } from '../../../server/console/src/widgets/undo-notice.js';
import { inShadow, must } from '../console-fixture.js';

/** A clock of armed timers the test fires itself. */
class ManualClock {
  readonly armed: Array<{ run: () => void; ms: number; cancelled: boolean }> = [];
  readonly schedule: Schedule = (run, ms) => {
    const timer = { run, ms, cancelled: false };
    this.armed.push(timer);
    return () => {
      timer.cancelled = true;
    };
  };
  /** The timers still armed. */
  get pending() {
    return this.armed.filter((t) => !t.cancelled);
  }
  /** Lets the time of the armed timers pass. */
  elapse(): void {
    for (const timer of this.pending.splice(0)) {
      timer.cancelled = true;
      timer.run();
    }
  }
}

const noticeOf = (clock: ManualClock, undoLabel = 'Undo: make Buy button active again') =>
  fixture<UndoNotice>(
    html`<undo-notice
      .schedule=${clock.schedule}
      .message=${'Paused — left out of decisions until made active again.'}
      .undoLabel=${undoLabel}
    ></undo-notice>`,
  );

describe('<undo-notice>', () => {
  it('offers Undo for its time, then expires', async () => {
    const clock = new ManualClock();
    const el = await noticeOf(clock);
    await expect(el).to.be.accessible();
    assert.deepEqual(
      clock.pending.map((t) => t.ms),
      [UNDO_MS],
    );
    assert.strictEqual(UNDO_MS, 8000, 'a few seconds: 8');
    const undone = oneEvent(el, 'undo');
    inShadow<HTMLButtonElement>(el, 'button').click();
    await undone;
    const expired = oneEvent(el, 'notice-expired');
    clock.elapse();
    await expired;
  });

  it('stops its time while the focus is in it or the pointer over it', async () => {
    const clock = new ManualClock();
    const el = await noticeOf(clock);
    let expiries = 0;
    el.addEventListener('notice-expired', () => (expiries += 1));
    inShadow<HTMLButtonElement>(el, 'button').focus();
    assert.lengthOf(clock.pending, 0, 'no timer while the focus is on Undo');
    el.dispatchEvent(new MouseEvent('mouseenter'));
    inShadow<HTMLButtonElement>(el, 'button').blur();
    assert.lengthOf(clock.pending, 0, 'none while the pointer is over it');
    el.dispatchEvent(new MouseEvent('mouseleave'));
    assert.deepEqual(
      clock.pending.map((t) => t.ms),
      [UNDO_MS],
      'its full time again once left',
    );
    clock.elapse();
    assert.strictEqual(expiries, 1);
  });

  it('shows no button when there is nothing to undo, and a new message restarts the time', async () => {
    const clock = new ManualClock();
    const el = await noticeOf(clock, '');
    assert.isNull(el.shadowRoot?.querySelector('button') ?? null);
    const first = must(clock.pending[0]);
    el.message = 'Undone. Active — visitors get it at their next decision.';
    await el.updateComplete;
    assert.isTrue(first.cancelled, 'the old time is dropped');
    assert.lengthOf(clock.pending, 1);
    await expect(el).to.be.accessible();
  });
});

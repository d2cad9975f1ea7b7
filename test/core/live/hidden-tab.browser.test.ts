// A hidden tab closes its live-update stream after 20 s and reopens it, with a re-fetch, when shown again
// (PROTOCOL.md §17), in Chromium: the page's own visibility adapter (platform/browser-page.ts) and the fetch
// stream, against the protocol double. The page's visibility is set by overriding `document.visibilityState`
// and firing `visibilitychange`, as the browser does; the 20 s pass on fake timers.
import { assert } from '@open-wc/testing';
import { startLiveUpdates } from '../../../src/core/live/live-updates.js';
import { HIDDEN_CLOSE_MS } from '../../../src/core/live/live-stream.js';
import { Level, Logger } from '../../../src/core/logger.js';
import type { PollTimers } from '../../../src/core/decision/poller.js';
import { pageVisibility } from '../../../src/core/platform/browser-page.js';
import { Mode } from '../../../src/core/status.js';
import { until } from '../../support/until.js';
import { browserHarness } from '../shared/browser-harness.js';

/** Timers that run only when the test moves the clock. */
const fakeTimers = () => {
  let now = 0;
  let next = 0;
  const due = new Map<number, { at: number; run: () => void }>();
  const timers: PollTimers = {
    setTimeout: (run, ms) => {
      due.set(++next, { at: now + ms, run });
      return next;
    },
    clearTimeout: (handle) => due.delete(handle as number),
  };
  const tick = (ms: number): void => {
    now += ms;
    for (const [id, t] of [...due])
      if (t.at <= now) {
        due.delete(id);
        t.run();
      }
  };
  return { timers, tick, pending: () => [...due.values()].map((t) => t.at - now) };
};

/** Sets what `document.visibilityState` says and fires the event, as a tab switch does. */
const setHidden = (hidden: boolean): void => {
  Object.defineProperty(document, 'visibilityState', {
    configurable: true,
    get: () => (hidden ? 'hidden' : 'visible'),
  });
  document.dispatchEvent(new Event('visibilitychange'));
};

describe('hidden tab (PROTOCOL.md §17, Chromium)', () => {
  afterEach(() => {
    // Back to the document's own getter.
    delete (document as { visibilityState?: unknown }).visibilityState;
  });

  it('closes the stream 20 s after the tab is hidden, and reopens it with a re-fetch when shown', async function () {
    // The waits below allow 5 + 5 + 20 s on a loaded machine: mocha's 10 s would cut them short.
    this.timeout(40_000);
    const double = await browserHarness.startDouble();
    const clock = fakeTimers();
    let refreshes = 0;
    const said: string[] = [];
    const live = startLiveUpdates({
      options: {
        serverUrl: double.url,
        envId: double.envId,
        mode: Mode.DECISION_API,
        bucketingPollingIntervals: 60,
      },
      // What the stream did, shown when the test fails.
      logger: new Logger(Level.DEBUG, { log: (_level, name, message) => said.push(`${name}: ${message}`) }),
      refresh: () => {
        refreshes++;
        return Promise.resolve();
      },
      visibility: pageVisibility,
      timers: clock.timers,
      random: () => 0.5,
    });
    try {
      await until(async () => (await double.streams.open()) === 1, { what: 'the stream to open' });
      setHidden(true);
      assert.deepEqual(clock.pending(), [HIDDEN_CLOSE_MS]);
      clock.tick(HIDDEN_CLOSE_MS);
      await until(async () => (await double.streams.open()) === 0, { what: 'the stream to close' });
      assert.equal(refreshes, 0);
      setHidden(false);
      // A reconnect on a loaded machine (the whole suite in two cores) can take longer than until's default 5 s.
      // Its first attempt may also fail (a kept-alive socket the double closed meanwhile): the retry then waits
      // on these fake timers, so the clock moves on while the test waits, as real time would.
      try {
        await until(
          async () => {
            clock.tick(1_000);
            return (await double.streams.open()) === 1 && refreshes === 1;
          },
          { what: 'the stream reopened, and the re-fetch', timeoutMs: 20_000 },
        );
      } catch (error) {
        throw new Error(`${String(error)}\nThe stream said:\n${said.join('\n')}`);
      }
      assert.isAtLeast(await double.streams.opened(), 2);
    } finally {
      live.close();
      await double.stop();
    }
  });
});

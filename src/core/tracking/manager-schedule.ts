import { backoffDelay } from './batches.js';
import type { TrackerDeps } from './tracker.js';

/**
 * When the tracker sends (PROTOCOL.md §5.3): passes one after another, every `batchIntervals` or when asked,
 * and never before the wait a failed send set (its `Retry-After`, else the backoff). See {@link createSchedule}.
 */
export interface SendSchedule {
  /**
   * Runs a pass after the one running, if any; calls made while one waits share it, so a burst costs one
   * pass. A pass that starts before the wait is over sends nothing and leaves the retry timer to run one when
   * it is. Resolves when the pass has settled; never rejects (a failed pass is logged).
   */
  run(): Promise<void>;
  /** Whether the wait is over, so a request may go now. */
  due(): boolean;
  /** A request met 429, 5xx, a timeout or a network error: waits `retryAfterMs`, else the next backoff delay. */
  failed(retryAfterMs: number | null): number;
  /** A request was answered (acknowledged or refused for good): the backoff starts over. */
  answered(): void;
  /** Stops the interval and the retry timer for good; `run()` still runs a pass when called. */
  stop(): void;
  /** True while `close()` runs its last pass: a failure then is not followed by another attempt. */
  final: boolean;
  /**
   * Resolves once the wait is over, or at once when it is over already or would last more than `limitMs`:
   * `close()` waits out a short `Retry-After` rather than leave the items to a cache the process may not keep.
   */
  waitOut(limitMs: number): Promise<void>;
}

/** What {@link createSchedule} needs. */
export interface ScheduleOptions {
  /** Sends what may be sent now (the pool, request after request). */
  pass: () => Promise<void>;
  /** Runs before each interval's pass (the periodic strategy's copy of the pool to the cache). */
  beforeInterval: () => Promise<void>;
  intervalMs: number;
  clock: () => number;
  // Typed through TrackerDeps: the files split from manager.ts import nothing of src/core outside tracking/,
  // so a move there touches the files that imported it before the split, not these.
  logger: TrackerDeps['logger'];
  /** The first backoff delay (PROTOCOL.md §5.3: 1 s). */
  retryBaseMs: number | undefined;
}

/**
 * Creates the tracker's schedule. One rule holds for every pass, whatever started it (the interval, a full
 * pool, the retry timer, `flush()`, `close()`): nothing is sent before `retryAt`. The retry timer is only a
 * wake-up call: a pass it starts checks the clock like any other, and when the timer fired early (a timer
 * may fire a millisecond before the clock says so) or the wait was lengthened meanwhile (a pass that started
 * as the previous wait ended met a 429 while the old timer fired), it is set again for what is left.
 */
/** The longest delay a timer takes (2^31 − 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

export const createSchedule = (options: ScheduleOptions): SendSchedule => {
  const { pass, clock, logger } = options;
  let failures = 0;
  let retryAt = 0;
  // When the wait was set: a clock stepped back before it (a system clock corrected) ends the wait, which
  // would otherwise last as long as the step.
  let waitFrom = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let chain: Promise<void> = Promise.resolve();
  let pending: Promise<void> | null = null;

  const due = (): boolean => {
    const now = clock();
    return now >= retryAt || now < waitFrom;
  };
  const wake = (): void => {
    clearTimeout(retryTimer);
    // Timers take at most 2^31 − 1 ms; past it they fire at once (then a pass finds the wait on and sets them
    // again). The wait itself is bounded by parseRetryAfter; this bounds one timer.
    const delay = Math.min(Math.max(1, retryAt - clock()), MAX_TIMER_MS);
    retryTimer = stopped ? undefined : setTimeout(() => void run(), delay);
  };
  const run = (): Promise<void> =>
    (pending ??= chain =
      chain.then(async () => {
        pending = null;
        if (!due()) return wake();
        await pass().catch((error: unknown) => logger.error(`Tracking: batch failed: ${String(error)}`));
      }));

  const interval = setInterval(() => {
    void options.beforeInterval().then(run);
  }, options.intervalMs);
  // A background timer must not keep a Node process alive: `close()` is the way to flush before exit.
  (interval as { unref?: () => void }).unref?.();

  return {
    run,
    due,
    final: false,
    failed(retryAfterMs) {
      const delay = retryAfterMs ?? backoffDelay(failures++, Math.random(), options.retryBaseMs);
      waitFrom = clock();
      retryAt = waitFrom + delay;
      wake();
      return delay;
    },
    answered() {
      failures = 0;
    },
    stop() {
      stopped = true;
      clearInterval(interval);
      clearTimeout(retryTimer);
    },
    waitOut(limitMs) {
      // After the pass running now, whose answer may set a new wait (a 429 met while `close()` was called); and
      // again while a timer fired before the clock reached `retryAt` (timers may fire a little early).
      return chain.then(async () => {
        while (!due()) {
          const left = retryAt - clock();
          if (left > limitMs) return;
          await new Promise((resolve) => setTimeout(resolve, left + 1));
        }
      });
    },
  };
};

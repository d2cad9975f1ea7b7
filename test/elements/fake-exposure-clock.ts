// A fake clock for the exposure delay (src/elements/visibility.ts): a test sees which delays are armed and
// advances time itself, so "not reported before the delay" is a fact about the timer, not a guess about how
// long a sleep on a loaded machine lasted.
import { useExposureClock, type ExposureClock } from '../../src/elements/visibility.js';

interface Timer {
  at: number;
  ms: number;
  callback: () => void;
}

/** Fake timers for the exposure delays of every flag, installed until `uninstall`. */
export class FakeExposureClock implements ExposureClock {
  #now = 0;
  #next = 1;
  readonly #timers = new Map<number, Timer>();
  #waiters: Array<() => void> = [];

  /** Runs the page's exposure delays on this clock. */
  install(): this {
    useExposureClock(this);
    return this;
  }

  /** Gives the page its own timers back. */
  uninstall(): void {
    useExposureClock(null);
  }

  setTimeout(callback: () => void, ms: number): number {
    const id = this.#next++;
    this.#timers.set(id, { at: this.#now + ms, ms, callback });
    for (const wake of this.#waiters.splice(0)) wake();
    return id;
  }

  clearTimeout(timer: unknown): void {
    this.#timers.delete(timer as number);
  }

  /** The delays armed now, in arming order. */
  get armed(): number[] {
    return [...this.#timers.values()].map((t) => t.ms);
  }

  /** Resolves once a delay is armed (at once when one is). */
  whenArmed(): Promise<void> {
    if (this.#timers.size > 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Advances the clock by `ms`, running the timers due by then in time order. */
  tick(ms: number): void {
    this.#now += ms;
    const due = [...this.#timers.entries()]
      .filter(([, t]) => t.at <= this.#now)
      .sort(([, a], [, b]) => a.at - b.at);
    for (const [id, t] of due) {
      this.#timers.delete(id);
      t.callback();
    }
  }
}

/**
 * Resolves after the browser delivered an intersection of `element` to an observer made now, and the task that
 * delivered it ended: the browser computes every observer's intersections in one rendering step and notifies
 * them all in one task, so a flag's own observer, made earlier, has reported by then whether it is in view.
 */
export const intersectionsDelivered = (element: Element): Promise<void> =>
  new Promise((resolve) => {
    const observer = new IntersectionObserver(() => {
      observer.disconnect();
      // The next task, not a wait for time: the other observers of the step are notified in this one.
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
    observer.observe(element);
  });

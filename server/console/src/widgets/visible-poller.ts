// What the screens that re-read the server on a timer (live traffic, report) share: polling only while the tab is
// visible (a hidden tab would load the server for nobody), catching up at once when it becomes visible again,
// stopping when the screen leaves, and dropping answers that arrive for a screen no longer shown.
import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Whether the result of a poll still belongs to the screen shown. */
export type CurrentCheck = () => boolean;

/**
 * Calls `poll` every `periodMs` while the host is connected and the tab visible, and at once when the tab becomes
 * visible again; runs one poll at a time and tells each whether its answer is still wanted.
 */
export class VisiblePoller implements ReactiveController {
  readonly #periodMs: number;
  readonly #poll: () => void;
  #generation = 0;
  #busy = false;
  #timer: ReturnType<typeof setInterval> | undefined;
  readonly #onVisibility = () => {
    if (document.visibilityState === 'visible') this.#poll();
  };

  constructor(host: ReactiveControllerHost, periodMs: number, poll: () => void) {
    this.#periodMs = periodMs;
    this.#poll = poll;
    host.addController(this);
  }

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.#onVisibility);
    this.#timer = setInterval(() => {
      if (document.visibilityState === 'visible') this.#poll();
    }, this.#periodMs);
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.#onVisibility);
    clearInterval(this.#timer);
    this.#timer = undefined;
    // Answers still on their way belong to a screen no longer shown; a reconnected host polls afresh.
    this.reset();
  }

  /**
   * Starts over (another environment, campaign or filter): answers of earlier polls are dropped, and the next poll
   * runs even while one of them is still on its way.
   */
  reset(): void {
    this.#generation += 1;
    this.#busy = false;
  }

  /**
   * Runs `task` unless a poll is already running (since the last `reset`). `current` says whether its answer
   * still belongs to the screen shown.
   */
  async run(task: (current: CurrentCheck) => Promise<void>): Promise<void> {
    if (this.#busy) return;
    const generation = this.#generation;
    const current: CurrentCheck = () => generation === this.#generation;
    this.#busy = true;
    try {
      await task(current);
    } finally {
      if (current()) this.#busy = false;
    }
  }
}

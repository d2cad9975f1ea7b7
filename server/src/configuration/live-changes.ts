// Fan-out of configuration changes to the open live-update streams (PROTOCOL.md §17). The environment cache
// already hears of every change, from this instance or another on the same database (LISTEN/NOTIFY, the
// periodic check, a resumed subscription): for an environment someone listens to, the hub loads the new state
// at once and hands it to each listener. Deliveries may repeat or come out of order (a change made through this
// instance is heard twice, from its own request and from its notification; two loads may race), so a listener
// keeps the revision it last sent and drops anything not newer.
import type { Logger } from 'pino';
import type { EnvironmentCache } from './environment-cache.js';
import type { EnvironmentState } from './environment-state.js';

/** Hears the state of an environment after a change (possibly one already heard: compare revisions). */
export type StateListener = (state: EnvironmentState) => void;

/** How long after a failed load of a listened-to environment it is loaded again, by default. */
export const DEFAULT_RETRY_MS = 1000;

/** Who listens to which environment's changes, and the loads that feed them. */
export class LiveChanges {
  readonly #environments: EnvironmentCache;
  readonly #log: Logger;
  readonly #retryMs: number;
  readonly #listeners = new Map<string, Set<StateListener>>();
  readonly #retries = new Map<string, NodeJS.Timeout>();
  #stopHearing: (() => void) | null = null;
  #size = 0;

  constructor(environments: EnvironmentCache, log: Logger, options: { retryMs?: number } = {}) {
    this.#environments = environments;
    this.#log = log;
    this.#retryMs = options.retryMs ?? DEFAULT_RETRY_MS;
  }

  /** Starts hearing the cache's changes. */
  start(): void {
    this.#stopHearing ??= this.#environments.onChange((envId) => this.#changed(envId));
  }

  /** Stops hearing changes and forgets every listener (the streams are ended by their owner). */
  stop(): void {
    this.#stopHearing?.();
    this.#stopHearing = null;
    for (const timer of this.#retries.values()) clearTimeout(timer);
    this.#retries.clear();
    this.#listeners.clear();
    this.#size = 0;
  }

  /** Calls `listener` after every change of `envId`; returns the function that stops it (idempotent). */
  subscribe(envId: string, listener: StateListener): () => void {
    let listeners = this.#listeners.get(envId);
    if (listeners === undefined) {
      listeners = new Set();
      this.#listeners.set(envId, listeners);
    }
    listeners.add(listener);
    this.#size++;
    const held = listeners;
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      // After stop() the sets are gone: nothing left to remove or count.
      if (!held.delete(listener)) return;
      this.#size--;
      if (held.size === 0 && this.#listeners.get(envId) === held) {
        this.#listeners.delete(envId);
        this.#cancelRetry(envId);
      }
    };
  }

  /** Listeners across every environment (one per open stream): what "pages listening now" counts. */
  get size(): number {
    return this.#size;
  }

  /** Listeners of one environment. */
  listenersOf(envId: string): number {
    return this.#listeners.get(envId)?.size ?? 0;
  }

  #changed(envId: string): void {
    if (!this.#listeners.has(envId)) return;
    this.#cancelRetry(envId);
    // On the next turn: `invalidate` runs inside request hooks and the notification handler.
    queueMicrotask(() => void this.#deliver(envId));
  }

  async #deliver(envId: string): Promise<void> {
    let state: EnvironmentState | null;
    try {
      state = await this.#environments.get(envId);
    } catch (error) {
      // The cache keeps no state after a failed load, so neither a notification's absence nor its periodic
      // check would bring this change again: retry here while someone listens.
      this.#log.warn({ err: error, envId }, 'loading a changed environment for its streams failed; retrying');
      this.#retryLater(envId);
      return;
    }
    // null: the environment is gone; its streams get nothing more (SDKs learn it from their next fetch).
    if (state === null) return;
    for (const listener of [...(this.#listeners.get(envId) ?? [])]) {
      try {
        listener(state);
      } catch (error) {
        this.#log.error({ err: error, envId }, 'a live-update listener failed');
      }
    }
  }

  #retryLater(envId: string): void {
    if (!this.#listeners.has(envId) || this.#retries.has(envId) || this.#stopHearing === null) return;
    const timer = setTimeout(() => {
      this.#retries.delete(envId);
      if (this.#listeners.has(envId)) void this.#deliver(envId);
    }, this.#retryMs);
    // unref: a retry must not keep a stopping process alive.
    timer.unref();
    this.#retries.set(envId, timer);
  }

  #cancelRetry(envId: string): void {
    const timer = this.#retries.get(envId);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.#retries.delete(envId);
  }
}

// Per-environment in-memory state, loaded on first use and rebuilt on change. Changes arrive through the
// store's notifications (LISTEN/NOTIFY, so other instances on one PostgreSQL database follow within a
// round trip); a generation counter keeps a load that raced with a change from being kept.
import type { Logger } from 'pino';
import { isValidId } from '../ids.js';
import type { Store } from '../store/store.js';
import { buildEnvironmentState, type EnvironmentState } from './environment-state.js';

/** The environments an instance serves, by id. */
export class EnvironmentCache {
  readonly #store: Store;
  readonly #log: Logger;
  readonly #states = new Map<string, EnvironmentState>();
  readonly #loading = new Map<string, Promise<EnvironmentState | null>>();
  readonly #generation = new Map<string, number>();
  #unsubscribe: (() => Promise<void>) | null = null;

  constructor(store: Store, log: Logger) {
    this.#store = store;
    this.#log = log;
  }

  /** Starts following configuration changes. */
  async start(): Promise<void> {
    this.#unsubscribe = await this.#store.onConfigurationChange((envId) => {
      this.invalidate(envId);
    });
  }

  /** Stops following changes. */
  async stop(): Promise<void> {
    await this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  /** Forgets an environment's state; the next request loads it afresh. */
  invalidate(envId: string): void {
    this.#generation.set(envId, (this.#generation.get(envId) ?? 0) + 1);
    this.#states.delete(envId);
    this.#loading.delete(envId);
  }

  /** The state of an environment, or null when it does not exist. */
  get(envId: string): EnvironmentState | null | Promise<EnvironmentState | null> {
    const state = this.#states.get(envId);
    if (state !== undefined) return state;
    if (!isValidId(envId)) return null;
    let loading = this.#loading.get(envId);
    if (loading === undefined) {
      loading = this.#load(envId);
      this.#loading.set(envId, loading);
    }
    return loading;
  }

  async #load(envId: string): Promise<EnvironmentState | null> {
    try {
      return await this.#loadFresh(envId);
    } catch (error) {
      this.#loading.delete(envId);
      throw error;
    }
  }

  async #loadFresh(envId: string): Promise<EnvironmentState | null> {
    for (;;) {
      const generation = this.#generation.get(envId) ?? 0;
      const configuration = await this.#store.loadConfiguration(envId);
      if ((this.#generation.get(envId) ?? 0) !== generation) continue;
      this.#loading.delete(envId);
      if (configuration === null) return null;
      const state = buildEnvironmentState(configuration);
      if (state.reasons.length > 0) {
        this.#log.warn({ envId, reasons: state.reasons }, 'parts of the configuration do not match');
      }
      this.#states.set(envId, state);
      return state;
    }
  }
}

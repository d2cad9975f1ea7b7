// Per-environment in-memory state, loaded on first use and rebuilt on change. Changes arrive through the
// store's notifications (LISTEN/NOTIFY, so other instances on one PostgreSQL database follow within a
// round trip); a generation counter keeps a load that raced with a change from being kept. Notifications can
// be missed (the LISTEN connection drops and reconnects), so a periodic check of each cached environment's
// configuration time and key digest, one small query for all of them, bounds how long a missed one lasts.
import type { Logger } from 'pino';
import { digest, digestMatches, isValidId } from '../ids.js';
import type { ListenInterruption } from '../store/sql/sql.js';
import type { ConfigurationStamp, ConfigurationStore } from '../store/configuration-store.js';
import { buildEnvironmentState, type EnvironmentState } from './environment-state.js';

/** How often cached environments are checked against the database by default. */
export const DEFAULT_CHECK_INTERVAL_MS = 5000;

/** How many API key digests are remembered with their environment id (oldest forgotten first). */
const MAX_KEYS_REMEMBERED = 10_000;

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && a.every((byte, i) => byte === b[i]);

/** The environments an instance serves, by id. */
export class EnvironmentCache {
  readonly #store: ConfigurationStore;
  readonly #log: Logger;
  readonly #checkIntervalMs: number;
  readonly #states = new Map<string, EnvironmentState>();
  readonly #loading = new Map<string, Promise<EnvironmentState | null>>();
  readonly #generation = new Map<string, number>();
  /**
   * API key digest (base64) → environment id, for routes that name the environment by its key alone (OFREP).
   * Never trusted alone: every use compares the digest with the environment's current one, so a rotated key's
   * entry is refused and dropped at its next use.
   */
  readonly #envIdByKey = new Map<string, string>();
  #unsubscribe: (() => Promise<void>) | null = null;
  #timer: NodeJS.Timeout | null = null;
  #checking: Promise<void> | null = null;
  readonly #changeListeners = new Set<(envId: string) => void>();

  constructor(store: ConfigurationStore, log: Logger, options: { checkIntervalMs?: number } = {}) {
    this.#store = store;
    this.#log = log;
    this.#checkIntervalMs = options.checkIntervalMs ?? DEFAULT_CHECK_INTERVAL_MS;
  }

  /** Starts following configuration changes. */
  async start(): Promise<void> {
    this.#unsubscribe = await this.#store.onConfigurationChange(
      (envId) => this.invalidate(envId),
      (event) => this.#interrupted(event),
    );
    // unref: the check must not keep a stopping process alive.
    this.#timer = setInterval(() => void this.check(), this.#checkIntervalMs).unref();
  }

  /** Stops following changes. */
  async stop(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    await this.#unsubscribe?.();
    this.#unsubscribe = null;
    await this.#checking;
  }

  /**
   * Compares every cached environment with the database and drops those that changed without a
   * notification reaching this instance. Runs one at a time; a failure is logged and retried next time.
   */
  check(): Promise<void> {
    this.#checking ??= this.#checkOnce().finally(() => {
      this.#checking = null;
    });
    return this.#checking;
  }

  async #checkOnce(): Promise<void> {
    const cached = [...this.#states.values()];
    if (cached.length === 0) return;
    let stamps: ConfigurationStamp[];
    try {
      stamps = await this.#store.configurationStamps(cached.map((state) => state.environment.id));
    } catch (error) {
      this.#log.warn({ err: error }, 'the periodic configuration check failed; it runs again shortly');
      return;
    }
    const byId = new Map(stamps.map((stamp) => [stamp.id, stamp]));
    for (const state of cached) {
      const { id, configTime, apiKeyDigest } = state.environment;
      // Only a state still held was checked: one replaced meanwhile is newer than the stamp.
      if (this.#states.get(id) !== state) continue;
      const stamp = byId.get(id);
      if (stamp?.configTime === configTime && sameBytes(stamp.apiKeyDigest, apiKeyDigest)) continue;
      this.#log.info(
        { envId: id },
        'configuration change found by the periodic check (a notification was missed)',
      );
      this.invalidate(id);
    }
  }

  #interrupted(event: ListenInterruption): void {
    if (event.state === 'lost') {
      this.#log.warn(
        { reason: event.reason },
        'configuration notifications lost; reconnecting with backoff, the periodic check covers the gap',
      );
      return;
    }
    // Whatever was published while away was not heard: reload everything on next use.
    this.#log.info(
      { reason: event.reason },
      'configuration notifications resumed; reloading every environment',
    );
    for (const envId of [...this.#states.keys(), ...this.#loading.keys()]) this.invalidate(envId);
  }

  /** Forgets an environment's state; the next request loads it afresh. */
  invalidate(envId: string): void {
    this.#generation.set(envId, (this.#generation.get(envId) ?? 0) + 1);
    this.#states.delete(envId);
    this.#loading.delete(envId);
    for (const listener of this.#changeListeners) listener(envId);
  }

  /**
   * Calls `listener` with the id of every environment that may have changed (every path above ends in
   * `invalidate`: a notification, the periodic check, a resumed subscription, this instance's own change), after
   * its state was dropped, so that `get` loads the new one. Returns the unsubscribe function.
   */
  onChange(listener: (envId: string) => void): () => void {
    this.#changeListeners.add(listener);
    return () => {
      this.#changeListeners.delete(listener);
    };
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

  /**
   * The environment whose API key is `apiKey`, or null when none has it. A key seen before costs no query;
   * an unknown key costs one query of the environments table each time, as an unknown environment id does
   * (not remembered: a key made a moment later must work at once). The last word is the constant-time
   * comparison of the digests, against the state served now.
   */
  async byApiKey(apiKey: string): Promise<EnvironmentState | null> {
    const keyDigest = digest(apiKey);
    const remembered = keyDigest.toString('base64');
    let envId = this.#envIdByKey.get(remembered);
    if (envId === undefined) {
      const found = await this.#store.environmentIdByKeyDigest(keyDigest);
      if (found === null) return null;
      envId = found;
      if (this.#envIdByKey.size >= MAX_KEYS_REMEMBERED) {
        const oldest = this.#envIdByKey.keys().next();
        if (oldest.done !== true) this.#envIdByKey.delete(oldest.value);
      }
      this.#envIdByKey.set(remembered, envId);
    }
    const state = await this.get(envId);
    if (state === null || !digestMatches(keyDigest, state.environment.apiKeyDigest)) {
      this.#envIdByKey.delete(remembered);
      return null;
    }
    return state;
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

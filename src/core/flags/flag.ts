import { EMPTY_METADATA, type FlagMetadata } from '../../protocol/index.js';
import { typeName, valueFits, type FlagEntry, type FlagHost, type FlagsSnapshot } from './flag-entry.js';
import { FlagStatus } from '../status.js';

/** Options of `Flag.value`. */
export interface FlagValueOptions {
  /** Report the visitor as exposed to the flag (default true). */
  visitorExposed?: boolean;
}

/**
 * A visitor's flag, by key (SPEC.md `Flag`). It is live (PROTOCOL.md §16.3): every call reads the visitor's
 * current flags, so a flag obtained before `fetchFlags` reads the fetched value after it. Reading never
 * throws: a missing flag, a null value, a type mismatch or panic give the caller's default.
 */
export class Flag {
  #lastDefault: unknown;
  /**
   * The snapshot last read and this key's entry in it: snapshots are immutable and replaced on every change, so
   * a read while the snapshot stays the same compares one reference instead of looking the key up again.
   */
  #snapshot: FlagsSnapshot | undefined;
  #entry: FlagEntry | undefined;

  readonly #host: FlagHost;

  /** Made by `visitor.getFlag(key)`. */
  constructor(
    host: FlagHost,
    /** The flag key. */
    readonly key: string,
  ) {
    this.#host = host;
  }

  /**
   * The variation's value, or `defaultValue` when the flag is missing, its value is null, its type differs
   * from the default's (string, number, boolean, array, object), or the SDK is in panic. With
   * `visitorExposed` true (default), the exposure is reported once per visitor and variation.
   */
  value<T>(defaultValue: T, options?: FlagValueOptions): T {
    this.#lastDefault = defaultValue;
    const entry = this.#current();
    if (entry === undefined) {
      this.#host.missing(this.key);
      return defaultValue;
    }
    if (!this.#fits(entry, defaultValue)) return defaultValue;
    if (options?.visitorExposed !== false) void this.#host.expose(entry, defaultValue);
    return entry.value === null ? defaultValue : (entry.value as T);
  }

  /** The campaign metadata; all fields empty when the flag is missing, in panic, or the last default's type differed. */
  metadata(): FlagMetadata {
    const entry = this.#current();
    return entry !== undefined && valueFits(entry.value, this.#lastDefault)
      ? { ...entry.metadata }
      : { ...EMPTY_METADATA };
  }

  /**
   * Reports the visitor as exposed to this flag, after `value(d, { visitorExposed: false })`. Resolves once
   * the activation is queued, at once when it was already sent; nothing is sent for a missing flag (warned
   * once per key, as `value` warns).
   */
  visitorExposed(): Promise<void> {
    const entry = this.#current();
    if (entry === undefined) {
      this.#host.missing(this.key);
      return Promise.resolve();
    }
    return this.#fits(entry, this.#lastDefault)
      ? this.#host.expose(entry, this.#lastDefault ?? null)
      : Promise.resolve();
  }

  /** True when the flag is among the visitor's current flags (returned by the service). */
  exists(): boolean {
    return this.#current() !== undefined;
  }

  /** FETCHED, FETCH_REQUIRED, NOT_FOUND or PANIC, read now (PROTOCOL.md §16.3). */
  getFlagStatus(): FlagStatus {
    const state = this.#host.flagsState();
    if (state === FlagStatus.PANIC) return state;
    return this.#current() === undefined ? FlagStatus.NOT_FOUND : state;
  }

  /** This key's entry in the flags in use; undefined when missing or in panic. */
  #current(): FlagEntry | undefined {
    const flags = this.#host.flags();
    if (flags !== this.#snapshot) {
      this.#snapshot = flags;
      this.#entry = flags?.get(this.key);
    }
    return this.#entry;
  }

  #fits(entry: FlagEntry, defaultValue: unknown): boolean {
    if (valueFits(entry.value, defaultValue)) return true;
    this.#host.warnOnce(
      `flag "${this.key}" is a ${typeName(entry.value)} but the default is a ${typeName(defaultValue)}: the default is returned and no exposure is reported.`,
      `type:${this.key}:${typeName(defaultValue)}`,
    );
    return false;
  }
}

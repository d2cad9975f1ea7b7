import type { ResolvedFlag } from '../../engine/flags.js';
import type { JsonValue } from '../../protocol/index.js';
import type { FlagStatus } from '../status.js';

/** One flag of a visitor's decision (PROTOCOL.md §9.1): its value (null: not set by the variation) and metadata. */
export type FlagEntry = ResolvedFlag;

/** A visitor's current flags by key: the immutable snapshot `visitor.$flags` holds. */
export type FlagsSnapshot = ReadonlyMap<string, FlagEntry>;

/** What a `Flag` reads through: its visitor, or nothing for the empty flag of a collection. */
export interface FlagHost {
  /** The flags in use; undefined in panic (every value is then the default). */
  flags(): FlagsSnapshot | undefined;
  /** PANIC, FETCH_REQUIRED (also while fetching) or FETCHED: the visitor's side of the flag status. */
  flagsState(): FlagStatus;
  /** Reports the exposure of `entry` (PROTOCOL.md §4); resolves once queued, never rejects. */
  expose(entry: FlagEntry, defaultValue: unknown): Promise<void>;
  /** Logs a warning once per SDK instance and `onceKey`. */
  warnOnce(message: string, onceKey: string): void;
  /**
   * Called when a read finds no flag for `key`: warns once per key, naming the known keys, when the flags are
   * known (fetched or from a cache) and the SDK is not in panic. Only the miss path calls it: a read that
   * finds its flag allocates nothing.
   */
  missing(key: string): void;
}

/**
 * True when a flag value of this type may be returned for `defaultValue` (PROTOCOL.md §9.3): a null or
 * undefined default accepts any type; a null value fits every default (the default is then returned).
 */
export const valueFits = (value: JsonValue, defaultValue: unknown): boolean =>
  value === null ||
  defaultValue === null ||
  defaultValue === undefined ||
  (typeof value === typeof defaultValue && Array.isArray(value) === Array.isArray(defaultValue));

/** The type name of a value, for messages. */
export const typeName = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

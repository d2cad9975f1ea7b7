// The typed value of a <feature-flag>: its declared or inferred type, its default parsed from the attribute,
// and whether a variation's value may be shown for that type (PROTOCOL.md §9.3: a mismatch shows the default).
import type { FlagsSnapshot } from '../core/index.js';

/** A `<feature-flag type>`. */
export type FlagType = 'string' | 'boolean' | 'number' | 'json';

/** The types `type` accepts. */
export const FLAG_TYPES: readonly FlagType[] = ['string', 'boolean', 'number', 'json'];

/**
 * The type when `type` is absent, inferred from `default`: `true`/`false` → boolean, a finite number → number,
 * text starting with `{` or `[` that parses → json, anything else (or no default) → string.
 */
export const inferType = (text: string | null): FlagType => {
  const t = text?.trim() ?? '';
  if (t === 'true' || t === 'false') return 'boolean';
  if (t !== '' && Number.isFinite(Number(t))) return 'number';
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      JSON.parse(t);
      return 'json';
    } catch {
      return 'string';
    }
  }
  return 'string';
};

/** The default value of `type` from the attribute text, or a problem that says what to change. */
export const parseDefault = (
  text: string | null,
  type: FlagType,
): { value: unknown; problem: string | null } => {
  if (type === 'string') return { value: text ?? '', problem: null };
  const t = text?.trim() ?? '';
  if (type === 'boolean') {
    const ok = t === '' || t === 'true' || t === 'false';
    return { value: t === 'true', problem: ok ? null : `default="${t}" is not true or false` };
  }
  if (type === 'number') {
    const n = Number(t);
    return Number.isFinite(n)
      ? { value: n, problem: null }
      : { value: 0, problem: `default="${t}" is not a number` };
  }
  if (t === '') return { value: null, problem: null };
  try {
    return { value: JSON.parse(t) as unknown, problem: null };
  } catch {
    return { value: null, problem: `default is not JSON: ${t.slice(0, 60)}` };
  }
};

/** True when a variation's value can be shown for `type` (null never: the default is shown). */
export const fitsType = (value: unknown, type: FlagType): boolean =>
  value !== null && (type === 'json' ? typeof value === 'object' : typeof value === type);

/** What a flag shows now: its variation's value, or the default (`variationId` null). */
export interface ShownValue {
  value: unknown;
  variationId: string | null;
  variationName: string | null;
}

/** The value to show for `key` from `flags`. */
export const shownValue = (
  flags: FlagsSnapshot | undefined,
  key: string,
  type: FlagType,
  defaultValue: unknown,
): ShownValue => {
  const entry = flags?.get(key);
  // A null value (a variation that does not set the key, often the reference) shows the default but is still
  // that variation: it matches its templates and its exposure counts (PROTOCOL.md §4).
  if (entry !== undefined && (entry.value === null || fitsType(entry.value, type))) {
    const { variationId, variationName } = entry.metadata;
    return { value: entry.value ?? defaultValue, variationId, variationName };
  }
  return { value: defaultValue, variationId: null, variationName: null };
};

/** The text form of a value: as is for strings, JSON for objects, `String` otherwise. */
export const textOf = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

// Typed flag values (a variation's modifications.value): each value is typed in as text and read back with its
// flag's type, so that "42" can be a string or a number as the person means, and JSON is checked as they type.
import type { JsonValue } from 'feature-ts/protocol';
import type { Parsed } from './targeting-values.js';

/** The types a flag's values are typed in as (one type per flag in a group, PROTOCOL.md §9.3). */
export const FLAG_TYPES = ['string', 'number', 'boolean', 'json'] as const;

/** A flag value type. */
export type FlagType = (typeof FLAG_TYPES)[number];

/** Labels of the flag types, as the "Flag type" select shows them. */
export const FLAG_TYPE_LABELS: Readonly<Record<FlagType, string>> = {
  string: 'Text',
  number: 'Number',
  boolean: 'Boolean',
  json: 'JSON (object, array…)',
};

/** Reads a typed-in flag value. */
export const parseFlagValue = (type: FlagType, text: string): Parsed => {
  switch (type) {
    case 'string':
      return { ok: true, value: text };
    case 'boolean':
      return text === 'true' || text === 'false'
        ? { ok: true, value: text === 'true' }
        : { ok: false, error: 'must be true or false: choose one' };
    case 'number': {
      const trimmed = text.trim();
      const value = trimmed === '' ? Number.NaN : Number(trimmed);
      return Number.isFinite(value)
        ? { ok: true, value }
        : { ok: false, error: 'must be a number, such as 3 or 0.5' };
    }
    case 'json':
      try {
        return { ok: true, value: JSON.parse(text) as JsonValue };
      } catch (error) {
        return { ok: false, error: `is not valid JSON: ${error instanceof Error ? error.message : ''}` };
      }
  }
};

/** The type a stored (non-null) value is edited as. */
export const flagTypeOf = (value: JsonValue): FlagType =>
  typeof value === 'string'
    ? 'string'
    : typeof value === 'number'
      ? 'number'
      : typeof value === 'boolean'
        ? 'boolean'
        : 'json';

/** The text to edit a stored (non-null) value with, as a value of `type` (JSON when it is not of that type). */
export const formatFlagValue = (value: JsonValue, type: FlagType): string => {
  if (typeof value === 'string' && type === 'string') return value;
  if ((typeof value === 'number' && type === 'number') || (typeof value === 'boolean' && type === 'boolean'))
    return String(value);
  return JSON.stringify(value, null, 2);
};

/** The text a value keeps when its flag's type changes: what still makes sense, else a starting value. */
export const retypeText = (from: FlagType, to: FlagType, text: string): string => {
  if (to === 'boolean') return text === 'true' || text === 'false' ? text : '';
  if (to === 'json' && from === 'string') return text === '' ? '' : JSON.stringify(text);
  if (from === 'boolean') return to === 'number' ? '' : text;
  return text;
};

/** The path the server gives a flag's value (validation/bucketing-campaigns.ts fieldPath). */
export const flagPath = (valuePath: string, key: string): string =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? `${valuePath}.${key}` : `${valuePath}[${JSON.stringify(key)}]`;

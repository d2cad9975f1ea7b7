// Typed flag values (a variation's modifications.value): each flag is typed in as text and read back with its
// type, so that "42" can be a string or a number as the person means, and JSON is checked as they type.
import type { JsonValue } from 'feature-ts/protocol';
import type { Parsed } from './targeting-values.js';

/** The types a flag value is typed in as; `null` means "this variation does not set the flag". */
export const FLAG_TYPES = ['string', 'number', 'boolean', 'json', 'null'] as const;

/** A flag value type. */
export type FlagType = (typeof FLAG_TYPES)[number];

/** Labels of the flag types, as the "Flag type" select shows them. */
export const FLAG_TYPE_LABELS: Readonly<Record<FlagType, string>> = {
  string: 'String',
  number: 'Number',
  boolean: 'Boolean',
  json: 'JSON (object, array…)',
  null: 'Not set (null)',
};

/** Reads a typed-in flag value. */
export const parseFlagValue = (type: FlagType, text: string): Parsed => {
  switch (type) {
    case 'string':
      return { ok: true, value: text };
    case 'boolean':
      return { ok: true, value: text === 'true' };
    case 'null':
      return { ok: true, value: null };
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

/** The type and text to edit a stored flag value with. */
export const formatFlagValue = (value: JsonValue): { type: FlagType; text: string } => {
  if (value === null) return { type: 'null', text: '' };
  if (typeof value === 'string') return { type: 'string', text: value };
  if (typeof value === 'number') return { type: 'number', text: String(value) };
  if (typeof value === 'boolean') return { type: 'boolean', text: String(value) };
  return { type: 'json', text: JSON.stringify(value, null, 2) };
};

/** The text a value keeps when its type changes: what still makes sense, else a starting value. */
export const retypeText = (from: FlagType, to: FlagType, text: string): string => {
  if (to === 'boolean') return text === 'true' ? 'true' : 'false';
  if (to === 'null') return '';
  if (to === 'json' && from === 'string') return text === '' ? '' : JSON.stringify(text);
  if (to === 'json' && from === 'null') return 'null';
  if (from === 'boolean' || from === 'null') return to === 'number' ? '0' : '';
  return text;
};

/** The path the server gives a flag's value (validation/bucketing-campaigns.ts fieldPath). */
export const flagPath = (valuePath: string, key: string): string =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? `${valuePath}.${key}` : `${valuePath}[${JSON.stringify(key)}]`;

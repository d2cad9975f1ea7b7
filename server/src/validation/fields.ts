// Small type guards for validating bodies field by field; each returns a message naming what is wrong, so the
// caller can prefix the field's path (PROTOCOL.md §2.1: `h[3].ev`). Strings the store keeps must be storable
// text and numbers must be within their field's range (§2.1, §5.1): anything else would come back from the
// database as a 500, or poison a report.
import { HIT_LIMITS, isJsonObject } from 'feature-ts/protocol';
import { STORABLE_TEXT_RULE, isStorableText, shownKey } from './storable-text.js';

/** A message when `value` is not a storable string of 1..max characters, else null. */
export const badString = (value: unknown, max: number): string | null => {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length === 0) return 'must not be empty';
  if (value.length > max) return `must be at most ${max} characters`;
  if (!isStorableText(value)) return STORABLE_TEXT_RULE;
  return null;
};

/** A message when `value` is present and not a storable string of 1..max characters. */
export const badOptionalString = (value: unknown, max: number): string | null =>
  value === undefined ? null : badString(value, max);

/** A message when `value` is present and not a money amount: a number from 0 to 10^12 (§5.1). */
export const badOptionalMoney = (value: unknown): string | null =>
  value === undefined || (typeof value === 'number' && value >= 0 && value <= HIT_LIMITS.maxAmount) // false for NaN, ±Infinity
    ? null
    : `must be a number from 0 to ${HIT_LIMITS.maxAmount}`;

/** A message when `value` is present and not a queue time: an integer from 0 to one day in ms (§5.1). */
export const badOptionalQueueTime = (value: unknown): string | null =>
  value === undefined ||
  (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= HIT_LIMITS.maxQueueTimeMs)
    ? null
    : `must be an integer from 0 to ${HIT_LIMITS.maxQueueTimeMs} (ms, one day)`;

/** A message when `value` is not an integer ≥ 0 that a double holds exactly, else null. */
export const badCount = (value: unknown): string | null => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) return 'must be an integer ≥ 0';
  return value > Number.MAX_SAFE_INTEGER ? `must be at most ${Number.MAX_SAFE_INTEGER}` : null;
};

/** A message when `value` is present and not an integer ≥ 0 that a double holds exactly. */
export const badOptionalCount = (value: unknown): string | null =>
  value === undefined ? null : badCount(value);

/** A message when `value` is present and not a boolean. */
export const badOptionalBoolean = (value: unknown): string | null =>
  value === undefined || typeof value === 'boolean' ? null : 'must be true or false';

/** A field that cannot be stored: its path and what is wrong. */
export interface Unstorable {
  path: string;
  problem: string;
}

/**
 * The first key or string of a JSON value that cannot be stored, with its path under `path`, or null. The
 * walk is bounded: bodies are refused past 64 levels of nesting before any route sees them (json-body.ts).
 */
export const unstorableIn = (value: unknown, path: string): Unstorable | null => {
  if (typeof value === 'string') return isStorableText(value) ? null : { path, problem: STORABLE_TEXT_RULE };
  if (typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableIn(value[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const here = `${path}.${shownKey(key)}`;
    if (!isStorableText(key)) return { path: here, problem: `${STORABLE_TEXT_RULE} (in its key)` };
    const found = unstorableIn(item, here);
    if (found !== null) return found;
  }
  return null;
};

/** The first field of an object named in either spelling (camelCase first), or undefined. */
export const either = (body: Record<string, unknown>, camel: string, snake: string): unknown =>
  Object.hasOwn(body, camel) ? body[camel] : Object.hasOwn(body, snake) ? body[snake] : undefined;

/** The path of a field read in either spelling, for messages. */
export const spelling = (body: Record<string, unknown>, camel: string, snake: string): string =>
  Object.hasOwn(body, camel) || !Object.hasOwn(body, snake) ? camel : snake;

export { isJsonObject };

// Small type guards for validating bodies field by field; each returns a message naming what is wrong, so the
// caller can prefix the field's path (PROTOCOL.md §2.1: `h[3].ev`).
import { isJsonObject } from 'feature-ts/protocol';

/** A message when `value` is not a string of 1..max characters, else null. */
export const badString = (value: unknown, max: number): string | null => {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length === 0) return 'must not be empty';
  if (value.length > max) return `must be at most ${max} characters`;
  return null;
};

/** A message when `value` is present and not a string of 1..max characters. */
export const badOptionalString = (value: unknown, max: number): string | null =>
  value === undefined ? null : badString(value, max);

/** A message when `value` is present and not a finite number ≥ 0. */
export const badOptionalAmount = (value: unknown): string | null =>
  value === undefined || (typeof value === 'number' && Number.isFinite(value) && value >= 0)
    ? null
    : 'must be a finite number ≥ 0';

/** A message when `value` is present and not an integer ≥ 0. */
export const badOptionalCount = (value: unknown): string | null =>
  value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= 0)
    ? null
    : 'must be an integer ≥ 0';

/** A message when `value` is present and not a boolean. */
export const badOptionalBoolean = (value: unknown): string | null =>
  value === undefined || typeof value === 'boolean' ? null : 'must be true or false';

/** The first field of an object named in either spelling (camelCase first), or undefined. */
export const either = (body: Record<string, unknown>, camel: string, snake: string): unknown =>
  Object.hasOwn(body, camel) ? body[camel] : Object.hasOwn(body, snake) ? body[snake] : undefined;

/** The path of a field read in either spelling, for messages. */
export const spelling = (body: Record<string, unknown>, camel: string, snake: string): string =>
  Object.hasOwn(body, camel) || !Object.hasOwn(body, snake) ? camel : snake;

export { isJsonObject };

// What the campaign formats' hand-written readers share (bucketing-campaigns.ts, analysis-settings.ts), and the
// decision request's two spellings. Strings the store keeps must be storable text (§2.1): anything else would
// come back from the database as a 500. Route bodies are checked by their schemas (http/schema-validation.ts).
import { STORABLE_TEXT_RULE, isStorableText } from './storable-text.js';

/** A message when `value` is not a storable string of 1..max characters, else null. */
export const badString = (value: unknown, max: number): string | null => {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length === 0) return 'must not be empty';
  if (value.length > max) return `must be at most ${max} characters`;
  if (!isStorableText(value)) return STORABLE_TEXT_RULE;
  return null;
};

/** The first field of an object named in either spelling (camelCase first), or undefined. */
export const either = (body: Record<string, unknown>, camel: string, snake: string): unknown =>
  Object.hasOwn(body, camel) ? body[camel] : Object.hasOwn(body, snake) ? body[snake] : undefined;

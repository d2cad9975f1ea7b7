// What the campaign formats' readers share (the bucketing file of `feature-server import`, and the remote
// control API's campaign format, remote/campaign-format.ts): text limits, storable text and JSON, and the
// rules each format applies to variation groups.
import { CONTEXT_LIMITS, type JsonValue } from 'feature-ts/protocol';
import { fail, fieldPath } from './field-error.js';
import { badString } from './fields.js';
import { STORABLE_TEXT_RULE, isStorableText } from './storable-text.js';

/** Length limits of the API's texts; ids have their own (1-64 characters, PROTOCOL.md §1). */
export const TEXT_LIMITS = {
  /** Campaign, variation group and variation names. */
  name: 256,
  slug: 256,
  description: 10_000,
  /** Targeting and flag keys: as long as a context key may be (§3). */
  key: CONTEXT_LIMITS.maxKeyLength,
  modificationsType: 64,
} as const;

export const illFormed = (text: string): boolean => !isStorableText(text);
export const ILL_FORMED = STORABLE_TEXT_RULE;

/** A message when `value` is not storable text of 1..`max` characters (§2.1; `min` 0 allows ''), else null. */
export const badText = (value: unknown, max: number, min = 1): string | null => {
  if (min === 0 && value === '') return null;
  const bad = badString(value, max);
  if (bad !== null) return bad;
  return illFormed(value as string) ? ILL_FORMED : null;
};

/** How a format spells and checks variation groups: the bucketing file's rules or the remote API's. */
export interface GroupRules {
  /** The key of the list under `targeting`: `targetingGroups` (file) or `targeting_groups` (API). */
  readonly targetingGroups: string;
  /** Where ids must be unique, for messages: "in the file", "in the campaign". */
  readonly scope: string;
  /**
   * The remote control API's rules on top of the file's (§13.5): no unknown fields, bounded non-empty
   * texts, targeting required, exactly one reference variation, one value type per flag key in a group.
   */
  readonly strict: boolean;
  /** Makes the id of an object given without one (strict only; the file needs every id). */
  readonly newId?: () => string;
}

/** The bucketing file's rules, as the import has always applied them. */
export const FILE_RULES: GroupRules = {
  targetingGroups: 'targetingGroups',
  scope: 'in the file',
  strict: false,
};

// JSON values nest at most this deep in a body (§2.1); the walk below never goes further.
const MAX_DEPTH = 64;

/** The path and reason of the first string or key in a JSON value that is not storable text, or null. */
const findBadJson = (value: unknown, path: string, depth: number): [string, string] | null => {
  if (typeof value === 'string') return illFormed(value) ? [path, ILL_FORMED] : null;
  if (typeof value !== 'object' || value === null) return null;
  if (depth >= MAX_DEPTH) return [path, `nests deeper than ${MAX_DEPTH} levels`];
  for (const [key, item] of Object.entries(value)) {
    if (illFormed(key)) return [path, `has a key that ${ILL_FORMED}`];
    const at = Array.isArray(value) ? `${path}[${key}]` : fieldPath(path, key);
    const bad = findBadJson(item, at, depth + 1);
    if (bad !== null) return bad;
  }
  return null;
};

export const checkJson = (value: unknown, path: string): JsonValue => {
  const bad = findBadJson(value, path, 0);
  if (bad !== null) fail(...bad);
  // A parsed JSON body holds JSON values only; the walk above bounded it and checked its texts.
  return value as JsonValue;
};

// Flags a page forces instead of asking a server: a test's (`<feature-provider flags>` of `feature-ts/testing`)
// or a QA person's (`?feature-qa=…` on a provider with `qa`). They are made the variation of one made-up
// campaign, so `<template variation>` matches them and an exposure names a variation, as for a real one.
import { flagsOfDecision, type FlagsSnapshot, type JsonValue } from '../core/index.js';

/** Forced flags: flag key → value (any JSON value; null shows the default, as a variation that leaves it out). */
export type ForcedValues = Readonly<Record<string, JsonValue>>;

/** The campaign and variation group id of forced flags, in their metadata and exposure details. */
export const FORCED_CAMPAIGN = 'forced';

/** The variation name (and id) of forced flags when none is given. */
export const FORCED_VARIATION = 'forced';

/** `values` as the flags of variation `variation` (its id and name) of the forced campaign. */
export const forcedFlags = (values: ForcedValues, variation: string): FlagsSnapshot =>
  flagsOfDecision({
    visitorId: '',
    campaigns: [
      {
        id: FORCED_CAMPAIGN,
        name: 'Forced flags',
        slug: null,
        type: 'ab',
        variationGroupId: FORCED_CAMPAIGN,
        variationGroupName: 'Forced flags',
        variation: {
          id: variation,
          name: variation,
          reference: false,
          modifications: { type: 'JSON', value: values },
        },
      },
    ],
  }) ?? new Map();

/** True for a plain object (not null, not an array): the only shape forced flags take. */
const isValues = (value: unknown): value is ForcedValues =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Forced flags from text: a JSON object (`{"headline":"B","discount":10}`), or `key:value` pairs separated by
 * commas (`headline:B,discount:10`), each value read as JSON when it parses (`10`, `true`, `"10"`, `{…}`), else
 * as text. Returns the values, or the problem that says what to change.
 */
export const parseForcedValues = (text: string): { values: ForcedValues; problem: string | null } => {
  const t = text.trim();
  if (t.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(t);
      if (isValues(parsed)) return { values: parsed, problem: null };
    } catch {
      // reported below
    }
    return { values: {}, problem: `${t.slice(0, 60)} is not a JSON object such as {"headline":"B"}` };
  }
  const values: Record<string, JsonValue> = {};
  for (const pair of t.split(',')) {
    const at = pair.indexOf(':');
    const key = pair.slice(0, at).trim();
    if (at < 1 || key === '')
      return { values: {}, problem: `"${pair}" is not key:value (write headline:B,discount:10)` };
    const raw = pair.slice(at + 1);
    try {
      values[key] = JSON.parse(raw) as JsonValue;
    } catch {
      values[key] = raw;
    }
  }
  return { values, problem: null };
};

/** `flags` as text for a log line: `headline = "B", discount = 10`. */
export const describeForced = (flags: FlagsSnapshot): string =>
  [...flags.values()].map((f) => `${f.key} = ${JSON.stringify(f.value)}`).join(', ');

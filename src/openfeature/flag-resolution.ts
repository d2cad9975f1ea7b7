import type { FlagValue, FlagValueType, ResolutionDetails } from '@openfeature/core';
import type { FlagEntry, Visitor } from 'feature-ts';
import { FLAG_NOT_FOUND, TYPE_MISMATCH } from './openfeature-names.js';

/**
 * OpenFeature's `flagMetadata` of a flag (PROTOCOL.md §18): where its value comes from, as OFREP answers it.
 * The campaign and variation names are left out (the variation's name is the `variant`).
 */
export interface FeatureFlagMetadata {
  [key: string]: string | boolean;
  campaignId: string;
  campaignType: string;
  /** "" when the campaign has none. */
  slug: string;
  variationGroupId: string;
  variationId: string;
  isReference: boolean;
}

/** The OpenFeature type of a flag value: JSON objects and arrays are both `object` (OpenFeature's JsonValue). */
const typeOfValue = (value: Exclude<FlagEntry['value'], null>): FlagValueType | 'other' => {
  const type = typeof value;
  return type === 'boolean' || type === 'string' || type === 'number' || type === 'object' ? type : 'other';
};

/** The metadata OpenFeature shows for `entry`. */
const metadataOf = (entry: FlagEntry): FeatureFlagMetadata => {
  const m = entry.metadata;
  return {
    campaignId: m.campaignId,
    campaignType: m.campaignType,
    slug: m.slug,
    variationGroupId: m.variationGroupId,
    variationId: m.variationId,
    isReference: m.isReference,
  };
};

/**
 * Resolves flag `key` of `visitor` for OpenFeature, from the flags the visitor holds now (no request), with the
 * rules of `flag.value()` (PROTOCOL.md §9.3) and OFREP's reasons (§18):
 * - panic: the default, reason DISABLED, nothing exposed;
 * - no such flag: the default, reason DEFAULT, error FLAG_NOT_FOUND, nothing exposed;
 * - a value of another type than asked: the default, reason ERROR, error TYPE_MISMATCH, nothing exposed;
 * - otherwise the value (the default when the visitor's variation does not set the key, §9.2), variant = the
 *   variation's name, reason SPLIT for an A/B test (allocation chose it) or TARGETING_MATCH for the other
 *   campaign types, and the exposure is reported as `flag.value()` reports it: once per visitor and variation.
 */
export const resolveFlag = <T extends FlagValue>(
  visitor: Visitor,
  key: string,
  defaultValue: T,
  type: FlagValueType,
): ResolutionDetails<T> => {
  // The flag's status, not the visitor's: the SDK in panic (a new file, another visitor's answer) counts too, as
  // it does for `flag.value()`, which then returns the default and reports nothing.
  if (visitor.getFlag(key).getFlagStatus() === 'PANIC') return { value: defaultValue, reason: 'DISABLED' };
  const entry = visitor.$flags.get().get(key);
  if (entry === undefined)
    return {
      value: defaultValue,
      reason: 'DEFAULT',
      errorCode: FLAG_NOT_FOUND,
      errorMessage: `no campaign gives flag "${key}" to visitor "${visitor.visitorId}".`,
    };
  const value = entry.value;
  if (value !== null) {
    const actual = typeOfValue(value);
    if (actual !== type)
      return {
        value: defaultValue,
        reason: 'ERROR',
        errorCode: TYPE_MISMATCH,
        errorMessage: `flag "${key}" is a ${Array.isArray(value) ? 'array' : actual}, not a ${type}.`,
      };
  }
  // The SDK's own read, so the exposure follows its rules (consent, deduplication, the exposure callback). A
  // null default accepts any type: the type was checked above, against what OpenFeature asked for.
  visitor.getFlag(key).value(null);
  return {
    // The type was checked above: a non-null value is of the type OpenFeature asked for.
    value: value === null ? defaultValue : (value as T),
    variant: entry.metadata.variationName,
    reason: entry.metadata.campaignType === 'ab' ? 'SPLIT' : 'TARGETING_MATCH',
    flagMetadata: metadataOf(entry),
  };
};

import type { EvaluationContext } from '@openfeature/core';
import type { ContextValue, Visitor } from 'feature-ts';

/** An OpenFeature evaluation context as a visitor takes it: its id and its context. */
export interface VisitorOfContext {
  /** `targetingKey`: the visitor id. */
  visitorId: string;
  /**
   * Every other key. Not checked here: the visitor applies the string, boolean and finite number values and
   * logs each other one, naming the key and why (an object, an array, a Date, null), through the SDK's logger.
   */
  context: Readonly<Record<string, ContextValue>>;
}

/** The visitor id and context of `context`; null when `targetingKey` is missing or empty. */
export const visitorOfContext = (context: EvaluationContext): VisitorOfContext | null => {
  const { targetingKey, ...rest } = context;
  if (typeof targetingKey !== 'string' || targetingKey === '') return null;
  // The visitor checks each value at its boundary (SPEC.md's context rules): a value it refuses is logged and
  // left out, so the wider OpenFeature types need no second check here.
  return { visitorId: targetingKey, context: rest as Record<string, ContextValue> };
};

/** A stable text of a visitor context, to tell whether an evaluation brings a different one. */
export const contextDigest = (context: Readonly<Record<string, unknown>>): string =>
  JSON.stringify(
    Object.keys(context)
      .sort()
      .map((key) => [key, context[key]]),
  );

/**
 * Makes `visitor`'s context `context`: the application's keys that `context` no longer holds are removed
 * (`clearContext` keeps the SDK's own keys), the others set. The visitor marks its flags FETCH_REQUIRED when a
 * value changed; the caller fetches.
 */
export const applyContext = (
  visitor: Visitor,
  before: Readonly<Record<string, unknown>>,
  context: Readonly<Record<string, ContextValue>>,
): void => {
  if (Object.keys(before).some((key) => !(key in context))) visitor.clearContext();
  visitor.updateContextWithMap(context);
};

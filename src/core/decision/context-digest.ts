import { murmur3 } from '../../engine/murmur3.js';
import type { VisitorContext } from '../../protocol/index.js';
import type { SentContext } from './sent-context.js';

/**
 * A short stable digest of a context, for PROTOCOL.md §5.1 Repeats (a SEGMENT hit is not sent again for the
 * same context): MurmurHash3 of the context as JSON with its keys sorted, so key order does not count, plus
 * the JSON's length, which makes a collision between two contexts of one visitor (the one way a changed
 * context would go unsent) rarer still. Stored in the visitor cache record (`sent`, §10), so it must not
 * depend on the process: it is the same in every runtime.
 */
export const contextDigest = (context: Readonly<VisitorContext>): string => {
  const keys = Object.keys(context).sort();
  const json = JSON.stringify(keys.map((k) => [k, context[k]]));
  return `${murmur3(json).toString(36)}.${json.length.toString(36)}`;
};

/** A context this process sends as SEGMENT, its digest computed when first read (see {@link SentContext}). */
export class DigestedContext implements SentContext {
  #digest: string | undefined;

  constructor(readonly context: Readonly<VisitorContext>) {}

  get digest(): string {
    return (this.#digest ??= contextDigest(this.context));
  }
}

/** Bucketing mode's `DecisionSource.sentContext`. */
export const sentContext = (context: Readonly<VisitorContext>): SentContext => new DigestedContext(context);

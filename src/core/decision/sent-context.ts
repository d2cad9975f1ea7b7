import type { VisitorContext } from '../../protocol/index.js';

/**
 * A context a visitor id sent as a SEGMENT hit (PROTOCOL.md §5.1 Repeats), as the repeat memory keeps it: the
 * context itself, compared key by key with the next one, and its digest, which only a record stored as JSON
 * text needs (`sent`, §10). Bucketing mode's source makes them (`DecisionSource.sentContext`, `context-digest.ts`) and computes the
 * digest on first read: a new visitor whose record a process cache holds as objects never hashes its
 * context (a fifth of its two hits' cost, issue 33), and the decision-API entry carries no hash.
 */
export interface SentContext {
  readonly context: Readonly<VisitorContext>;
  /** The context's digest (`decision/context-digest.ts`), computed once, when first read. */
  readonly digest: string;
}

/** A SEGMENT mark's value: the digest a stored record gave, or a context sent by this process. */
export type ContextMarkValue = string | SentContext;

import type { ContextValue, Decision } from '../../protocol/index.js';
import { Instance } from '../status.js';
import type { Visitor, VisitorInit } from './visitor.js';

/** Options of `Feature.newVisitor`. */
export interface NewVisitorOptions {
  /** The visitor id (1-256 characters). */
  visitorId: string;
  /** Whether the visitor consented to tracking. */
  hasConsented: boolean;
  /** SINGLE_INSTANCE (default) saves the visitor as the current one; NEW_INSTANCE does not. */
  instanceType?: Instance;
}

/** Builds a visitor (SPEC.md `VisitorBuilder`); finish with `build()`, which returns at once. */
export class VisitorBuilder {
  readonly #init: VisitorInit;
  readonly #instanceType: Instance;

  readonly #make: (init: VisitorInit, instanceType: Instance) => Visitor;

  /** Made by `Feature.newVisitor`. */
  constructor(options: NewVisitorOptions, make: (init: VisitorInit, instanceType: Instance) => Visitor) {
    this.#make = make;
    this.#init = {
      visitorId: options.visitorId,
      hasConsented: options.hasConsented,
      isAuthenticated: false,
      context: {},
    };
    this.#instanceType = options.instanceType ?? Instance.SINGLE_INSTANCE;
  }

  /** The initial context; values string, boolean or finite number (others are refused and logged). */
  withContext(context: Readonly<Record<string, ContextValue>>): this {
    this.#init.context = { ...context };
    return this;
  }

  /**
   * Flags decided earlier for this visitor, readable from `build()` on, before any request: a decision body
   * (PROTOCOL.md §3) that the page's server obtained with one decision call and rendered into the page, or one
   * the page kept. The visitor starts FETCH_REQUIRED / FLAGS_FETCHED_FROM_CACHE and the visitor cache's record
   * does not replace these flags; the next `fetchFlags` does. A decision for another visitor id, in panic, or
   * not a decision at all is ignored (logged).
   */
  withInitialFlags(decision: Decision): this {
    this.#init.initialDecision = decision;
    return this;
  }

  /** True: an authenticated visitor; false (default): anonymous. */
  isAuthenticated(authenticated: boolean): this {
    this.#init.isAuthenticated = authenticated;
    return this;
  }

  /** Consent, overriding the one given to `newVisitor`. */
  hasConsented(hasConsented: boolean): this {
    this.#init.hasConsented = hasConsented;
    return this;
  }

  /**
   * The visitor, at once: its cached flags, if any, become readable in the background, and `fetchFlags`
   * waits for that lookup (PROTOCOL.md §16.2).
   */
  build(): Visitor {
    return this.#make({ ...this.#init }, this.#instanceType);
  }
}

import type {
  ClientProviderEvents,
  EvaluationContext,
  FlagValue,
  JsonValue,
  ResolutionDetails,
  TrackingEventDetails,
} from '@openfeature/core';
import type { ContextValue, FeatureInstance, FlagsSnapshot, Visitor } from 'feature-ts';
import { changedFlags } from './changed-flags.js';
import { applyContext, visitorOfContext } from './evaluation-context.js';
import { resolveFlag } from './flag-resolution.js';
import { CLIENT_CONFIGURATION_CHANGED } from './openfeature-names.js';
import type { FeatureProviderOptions } from './provider-options.js';
import { ProviderEvents } from './provider-events.js';
import { trackingEvent } from './tracking-event.js';

const NO_TARGETING_KEY =
  'FeatureWebProvider: the evaluation context has no targetingKey (the visitor id): set it before the provider, OpenFeature.setContext({ targetingKey: "visitor-1" }).';

/**
 * An OpenFeature provider for `@openfeature/web-sdk` (PROTOCOL.md §18.1), over one visitor of an SDK instance
 * the application started:
 *
 * ```ts
 * await Feature.start(envId, apiKey);
 * await OpenFeature.setContext({ targetingKey: 'visitor-1', plan: 'premium' });
 * await OpenFeature.setProviderAndWait(new FeatureWebProvider({ instance: Feature.instance(), hasConsented: true }));
 * OpenFeature.getClient().getBooleanValue('newCheckout', false);
 * ```
 *
 * `initialize` creates the visitor (`targetingKey` is its id, the other keys its context) and fetches its
 * flags; every evaluation then resolves synchronously from them, and a value read is an exposure, as
 * `flag.value()` counts it. A context change updates the visitor (a new `targetingKey` authenticates it) and
 * fetches again, which OpenFeature shows as `Reconciling`. Whenever the visitor's flags change after the first
 * fetch (a context change, a live update, `visitor.fetchFlags()`), `ConfigurationChanged` lists the keys that
 * changed.
 */
export class FeatureWebProvider {
  /** OpenFeature's provider metadata. */
  readonly metadata = { name: 'feature-ts web' } as const;
  /** The web SDK only: OpenFeature refuses it in the server SDK. */
  readonly runsOn = 'client' as const;
  /** The provider's events (OpenFeature subscribes to them). */
  readonly events = new ProviderEvents<ClientProviderEvents>();

  readonly #instance: FeatureInstance;
  readonly #hasConsented: boolean;
  #visitor: Visitor | null = null;
  /** The context last applied, without `targetingKey`: a change removes the keys it no longer holds. */
  #context: Readonly<Record<string, ContextValue>> = {};
  #flags: FlagsSnapshot = new Map();
  #stopWatching: (() => void) | null = null;

  /** A provider over `options.instance`, which the application starts (and closes). */
  constructor(options: FeatureProviderOptions) {
    this.#instance = options.instance;
    this.#hasConsented = options.hasConsented;
  }

  /** The visitor the provider created, once initialized: to send other hits, change consent, or fetch. */
  get visitor(): Visitor | null {
    return this.#visitor;
  }

  /** Creates the visitor of `context` and fetches its flags. Rejects when `targetingKey` is missing. */
  async initialize(context: EvaluationContext = {}): Promise<void> {
    const who = visitorOfContext(context);
    if (who === null) throw new Error(NO_TARGETING_KEY);
    const visitor = this.#instance
      .newVisitor({ visitorId: who.visitorId, hasConsented: this.#hasConsented })
      .withContext(who.context)
      .build();
    this.#visitor = visitor;
    this.#context = who.context;
    await visitor.fetchFlags();
    // Changes are announced from the first fetch on: those are what the application rendered.
    this.#flags = visitor.$flags.get();
    this.#stopWatching?.();
    this.#stopWatching = visitor.$flags.listen((flags) => {
      const changed = changedFlags(this.#flags, flags);
      this.#flags = flags;
      if (changed.length > 0) this.events.emit(CLIENT_CONFIGURATION_CHANGED, { flagsChanged: changed });
    });
  }

  /**
   * Applies the new context to the visitor and fetches (OpenFeature shows `Reconciling` until it is done). A
   * new `targetingKey` authenticates the visitor as that id; its anonymous id again, or none, unauthenticates
   * it.
   */
  async onContextChange(_oldContext: EvaluationContext, newContext: EvaluationContext): Promise<void> {
    const visitor = this.#visitor;
    if (visitor === null) return;
    const who = visitorOfContext(newContext);
    if (who === null && !visitor.isAuthenticated) throw new Error(NO_TARGETING_KEY);
    const { targetingKey: _, ...rest } = newContext;
    const context = who?.context ?? (rest as Record<string, ContextValue>);
    if (who === null || (visitor.isAuthenticated && who.visitorId === visitor.anonymousId))
      visitor.unauthenticate();
    else if (who.visitorId !== visitor.visitorId) visitor.authenticate(who.visitorId);
    applyContext(visitor, this.#context, context);
    this.#context = context;
    await visitor.fetchFlags();
  }

  /** A boolean flag, from the visitor's current flags. */
  resolveBooleanEvaluation(flagKey: string, defaultValue: boolean): ResolutionDetails<boolean> {
    return this.#resolve(flagKey, defaultValue, 'boolean');
  }

  /** A string flag, from the visitor's current flags. */
  resolveStringEvaluation(flagKey: string, defaultValue: string): ResolutionDetails<string> {
    return this.#resolve(flagKey, defaultValue, 'string');
  }

  /** A number flag, from the visitor's current flags. */
  resolveNumberEvaluation(flagKey: string, defaultValue: number): ResolutionDetails<number> {
    return this.#resolve(flagKey, defaultValue, 'number');
  }

  /** An object (or array) flag, from the visitor's current flags. */
  resolveObjectEvaluation<T extends JsonValue>(flagKey: string, defaultValue: T): ResolutionDetails<T> {
    return this.#resolve(flagKey, defaultValue, 'object');
  }

  /**
   * Sends an EVENT hit of the visitor: category Action Tracking, action `trackingEventName`, value
   * `details.value` when it is an integer ≥ 0. Before `initialize` there is no visitor, and nothing is sent.
   */
  track(trackingEventName: string, _context?: EvaluationContext, details?: TrackingEventDetails): void {
    void this.#visitor?.sendHit(trackingEvent(trackingEventName, details));
  }

  /** Stops watching the visitor's flags. The SDK instance is the application's: it stays started. */
  onClose(): Promise<void> {
    this.#stopWatching?.();
    this.#stopWatching = null;
    this.#visitor = null;
    return Promise.resolve();
  }

  #resolve<T extends FlagValue>(
    key: string,
    defaultValue: T,
    type: 'boolean' | 'string' | 'number' | 'object',
  ): ResolutionDetails<T> {
    const visitor = this.#visitor;
    // OpenFeature evaluates only a ready provider; this answers a direct call before `initialize`.
    if (visitor === null) return { value: defaultValue, reason: 'DEFAULT' };
    return resolveFlag(visitor, key, defaultValue, type);
  }
}

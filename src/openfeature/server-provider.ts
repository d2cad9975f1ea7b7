import type {
  EvaluationContext,
  FlagValue,
  JsonValue,
  ResolutionDetails,
  ServerProviderEvents,
  TrackingEventDetails,
} from '@openfeature/core';
import {
  Instance,
  type ContextValue,
  type FeatureInstance,
  type FlagsSnapshot,
  type Visitor,
} from 'feature-ts';
import { changedFlags } from './changed-flags.js';
import {
  applyContext,
  contextDigest,
  visitorOfContext,
  type VisitorOfContext,
} from './evaluation-context.js';
import { resolveFlag } from './flag-resolution.js';
import { SERVER_CONFIGURATION_CHANGED, TARGETING_KEY_MISSING } from './openfeature-names.js';
import type { FeatureProviderOptions } from './provider-options.js';
import { ProviderEvents } from './provider-events.js';
import { RecentVisitors } from './recent-visitors.js';
import { trackingEvent } from './tracking-event.js';

/** Options of {@link FeatureServerProvider}. */
export interface FeatureServerProviderOptions extends FeatureProviderOptions {
  /**
   * The most visitors kept, one per `targetingKey` (default 10 000); past it the least recently evaluated is
   * dropped, and made again (and fetched again) when its id comes back.
   */
  maxVisitors?: number;
}

/** What the provider keeps for one `targetingKey`. */
interface KeptVisitor {
  readonly visitor: Visitor;
  /** The context last applied (without `targetingKey`) and its digest. */
  context: Readonly<Record<string, ContextValue>>;
  digest: string;
  /** The fetch the provider started for the context as it is now: concurrent evaluations share it. */
  fetch: Promise<void> | null;
  /** The provider's fetches in flight: flag changes meanwhile answer an evaluation, not a configuration change. */
  own: number;
  /** Whether one of the provider's fetches has completed: changes before it are the visitor's first flags. */
  fetched: boolean;
  flags: FlagsSnapshot;
  stopWatching: () => void;
}

const DEFAULT_MAX_VISITORS = 10_000;

const NO_TARGETING_KEY =
  'the evaluation context has no targetingKey: pass the visitor id as targetingKey, e.g. client.getBooleanValue(key, false, { targetingKey: userId }).';

/**
 * An OpenFeature provider for `@openfeature/server-sdk` (PROTOCOL.md §18.1) over an SDK instance the
 * application started, in whichever mode it was started (bucketing: flags computed in-process; decision API:
 * one request per new visitor or context):
 *
 * ```ts
 * await Feature.start(envId, apiKey, new ConfigBuilder().withMode(Mode.BUCKETING).build());
 * await OpenFeature.setProviderAndWait(new FeatureServerProvider({ instance: Feature.instance(), hasConsented: true }));
 * await OpenFeature.getClient().getBooleanValue('newCheckout', false, { targetingKey: userId, plan: 'premium' });
 * ```
 *
 * Each `targetingKey` gets one visitor, kept among the most recently evaluated (`maxVisitors`); an evaluation
 * with another context updates it and fetches again. Reasons, variants and metadata are OFREP's (§18), and a
 * value read is an exposure counted once per visitor and variation, as `flag.value()` counts it. When a kept
 * visitor's flags change by themselves (a new bucketing file, a live update), `ConfigurationChanged` lists
 * the keys that changed.
 */
export class FeatureServerProvider {
  /** OpenFeature's provider metadata. */
  readonly metadata = { name: 'feature-ts server' } as const;
  /** The server SDK only: OpenFeature refuses it in the web SDK. */
  readonly runsOn = 'server' as const;
  /** The provider's events (OpenFeature subscribes to them). */
  readonly events = new ProviderEvents<ServerProviderEvents>();

  readonly #instance: FeatureInstance;
  readonly #hasConsented: boolean;
  readonly #visitors: RecentVisitors<KeptVisitor>;
  /** Keys changed since the last `ConfigurationChanged`: a new file changes many visitors at once. */
  readonly #changed = new Set<string>();
  #announce: ReturnType<typeof setTimeout> | null = null;
  #stopWatchingSdk: (() => void) | null = null;

  /** A provider over `options.instance`, which the application starts (and closes). */
  constructor(options: FeatureServerProviderOptions) {
    const max = options.maxVisitors ?? DEFAULT_MAX_VISITORS;
    if (!Number.isSafeInteger(max) || max < 1)
      throw new Error(`FeatureServerProvider: maxVisitors must be an integer ≥ 1, not ${String(max)}.`);
    this.#instance = options.instance;
    this.#hasConsented = options.hasConsented;
    this.#visitors = new RecentVisitors<KeptVisitor>(max, (kept) => kept.stopWatching());
  }

  /** How many visitors the provider keeps now (at most `maxVisitors`). */
  get visitorCount(): number {
    return this.#visitors.size;
  }

  /**
   * The visitor kept for `targetingKey`, if any: to send other hits, change its consent, or fetch its flags
   * again. Asking does not make it more recent.
   */
  getVisitor(targetingKey: string): Visitor | undefined {
    return this.#visitors.peek(targetingKey)?.visitor;
  }

  /** Rejects when the SDK instance was not started: `await Feature.start(…)` comes first. */
  initialize(): Promise<void> {
    if (this.#instance.getStatus() === 'SDK_NOT_INITIALIZED')
      return Promise.reject(
        new Error(
          'FeatureServerProvider: the SDK is not started: await Feature.start(envId, apiKey, config) before setting the provider.',
        ),
      );
    // Visitors belong to the run they were made in: after a close (or a new start) they are made again.
    this.#stopWatchingSdk?.();
    this.#stopWatchingSdk = this.#instance.$status.listen((status) => {
      if (status === 'SDK_NOT_INITIALIZED') this.#visitors.clear();
    });
    return Promise.resolve();
  }

  /** A boolean flag of the context's visitor. */
  resolveBooleanEvaluation(
    flagKey: string,
    defaultValue: boolean,
    context: EvaluationContext,
  ): Promise<ResolutionDetails<boolean>> {
    return this.#resolve(flagKey, defaultValue, context, 'boolean');
  }

  /** A string flag of the context's visitor. */
  resolveStringEvaluation(
    flagKey: string,
    defaultValue: string,
    context: EvaluationContext,
  ): Promise<ResolutionDetails<string>> {
    return this.#resolve(flagKey, defaultValue, context, 'string');
  }

  /** A number flag of the context's visitor. */
  resolveNumberEvaluation(
    flagKey: string,
    defaultValue: number,
    context: EvaluationContext,
  ): Promise<ResolutionDetails<number>> {
    return this.#resolve(flagKey, defaultValue, context, 'number');
  }

  /** An object (or array) flag of the context's visitor. */
  resolveObjectEvaluation<T extends JsonValue>(
    flagKey: string,
    defaultValue: T,
    context: EvaluationContext,
  ): Promise<ResolutionDetails<T>> {
    return this.#resolve(flagKey, defaultValue, context, 'object');
  }

  /**
   * Sends an EVENT hit of the context's visitor: category Action Tracking, action `trackingEventName`, value
   * `details.value` when it is an integer ≥ 0. Without a `targetingKey` there is no visitor, and nothing is sent.
   */
  track(trackingEventName: string, context: EvaluationContext, details?: TrackingEventDetails): void {
    const who = visitorOfContext(context);
    if (who === null) return;
    void this.#keep(who).visitor.sendHit(trackingEvent(trackingEventName, details));
  }

  /** Drops the visitors and stops watching them. The SDK instance is the application's: it stays started. */
  onClose(): Promise<void> {
    if (this.#announce !== null) clearTimeout(this.#announce);
    this.#announce = null;
    this.#stopWatchingSdk?.();
    this.#stopWatchingSdk = null;
    this.#visitors.clear();
    return Promise.resolve();
  }

  async #resolve<T extends FlagValue>(
    key: string,
    defaultValue: T,
    context: EvaluationContext,
    type: 'boolean' | 'string' | 'number' | 'object',
  ): Promise<ResolutionDetails<T>> {
    const who = visitorOfContext(context);
    if (who === null)
      return {
        value: defaultValue,
        reason: 'ERROR',
        errorCode: TARGETING_KEY_MISSING,
        errorMessage: NO_TARGETING_KEY,
      };
    const kept = this.#keep(who);
    if (this.#needsFetch(kept.visitor)) {
      kept.fetch ??= this.#fetch(kept);
      await kept.fetch;
    }
    return resolveFlag(kept.visitor, key, defaultValue, type);
  }

  /** The kept visitor of `who`, made or given `who`'s context. */
  #keep(who: VisitorOfContext): KeptVisitor {
    const digest = contextDigest(who.context);
    const kept = this.#visitors.get(who.visitorId);
    if (kept !== undefined) {
      if (kept.digest !== digest) {
        applyContext(kept.visitor, kept.context, who.context);
        kept.context = who.context;
        kept.digest = digest;
        // A fetch in flight was for the old context: the next evaluation starts its own.
        kept.fetch = null;
      }
      return kept;
    }
    const visitor = this.#instance
      .newVisitor({
        visitorId: who.visitorId,
        hasConsented: this.#hasConsented,
        instanceType: Instance.NEW_INSTANCE,
      })
      .withContext(who.context)
      .build();
    const made: KeptVisitor = {
      visitor,
      context: who.context,
      digest,
      fetch: null,
      own: 0,
      fetched: false,
      flags: visitor.$flags.get(),
      stopWatching: () => undefined,
    };
    made.stopWatching = visitor.$flags.listen((flags) => this.#flagsChanged(made, flags));
    this.#visitors.set(who.visitorId, made);
    return made;
  }

  /**
   * Whether an evaluation must fetch first: the visitor's flags are not fetched for its context, or it is in
   * panic while the SDK no longer is (another visitor's answer ended the panic).
   */
  #needsFetch(visitor: Visitor): boolean {
    const status = visitor.flagStatus;
    if (status === 'FETCHED') return false;
    if (status === 'PANIC') return this.#instance.getStatus() !== 'SDK_PANIC';
    return true;
  }

  #fetch(kept: KeptVisitor): Promise<void> {
    kept.own++;
    const fetching: Promise<void> = kept.visitor
      .fetchFlags()
      .then(() => {
        kept.fetched = true;
      })
      .finally(() => {
        kept.own--;
        if (kept.fetch === fetching) kept.fetch = null;
      });
    return fetching;
  }

  #flagsChanged(kept: KeptVisitor, flags: FlagsSnapshot): void {
    const before = kept.flags;
    kept.flags = flags;
    if (kept.own > 0 || !kept.fetched) return;
    for (const key of changedFlags(before, flags)) this.#changed.add(key);
    if (this.#changed.size === 0 || this.#announce !== null) return;
    // One event for the changes of one moment: a new bucketing file re-evaluates every kept visitor.
    this.#announce = setTimeout(() => {
      this.#announce = null;
      const flagsChanged = [...this.#changed];
      this.#changed.clear();
      this.events.emit(SERVER_CONFIGURATION_CHANGED, { flagsChanged });
    }, 0);
  }
}

import { atom, type ReadableAtom, type WritableAtom } from 'nanostores';
import { buildFlags } from '../../engine/flags.js';
import {
  CONTEXT_LIMITS,
  SDK_NAME,
  SDK_VERSION,
  type ContextValue,
  type DecisionCampaign,
  type VisitorContext,
} from '../../protocol/index.js';
import { predefinedValueProblem, type FeatureContextKey, type FeatureContextValue } from './context-keys.js';
import { parseDecision } from '../decision/api.js';
import type { DecisionInput, DecisionOutcome } from '../decision/source.js';
import { FlagCollection } from '../flags/flag-collection.js';
import type { FlagEntry, FlagHost, FlagsSnapshot } from '../flags/flag-entry.js';
import { Flag } from '../flags/flag.js';
import type { Runtime } from './runtime.js';
import { FetchFlagsRequiredStatusReason as Reason, FlagStatus, FSSdkStatus } from '../status.js';
import type { HitProtocol } from '../tracking/hits.js';
import { consentHit } from '../tracking/sdk-hits.js';
import type { TrackedHit, TrackedVisitor } from '../tracking/tracker.js';
import { VisitorCacheLink } from './visitor-cache-link.js';
import { applyContext } from './visitor-context.js';
import { sameContext } from './same-context.js';

const NO_FLAGS: FlagsSnapshot = new Map();
const NEVER_FETCHED: VisitorFlagState = Object.freeze({
  status: FlagStatus.FETCH_REQUIRED,
  reason: Reason.FLAGS_NEVER_FETCHED,
});

/** A visitor's flag status and the reason flags must be fetched (SPEC.md States; PROTOCOL.md §16.2). */
export interface VisitorFlagState {
  readonly status: FlagStatus;
  readonly reason: Reason;
}

/** What `VisitorBuilder.build()` gives the visitor. */
export interface VisitorInit {
  visitorId: string;
  hasConsented: boolean;
  isAuthenticated: boolean;
  context: Readonly<Record<string, unknown>>;
  /** `VisitorBuilder.withInitialFlags`: a decision to read before any fetch (unchecked: parsed here). */
  initialDecision?: unknown;
}

/**
 * A visitor (SPEC.md `Visitor`): an id, consent, authentication, a context, and the flags decided for them.
 * Made with `Feature.newVisitor(...).build()`. `$flags` and `$flagStatus` are nanostores atoms that hold
 * immutable snapshots, for UIs to watch.
 */
export class Visitor implements FlagHost {
  #id: string;
  #anonymous: string | null = null;
  #consent: boolean;
  #authenticated: boolean;
  #ctx: VisitorContext;
  /** The frozen view `context` returns, rebuilt only after the context or the id changed: every exposing flag
   * read hands the context to the tracker, so building a copy per read would tax the hot path. */
  #contextView: Readonly<VisitorContext> | null = null;
  /** Whether the flags held came from a cache; undefined until flags were first set (fetched or cached). */
  #flagsFromCache: boolean | undefined;
  #fetchSeq = 0;
  #waiters: Array<() => void> = [];
  #pendingReason: Reason | null = null;
  #watched = false;
  #fetchStarted = false;
  #segmentSent: Readonly<VisitorContext> | null = null;
  // The current flags and flag state, read on every flag read. Their atoms are made when first asked for: a
  // server building a visitor per request seldom watches them, and two atoms per visitor were a tenth of an
  // assignment's allocations.
  #flags: FlagsSnapshot = NO_FLAGS;
  #state: VisitorFlagState = NEVER_FETCHED;
  #flagsAtom: WritableAtom<FlagsSnapshot> | undefined;
  #stateAtom: WritableAtom<VisitorFlagState> | undefined;
  /**
   * The `Flag` of each key read since `$flags` got its snapshot, replaced with it (`#setFlags`): a read allocates
   * nothing, and keys a page reads that the flags lack stay only until the next snapshot.
   */
  #flagCache = new Map<string, Flag>();
  readonly #cache: VisitorCacheLink;

  /** The visitor's current flags (an immutable snapshot, replaced on every change). */
  get $flags(): ReadableAtom<FlagsSnapshot> {
    return (this.#flagsAtom ??= atom(this.#flags));
  }

  /** The visitor's flag status and fetch reason. */
  get $flagStatus(): ReadableAtom<VisitorFlagState> {
    return (this.#stateAtom ??= atom(this.#state));
  }

  readonly #runtime: Runtime;

  /** Use `Feature.newVisitor(...).build()`. */
  constructor(runtime: Runtime, init: VisitorInit) {
    this.#runtime = runtime;
    this.#id = init.visitorId;
    this.#consent = init.hasConsented;
    this.#authenticated = init.isAuthenticated;
    this.#ctx = { ...runtime.device };
    this.#applyContextEntries(Object.entries(init.context));
    const initial = init.initialDecision === undefined ? null : this.#initialFlags(init.initialDecision);
    this.#cache = new VisitorCacheLink(runtime, (data) => {
      // PROTOCOL.md §16.2: flags from the creation lookup apply only while nothing was fetched, and never
      // over initial flags, which a server decided for this page view.
      if (initial !== null || this.#fetchStarted || this.#id !== data.visitorId) return;
      this.#setFlags(data.campaigns, true);
      this.#setState(FlagStatus.FETCH_REQUIRED, Reason.FLAGS_FETCHED_FROM_CACHE);
    });
    this.#cache.lookupAtCreation(this.#id);
    void this.#sendConsentHit();
    runtime.usage(this.#id);
  }

  /** The current id: the authenticated id after `authenticate`. */
  get visitorId(): string {
    return this.#id;
  }

  /** The anonymous id of an authenticated visitor (experience continuity), else null. */
  get anonymousId(): string | null {
    return this.#anonymous;
  }

  /** Whether the visitor consented to tracking. */
  get hasConsented(): boolean {
    return this.#consent;
  }

  /** Whether the visitor is authenticated. */
  get isAuthenticated(): boolean {
    return this.#authenticated;
  }

  /** A read-only copy of the context as sent, `fs_client`, `fs_version` and `fs_users` included. */
  get context(): Readonly<VisitorContext> {
    // Object.assign, not a spread: V8 spread a context built key by key in 4-12 us (every new visitor reads
    // this once), and copies it in under 1 us. The context holds no key that assigning would treat apart
    // (`__proto__` is refused, applyContext).
    return (this.#contextView ??= Object.freeze(
      Object.assign({}, this.#ctx, { fs_client: SDK_NAME, fs_version: SDK_VERSION, fs_users: this.#id }),
    ));
  }

  /** FETCHED, FETCHING, FETCH_REQUIRED or PANIC. */
  get flagStatus(): FlagStatus {
    return this.#state.status;
  }

  /** Why flags must be fetched; NONE when FETCHED, FETCHING or PANIC. */
  get fetchReasons(): Reason {
    return this.#state.reason;
  }

  /** Sets one context value (string, boolean or finite number); a refused one is logged with the reason. */
  updateContext(key: string, value: ContextValue): void {
    this.#contextCall([[key, value]]);
  }

  /** Sets several context values; refused ones are logged with the reason, the rest applied. */
  updateContextWithMap(context: Readonly<Record<string, ContextValue>>): void {
    const given: unknown = context;
    if (typeof given !== 'object' || given === null) {
      this.#runtime.logger.error('updateContextWithMap takes an object.');
      return;
    }
    this.#contextCall(Object.entries(context));
  }

  /** Sets a predefined context key (`FeatureContext`), whose value type is checked. */
  updateFeatureContext<K extends FeatureContextKey>(key: K, value: FeatureContextValue<K>): void {
    const problem =
      typeof key === 'object' && typeof key.key === 'string'
        ? predefinedValueProblem(key, value)
        : 'updateFeatureContext takes a FeatureContext key';
    if (problem !== null) this.#runtime.logger.error(`context refused: ${problem}.`);
    else this.#contextCall([[key.key, value]]);
  }

  /** Removes the application's context keys; keeps the SDK's (`sdk_*` auto-set ones and `fs_*`). */
  clearContext(): void {
    if (this.#ignoredInPanic('clearContext')) return;
    const cleared: VisitorContext = { ...this.#runtime.device };
    if (sameContext(cleared, this.#ctx)) return;
    this.#ctx = cleared;
    this.#contextView = null;
    this.#requireFetch(Reason.VISITOR_CONTEXT_UPDATED);
  }

  /**
   * Fetches the visitor's flags for the context as it is now. Overlapping calls: only the latest call's answer
   * is applied and every promise resolves once the latest has settled, so after `await fetchFlags()` the flags
   * reflect the latest context. Never rejects: on failure the visitor keeps its last flags (PROTOCOL.md §9.4).
   */
  fetchFlags(): Promise<void> {
    const seq = ++this.#fetchSeq;
    const input: DecisionInput = {
      visitorId: this.#id,
      anonymousId: this.#anonymous,
      context: this.context,
      hasConsented: this.#consent,
      assignments: {},
    };
    const done = new Promise<void>((resolve) => this.#waiters.push(resolve));
    void this.#runFetch(seq, input);
    return done;
  }

  /**
   * The flag for `key`; an empty flag (`exists()` false) when none matches. Live: reads current flags. The same
   * object for a key until the flags change (a fetch, a cache lookup, panic), then a new one.
   */
  getFlag(key: string): Flag {
    // `set` returns the map: the lookup after it is the miss path only, and keeps the hot path one `get`.
    return this.#flagCache.get(key) ?? (this.#flagCache.set(key, new Flag(this, key)).get(key) as Flag);
  }

  /** Every current flag. */
  getFlags(): FlagCollection {
    return new FlagCollection(
      this.#inPanic() ? [] : [...this.#flags.keys()].map((k) => [k, this.getFlag(k)]),
    );
  }

  /**
   * Sets consent. False drops the visitor's pooled hits and activations, calls `flushVisitor`, then sends the
   * `fs_consent` event, the one hit sent while consent is false (PROTOCOL.md §5.1).
   */
  async setConsent(hasConsented: boolean): Promise<void> {
    if (typeof hasConsented !== 'boolean') {
      this.#runtime.logger.error('setConsent takes a boolean.');
      return;
    }
    const changed = hasConsented !== this.#consent;
    this.#consent = hasConsented;
    if (!hasConsented) {
      // Only a withdrawal drops pooled items: when consent was already false, the pool holds nothing of this
      // visitor but its own fs_consent event, which must still go out.
      if (changed) {
        await this.#runtime.tracker.dropVisitor(this.#id, this).catch(() => undefined);
      }
      await this.#cache.flush(this.#id);
    }
    if (changed) await this.#sendConsentHit();
  }

  /**
   * Turns the anonymous visitor into the authenticated visitor `visitorId`; call `fetchFlags` afterwards.
   * Keeps the previous variations only when experience continuity is enabled for the environment.
   */
  authenticate(visitorId: string): void {
    if (this.#ignoredInPanic('authenticate')) return;
    if (
      typeof visitorId !== 'string' ||
      visitorId === '' ||
      visitorId.length > CONTEXT_LIMITS.maxVisitorIdLength
    ) {
      this.#runtime.logger.error(
        `authenticate takes a visitor id of 1 to ${CONTEXT_LIMITS.maxVisitorIdLength} characters.`,
      );
      return;
    }
    if (!this.#runtime.xpcEnabled())
      this.#runtime.logger.warning(
        'experience continuity is off: variations may change after authenticate.',
        'xpc-off',
      );
    if (!this.#authenticated) this.#anonymous = this.#id;
    this.#id = visitorId;
    this.#contextView = null;
    this.#authenticated = true;
    this.#cache.lookupOnAuthenticate(visitorId, this.#anonymous);
    this.#requireFetch(Reason.VISITOR_AUTHENTICATED);
  }

  /** Turns the authenticated visitor back into its anonymous id; call `fetchFlags` afterwards. */
  unauthenticate(): void {
    if (this.#ignoredInPanic('unauthenticate')) return;
    if (!this.#authenticated || this.#anonymous === null) {
      this.#runtime.logger.error(
        'unauthenticate needs a visitor that authenticate() turned from anonymous to authenticated.',
      );
      return;
    }
    this.#id = this.#anonymous;
    this.#contextView = null;
    this.#anonymous = null;
    this.#authenticated = false;
    this.#cache.lookupOnAuthenticate(this.#id, null);
    this.#requireFetch(Reason.VISITOR_UNAUTHENTICATED);
  }

  /**
   * Sends a Screen, Page, Transaction, Item or Event hit. Nothing is sent while consent is false or in panic,
   * or when `hit.validate()` names a problem (all logged).
   */
  async sendHit(hit: HitProtocol): Promise<void> {
    const { logger: logger, tracker: tracker } = this.#runtime;
    if (!this.#consent) return logger.info(`hit not sent: visitor "${this.#id}" has not consented.`);
    if (this.#inPanic()) return logger.info('hit not sent: the SDK is in panic mode.');
    await tracker.sendHit(this.#tracked(), hit).catch((error: unknown) => {
      logger.error(`hit not sent: ${String(error)}`);
    });
  }

  /** @internal FlagHost: the flags in use. */
  flags(): FlagsSnapshot | undefined {
    return this.#inPanic() ? undefined : this.#flags;
  }

  /** @internal FlagHost: the visitor's side of a flag status (PROTOCOL.md §16.3). */
  flagsState(): FlagStatus {
    if (this.#inPanic()) return FlagStatus.PANIC;
    return this.#state.status === FlagStatus.FETCHED ? FlagStatus.FETCHED : FlagStatus.FETCH_REQUIRED;
  }

  /** @internal FlagHost: reports an exposure, unless consent is false. */
  expose(entry: FlagEntry, defaultValue: unknown): Promise<void> {
    if (!this.#consent) {
      this.#runtime.logger.info(
        `exposure not reported: visitor "${this.#id}" has not consented.`,
        `expose:${this.#id}`,
      );
      return Promise.resolve();
    }
    const exposure = { visitor: this.#tracked(), context: this.context, entry, defaultValue };
    return this.#runtime.tracker.expose(this, exposure);
  }

  /** @internal FlagHost. */
  warnOnce(message: string, onceKey: string): void {
    this.#runtime.logger.warning(message, onceKey);
  }

  /** @internal FlagHost: one warning per key and SDK instance, with the keys known (at most 10 listed). */
  missing(key: string): void {
    if (this.#flagsFromCache === undefined || this.#inPanic()) return;
    this.#runtime.logger.warning(() => {
      const keys = [...this.#flags.keys()];
      return `flag "${key}" not found for visitor "${this.#id}"; known keys: ${keys.slice(0, 10).join(', ')}${keys.length > 10 ? ', …' : ''}`;
    }, `missing:${key}`);
  }

  /** The campaigns of an initial decision, applied now; null (logged) when it cannot be used. */
  #initialFlags(given: unknown): DecisionCampaign[] | null {
    const decision = parseDecision(given);
    const problem =
      decision === null
        ? 'it is not a decision body (PROTOCOL.md §3)'
        : decision.panic === true
          ? 'it is in panic'
          : decision.visitorId !== '' && decision.visitorId !== this.#id
            ? `it is for visitor "${decision.visitorId}", not "${this.#id}"`
            : null;
    if (problem !== null || decision === null) {
      this.#runtime.logger.warning(`initial flags ignored: ${problem ?? ''}.`, `initial:${this.#id}`);
      return null;
    }
    this.#setFlags(decision.campaigns, true);
    this.#setState(FlagStatus.FETCH_REQUIRED, Reason.FLAGS_FETCHED_FROM_CACHE);
    return decision.campaigns;
  }

  // `value`, not `get()`: on a store nobody listens to, `get()` subscribes and unsubscribes, and every flag read
  // comes here.
  #inPanic(): boolean {
    return this.#state.status === FlagStatus.PANIC || this.#runtime.status() === FSSdkStatus.SDK_PANIC;
  }

  #ignoredInPanic(call: string): boolean {
    if (this.#state.status !== FlagStatus.PANIC) return false;
    this.#runtime.logger.warning(`${call} ignored in panic mode: call fetchFlags.`, `panic:${call}`);
    return true;
  }

  #tracked(): TrackedVisitor {
    return { visitorId: this.#id, anonymousId: this.#anonymous, authenticated: this.#authenticated };
  }

  #setState(status: FlagStatus, reason: Reason): void {
    const now = this.#state;
    if (now.status === status && now.reason === reason) return;
    this.#state = { status, reason };
    this.#stateAtom?.set(this.#state);
  }

  #setFlags(
    campaigns: readonly DecisionCampaign[],
    fromCache: boolean,
    flags: FlagsSnapshot = buildFlags(campaigns, this.#runtime.flagsOf),
  ): void {
    this.#flagsFromCache = fromCache;
    this.#flagCache = new Map();
    this.#flags = flags;
    this.#flagsAtom?.set(flags);
  }

  /** PROTOCOL.md §16.2: a change while FETCHING waits for the answer; else FETCH_REQUIRED with the latest cause. */
  #requireFetch(reason: Reason): void {
    if (this.#state.status === FlagStatus.FETCHING) this.#pendingReason = reason;
    else this.#setState(FlagStatus.FETCH_REQUIRED, reason);
  }

  #contextCall(entries: Array<[unknown, unknown]>): void {
    if (this.#ignoredInPanic('context update')) return;
    if (this.#applyContextEntries(entries)) this.#requireFetch(Reason.VISITOR_CONTEXT_UPDATED);
  }

  #applyContextEntries(entries: Array<[unknown, unknown]>): boolean {
    const { changed, refused } = applyContext(this.#ctx, entries);
    if (changed) this.#contextView = null;
    for (const message of refused) this.#runtime.logger.error(message);
    return changed;
  }

  async #sendConsentHit(): Promise<void> {
    if (!this.#inPanic() && !this.#runtime.closed()) await this.#queue(consentHit(this.#consent));
  }

  /** Hands a hit the SDK makes itself to the tracker; a failure (its chunk did not load) is logged. */
  #queue(hit: TrackedHit): Promise<void> {
    return this.#runtime.tracker.addHit(this.#tracked(), hit).catch((error: unknown) => {
      this.#runtime.logger.error(`the ${hit.type} hit was not queued: ${String(error)}`);
    });
  }

  async #runFetch(seq: number, input: DecisionInput): Promise<void> {
    const runtime = this.#runtime;
    try {
      await this.#cache.settled();
      if (seq !== this.#fetchSeq) return; // a later call supersedes this one before it started
      if (runtime.closed()) {
        runtime.logger.error('fetchFlags: the SDK is closed; call Feature.start first.');
        return;
      }
      if (!this.#watched) {
        this.#watched = true;
        runtime.source.watch?.(this);
      }
      this.#pendingReason = null;
      this.#fetchStarted = true;
      this.#setState(FlagStatus.FETCHING, Reason.NONE);
      const decided: DecisionInput = { ...input, assignments: this.#cache.history() };
      const outcome = await runtime.source.decide(decided);
      if (seq !== this.#fetchSeq) return; // an older answer arriving late is dropped
      if (!outcome.ok) {
        runtime.logger.error(`fetchFlags failed: ${outcome.reason}`);
        this.#setState(
          FlagStatus.FETCH_REQUIRED,
          this.#flagsFromCache ? Reason.FLAGS_FETCHED_FROM_CACHE : Reason.FLAGS_FETCHING_ERROR,
        );
        return;
      }
      await this.#apply(outcome, decided);
    } finally {
      if (seq === this.#fetchSeq) for (const resolve of this.#waiters.splice(0)) resolve();
    }
  }

  async #apply(
    { decision, newAssignments, flags }: DecisionOutcome & { ok: true },
    input: DecisionInput,
  ): Promise<void> {
    this.#runtime.learn(decision);
    if (decision.panic === true) {
      // Panic forces defaults over known flags (PROTOCOL.md §9.4).
      this.#setFlags([], false);
      this.#setState(FlagStatus.PANIC, Reason.NONE);
      return;
    }
    this.#setFlags(decision.campaigns, false, flags);
    const pending = this.#pendingReason;
    this.#pendingReason = null;
    if (pending !== null) this.#setState(FlagStatus.FETCH_REQUIRED, pending);
    else this.#setState(FlagStatus.FETCHED, Reason.NONE);
    if (!this.#consent) return;
    await this.#cache.write(input, decision.campaigns, newAssignments);
    await this.#sendSegment(input.context);
  }

  /**
   * In bucketing mode no request reaches the server that would store the context (the decision API stores it
   * as a SEGMENT hit, PROTOCOL.md §3), so the visitor sends it itself, once per changed context: the source
   * that needs it makes the hit.
   */
  async #sendSegment(context: Readonly<VisitorContext>): Promise<void> {
    const source = this.#runtime.source;
    if (source.contextHit === undefined) return;
    if (this.#segmentSent !== null && sameContext(this.#segmentSent, context)) return;
    this.#segmentSent = context;
    await this.#queue(source.contextHit(context));
  }
}

import type { ReadableAtom } from 'nanostores';
import type { ContextValue, VisitorContext } from '../../protocol/index.js';
import { FlagCollection } from '../flags/flag-collection.js';
import type { FlagEntry, FlagHost, FlagsSnapshot } from '../flags/flag-entry.js';
import type { Flag } from '../flags/flag.js';
import { CacheMode, FetchFlagsRequiredStatusReason as Reason, FlagStatus } from '../status.js';
import type { HitProtocol } from '../tracking/hits.js';
import { consentHit } from '../tracking/sdk-hits.js';
import { predefinedValueProblem, type FeatureContextKey, type FeatureContextValue } from './context-keys.js';
import { atMost, type Runtime } from './runtime.js';
import { VisitorCacheLink } from './visitor-cache-link.js';
import { VisitorFetch } from './visitor-fetch.js';
import { VisitorFlags, type VisitorFlagState } from './visitor-flags.js';
import { VisitorIdentity } from './visitor-identity.js';

export type { VisitorFlagState } from './visitor-flags.js';

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
  // The three concepts a visitor is made of: who it is (id, consent, context), the flags it holds and their
  // status, and its fetches. This class is their public face and checks panic and consent in between.
  readonly #identity: VisitorIdentity;
  readonly #flags: VisitorFlags;
  readonly #fetch: VisitorFetch;
  readonly #cache: VisitorCacheLink;
  readonly #runtime: Runtime;
  /** The creation `fs_consent` event, decided once the cache lookup answered: consent changes wait for it. */
  readonly #created: Promise<void>;
  /** Set once a consent change went out: a creation event decided after it would undo it. */
  #creationSuperseded = false;

  /** The visitor's current flags (an immutable snapshot, replaced on every change). */
  get $flags(): ReadableAtom<FlagsSnapshot> {
    return this.#flags.$flags;
  }

  /** The visitor's flag status and fetch reason. */
  get $flagStatus(): ReadableAtom<VisitorFlagState> {
    return this.#flags.$flagStatus;
  }

  /** Use `Feature.newVisitor(...).build()`. */
  constructor(runtime: Runtime, init: VisitorInit) {
    this.#runtime = runtime;
    const identity = (this.#identity = new VisitorIdentity(runtime, init));
    identity.applyEntries(Object.entries(init.context));
    const flags = (this.#flags = new VisitorFlags(runtime));
    const initial =
      init.initialDecision === undefined ? null : flags.setInitial(init.initialDecision, identity.id);
    const cache = (this.#cache = new VisitorCacheLink(runtime, (data) => {
      // PROTOCOL.md §16.2: flags from the creation lookup apply only while nothing was fetched, and never
      // over initial flags, which a server decided for this page view.
      if (initial !== null || this.#fetch.started || identity.id !== data.visitorId) return;
      // CacheMode.NETWORK_FIRST (§17): no kept variation shows before the network answers; the kept copy waits
      // for a failed fetch (visitor-fetch.ts).
      if (runtime.options.cacheMode === CacheMode.NETWORK_FIRST) this.#fetch.fallback = data;
      else flags.setKept(data.campaigns);
    }));
    this.#fetch = new VisitorFetch(runtime, identity, flags, cache);
    cache.lookupAtCreation(identity.id);
    this.#created = this.#sendCreationConsent(identity.id, identity.consent);
    runtime.hold(this.#created);
    runtime.usage(identity.id);
  }

  /** The current id: the authenticated id after `authenticate`. */
  get visitorId(): string {
    return this.#identity.id;
  }

  /** The anonymous id of an authenticated visitor (experience continuity), else null. */
  get anonymousId(): string | null {
    return this.#identity.anonymousId;
  }

  /** Whether the visitor consented to tracking. */
  get hasConsented(): boolean {
    return this.#identity.consent;
  }

  /** Whether the visitor is authenticated. */
  get isAuthenticated(): boolean {
    return this.#identity.authenticated;
  }

  /** A read-only copy of the context as sent, `fs_client`, `fs_version` and `fs_users` included. */
  get context(): Readonly<VisitorContext> {
    return this.#identity.context;
  }

  /** FETCHED, FETCHING, FETCH_REQUIRED or PANIC. */
  get flagStatus(): FlagStatus {
    return this.#flags.state.status;
  }

  /** Why flags must be fetched; NONE when FETCHED, FETCHING or PANIC. */
  get fetchReasons(): Reason {
    return this.#flags.state.reason;
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
    if (this.#flags.ignoredInPanic('clearContext')) return;
    if (this.#identity.clear()) this.#fetch.requireFetch(Reason.VISITOR_CONTEXT_UPDATED);
  }

  /**
   * Fetches the visitor's flags for the context as it is now. Overlapping calls: only the latest call's answer
   * is applied and every promise resolves once the latest has settled, so after `await fetchFlags()` the flags
   * reflect the latest context. Never rejects: on failure the visitor keeps its last flags (PROTOCOL.md §9.4).
   */
  fetchFlags(): Promise<void> {
    return this.#fetch.fetch(this);
  }

  /**
   * The flag for `key`; an empty flag (`exists()` false) when none matches. Live: reads current flags. The same
   * object for a key until the flags change (a fetch, a cache lookup, panic), then a new one.
   */
  getFlag(key: string): Flag {
    return this.#flags.flag(key, this);
  }

  /** Every current flag. */
  getFlags(): FlagCollection {
    return new FlagCollection(
      this.#flags.inPanic() ? [] : [...this.#flags.snapshot.keys()].map((k) => [k, this.getFlag(k)]),
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
    const identity = this.#identity;
    const changed = hasConsented !== identity.consent;
    // At once: from this call on no hit or exposure of this visitor passes the consent check, whatever the
    // cache lookup or the tracker's loading still waits for.
    identity.consent = hasConsented;
    // The creation event is decided before the change goes out, the SDK's timeout at most (a cache lookup that
    // never answers): one decided later would go out after the change and undo it, so it is not sent then.
    await atMost(this.#created, this.#runtime.options.timeout);
    if (changed) this.#creationSuperseded = true;
    if (!hasConsented) {
      // Only a withdrawal drops pooled items: when consent was already false, the pool holds nothing of this
      // visitor but its own fs_consent event, which must still go out.
      if (changed) {
        await this.#runtime.tracker.dropVisitor(identity.id, this).catch(() => undefined);
        // A SEGMENT hit still pooled was dropped with the rest: the context is sent again after consent.
        this.#runtime.repeats.forget(identity.id, 'context');
      }
      await this.#cache.flush(identity.id);
    }
    if (changed) await this.#sendConsentHit();
  }

  /**
   * Turns the anonymous visitor into the authenticated visitor `visitorId`; call `fetchFlags` afterwards.
   * Keeps the previous variations only when experience continuity is enabled for the environment.
   */
  authenticate(visitorId: string): void {
    if (this.#flags.ignoredInPanic('authenticate')) return;
    const identity = this.#identity;
    if (!identity.authenticate(visitorId)) return;
    this.#cache.lookupOnAuthenticate(visitorId, identity.anonymousId);
    this.#fetch.requireFetch(Reason.VISITOR_AUTHENTICATED);
  }

  /** Turns the authenticated visitor back into its anonymous id; call `fetchFlags` afterwards. */
  unauthenticate(): void {
    if (this.#flags.ignoredInPanic('unauthenticate')) return;
    if (!this.#identity.unauthenticate()) return;
    this.#cache.lookupOnAuthenticate(this.#identity.id, null);
    this.#fetch.requireFetch(Reason.VISITOR_UNAUTHENTICATED);
  }

  /**
   * Sends a Screen, Page, Transaction, Item or Event hit. Nothing is sent while consent is false or in panic,
   * or when `hit.validate()` names a problem (all logged).
   */
  async sendHit(hit: HitProtocol): Promise<void> {
    const { logger, tracker } = this.#runtime;
    const identity = this.#identity;
    if (!identity.consent) return logger.info(`hit not sent: visitor "${identity.id}" has not consented.`);
    if (this.#flags.inPanic()) return logger.info('hit not sent: the SDK is in panic mode.');
    await tracker.sendHit(identity.tracked(), hit).catch((error: unknown) => {
      logger.error(`hit not sent: ${String(error)}`);
    });
  }

  /** @internal FlagHost: the flags in use. */
  flags(): FlagsSnapshot | undefined {
    return this.#flags.inPanic() ? undefined : this.#flags.snapshot;
  }

  /** @internal FlagHost: the visitor's side of a flag status (PROTOCOL.md §16.3). */
  flagsState(): FlagStatus {
    if (this.#flags.inPanic()) return FlagStatus.PANIC;
    return this.#flags.state.status === FlagStatus.FETCHED ? FlagStatus.FETCHED : FlagStatus.FETCH_REQUIRED;
  }

  /** @internal FlagHost: reports an exposure, unless consent is false. */
  expose(entry: FlagEntry, defaultValue: unknown): Promise<void> {
    const identity = this.#identity;
    if (!identity.consent) {
      this.#runtime.logger.info(
        `exposure not reported: visitor "${identity.id}" has not consented.`,
        `expose:${identity.id}`,
      );
      return Promise.resolve();
    }
    const exposure = { visitor: identity.tracked(), context: identity.context, entry, defaultValue };
    return this.#runtime.tracker.expose(this, exposure);
  }

  /** @internal FlagHost. */
  warnOnce(message: string, onceKey: string): void {
    this.#runtime.logger.warning(message, onceKey);
  }

  /** @internal FlagHost: one warning per key and SDK instance, with the keys known (at most 10 listed). */
  missing(key: string): void {
    this.#flags.missing(key, this.#identity.id);
  }

  #contextCall(entries: Array<[unknown, unknown]>): void {
    if (this.#flags.ignoredInPanic('context update')) return;
    if (this.#identity.applyEntries(entries)) this.#fetch.requireFetch(Reason.VISITOR_CONTEXT_UPDATED);
  }

  /**
   * The creation `fs_consent` event, unless this visitor id sent the same value within 30 minutes (PROTOCOL.md
   * §5.1 Repeats): decided after the cache lookup, which tells what an earlier page view or process sent. The
   * hit goes to the tracker, which is loaded after the first render, so the wait delays nothing on screen. A
   * visitor of an SDK closed meanwhile still sends it (`Runtime.hold` keeps the tracker open for it).
   */
  async #sendCreationConsent(visitorId: string, consent: boolean): Promise<void> {
    if (this.#runtime.closed()) return;
    const who = this.#identity.tracked(); // as built: an authenticate() meanwhile does not change whose it is
    await this.#cache.settled();
    if (this.#flags.inPanic() || this.#creationSuperseded) return;
    const repeats = this.#runtime.repeats;
    // Not logged: a server building a visitor per request would write a line per request.
    if (repeats.repeatsConsent(visitorId, consent)) return;
    repeats.mark(visitorId, 'consent', consent);
    await this.#identity.queue(consentHit(consent), who);
  }

  /** A consent change: always sent (PROTOCOL.md §5.1), and remembered as the last value this id sent. */
  async #sendConsentHit(): Promise<void> {
    const identity = this.#identity;
    if (this.#flags.inPanic() || this.#runtime.closed()) return;
    this.#runtime.repeats.mark(identity.id, 'consent', identity.consent);
    await identity.queue(consentHit(identity.consent));
  }
}

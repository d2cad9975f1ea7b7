// The working part of <feature-provider>: one SDK instance of its own (never the global `Feature`), the visitor
// it builds, and the atoms its subtree binds to. The element only turns attributes into the two settings
// objects of provider-settings.ts and forwards its events. Its atoms follow the SDK's (`visitor.$flags`, `$flagStatus`, `instance.$status`) rather than being them: the
// first frame shows a bootstrap or the kept copy before the SDK has a visitor (`newVisitor` throws until `start`
// resolves); another `env-id` or `visitor-id` replaces the instance or visitor while the subtree binds once;
// `$ready` and `$consent` have no SDK counterpart; `$flags` is what the cache mode lets the subtree see
// (shown-flags.ts).
import { atom } from 'nanostores';
import {
  CacheMode,
  FeatureInstance,
  FetchFlagsRequiredStatusReason as Reason,
  FlagStatus,
  FSSdkStatus,
  Instance,
  type Decision,
  type HitProtocol,
  type Visitor,
  type VisitorFlagState,
} from '../core/index.js';
import type { ExposureDetail, FeatureClient } from './client-context.js';
import type { FeatureReadyDetail } from './events.js';
import { loadHitBuilders } from './load-hit-builders.js';
import { forgetFlags, keepFlags } from './page-storage.js';
import { sdkConfig, type ClientEvents, type SdkSettings, type VisitorSettings } from './provider-settings.js';
import { ShownFlags } from './shown-flags.js';

const INITIAL_STATE: VisitorFlagState = {
  status: FlagStatus.FETCH_REQUIRED,
  reason: Reason.FLAGS_NEVER_FETCHED,
};

/** True when a visitor's state means its flags are settled: fetched, from a cache, or failed (defaults). */
const settled = ({ status, reason }: VisitorFlagState): boolean =>
  status === FlagStatus.FETCHED ||
  status === FlagStatus.PANIC ||
  reason === Reason.FLAGS_FETCHED_FROM_CACHE ||
  reason === Reason.FLAGS_FETCHING_ERROR;

const sameContext = (a: VisitorSettings['context'], b: VisitorSettings['context']): boolean => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.is(a[k], b[k]));
};

/** One provider's SDK, visitor and atoms. */
export class ProviderClient implements FeatureClient {
  readonly #shown = new ShownFlags((keys) => this.events.changed(keys));
  readonly $flags = this.#shown.$flags;
  readonly $ready = atom(false);
  readonly $flagStatus = atom<VisitorFlagState>(INITIAL_STATE);
  readonly $status = atom<FSSdkStatus>(FSSdkStatus.SDK_NOT_INITIALIZED);
  readonly $consent = atom(false);

  #instance: FeatureInstance | null = null;
  #sdk: SdkSettings | null = null;
  #who: VisitorSettings | null = null;
  #visitor: Visitor | null = null;
  #visitorWaiters: Array<(visitor: Visitor | null) => void> = [];
  #stops: Array<() => void> = [];
  #readyTimer: ReturnType<typeof setTimeout> | undefined;
  #readySent = false;
  #screens = new Set<string>();
  #generation = 0;

  constructor(private readonly events: ClientEvents) {}

  /**
   * Starts (or restarts, when `sdk` changed) with `who` as the visitor; `initial` is a decision to show before
   * any request (a bootstrap script), else the page's kept copy of this visitor's flags is used.
   */
  async start(sdk: SdkSettings, who: VisitorSettings, initial: Decision | null): Promise<void> {
    await this.close();
    const generation = ++this.#generation;
    this.#sdk = sdk;
    this.#who = who;
    this.$consent.set(who.consent);
    this.$flagStatus.set(INITIAL_STATE);
    const first = this.#showFirst(sdk, who.visitorId, initial);

    const instance = new FeatureInstance();
    this.#instance = instance;
    this.#stops.push(
      instance.$status.subscribe((status) => {
        this.$status.set(status);
        this.events.status(status);
      }),
    );
    try {
      await instance.start(sdk.envId, sdk.apiKey, sdkConfig(sdk));
    } catch (error) {
      this.events.failed(error instanceof Error ? error.message : String(error));
      this.#settle(who.visitorId, 'timeout');
      this.#resolveVisitor(null);
      return;
    }
    if (generation !== this.#generation) return;
    // Attribute changes made while the SDK started (consent given, context set) are in `#who` by now; the
    // initial flags still apply only to the visitor they were chosen for.
    const latest = this.#latestWho(who);
    this.#buildVisitor(latest, latest.visitorId !== who.visitorId ? null : first);
  }

  /** Applies a change of the visitor's settings (SPEC.md calls, or a new visitor for another person). */
  async update(who: VisitorSettings): Promise<void> {
    const before = this.#who;
    const visitor = this.#visitor;
    this.#who = who;
    if (before === null || visitor === null) return; // not started yet: `start` reads `#who`
    const sdk = this.#sdk;
    if (sdk === null) return;
    if (before.consent !== who.consent) {
      if (!who.consent) forgetFlags(sdk.envId, visitor.visitorId);
      await visitor.setConsent(who.consent);
      // After the visitor knows: flags and hits waiting for consent report once it is given.
      this.$consent.set(who.consent);
    }
    const idChanged = before.visitorId !== who.visitorId;
    let refetch = false;
    if (who.authenticated && (!before.authenticated || idChanged)) {
      visitor.authenticate(who.visitorId);
      refetch = true;
    } else if (!who.authenticated && before.authenticated) {
      if (visitor.anonymousId === who.visitorId) {
        visitor.unauthenticate();
        refetch = true;
      } else {
        // Signed out to an id that is not the one the visitor signed in from: another person.
        this.#rebuild(who);
        return;
      }
    } else if (idChanged) {
      this.#rebuild(who);
      return;
    }
    if (!sameContext(before.context, who.context)) {
      visitor.clearContext();
      visitor.updateContextWithMap(who.context);
      refetch = true;
    }
    if (refetch) await this.#fetch(visitor);
  }

  /** Fetches the visitor's flags again, as a live update does; resolves once they are applied. */
  async fetchFlags(): Promise<void> {
    const visitor = await this.#visitorReady();
    if (visitor !== null) await this.#fetch(visitor);
  }

  async expose(key: string, defaultValue: unknown, variationId: string): Promise<ExposureDetail | null> {
    const visitor = await this.#visitorReady();
    if (visitor === null) return null;
    const flag = visitor.getFlag(key);
    flag.value(defaultValue, { visitorExposed: false });
    const m = flag.metadata();
    // What the element showed must still be the visitor's variation: else the visitor saw something gone.
    if (m.variationId !== variationId || !visitor.hasConsented) return null;
    await flag.visitorExposed();
    return {
      key,
      campaignId: m.campaignId,
      variationGroupId: m.variationGroupId,
      variationId: m.variationId,
      variationName: m.variationName,
    };
  }

  async sendHit(hit: HitProtocol): Promise<void> {
    const visitor = await this.#visitorReady();
    await visitor?.sendHit(hit);
  }

  async sendScreenOnce(location: string): Promise<void> {
    const visitor = await this.#visitorReady();
    // Without consent nothing is sent, so the screen is still to send once consent is given.
    if (visitor === null || !visitor.hasConsented || this.#screens.has(location)) return;
    this.#screens.add(location);
    await visitor.sendHit((await loadHitBuilders()).screenHit(location));
  }

  /** Sends what is pooled and stops the instance; the atoms keep their last values. */
  async close(): Promise<void> {
    this.#generation++;
    clearTimeout(this.#readyTimer);
    for (const stop of this.#stops.splice(0)) stop();
    const instance = this.#instance;
    this.#instance = null;
    this.#visitor = null;
    this.#resolveVisitor(null);
    await instance?.close();
  }

  #buildVisitor(who: VisitorSettings, initial: Decision | null): void {
    const instance = this.#instance;
    const sdk = this.#sdk;
    if (instance === null || sdk === null) return;
    for (const stop of this.#stops.splice(1)) stop(); // keep the status subscription, drop the old visitor's
    let builder = instance
      .newVisitor({
        visitorId: who.visitorId,
        hasConsented: who.consent,
        instanceType: Instance.NEW_INSTANCE,
      })
      .withContext(who.context)
      .isAuthenticated(who.authenticated);
    if (initial !== null) builder = builder.withInitialFlags(initial);
    const visitor = builder.build();
    this.#visitor = visitor;
    this.#stops.push(
      this.#shown.follow(visitor.$flags, visitor.$flagStatus),
      visitor.$flagStatus.subscribe((state) => {
        this.$flagStatus.set(state);
        const fetched = state.status === FlagStatus.FETCHED;
        // Held back, the creation lookup's cached flags are no answer: flags show once a fetch settles.
        if (settled(state) && !this.#shown.held) this.#settle(visitor.visitorId, fetched ? 'fetch' : 'cache');
        if (fetched && visitor.hasConsented && sdk.cacheMode !== CacheMode.DISABLED)
          keepFlags(sdk.envId, visitor.visitorId, visitor.$flags.get());
      }),
    );
    this.#resolveVisitor(visitor);
    void this.#fetch(visitor);
  }

  /** The visitor settings as they are now: an `await` may have let an update change them (TS cannot see it). */
  #latestWho(fallback: VisitorSettings): VisitorSettings {
    return this.#who ?? fallback;
  }

  #rebuild(who: VisitorSettings): void {
    this.#screens.clear();
    const sdk = this.#sdk;
    if (sdk !== null) this.#buildVisitor(who, this.#showFirst(sdk, who.visitorId, null));
  }

  /**
   * Shows what `sdk.cacheMode` lets a visitor see before its first fetch answers (shown-flags.ts), and arms the
   * timeout; returns the decision shown, which the visitor starts from, or null.
   */
  #showFirst(sdk: SdkSettings, visitorId: string, bootstrap: Decision | null): Decision | null {
    const first = this.#shown.reset(sdk.cacheMode, sdk.envId, visitorId, bootstrap);
    this.#readySent = false;
    this.$ready.set(false);
    if (first !== null) this.#settle(visitorId, bootstrap === null ? 'cache' : 'bootstrap');
    clearTimeout(this.#readyTimer);
    // After the timeout, flags still unknown show what a cache holds, else their defaults (the decision
    // request has the same limit).
    this.#readyTimer = setTimeout(() => {
      if (this.#shown.held) this.#shown.release();
      this.#settle(visitorId, this.$flags.get().size > 0 ? 'cache' : 'timeout');
    }, sdk.timeout);
    return first;
  }

  async #fetch(visitor: Visitor): Promise<void> {
    await visitor.fetchFlags();
    if (this.#visitor !== visitor) return;
    // A failed fetch still settles (defaults or known flags); panic too.
    this.#shown.release(visitor.$flagStatus.get().status !== FlagStatus.FETCH_REQUIRED);
    this.#settle(visitor.visitorId, 'fetch');
  }

  #settle(visitorId: string, source: FeatureReadyDetail['source']): void {
    if (!this.$ready.get()) this.$ready.set(true);
    if (this.#readySent) return;
    this.#readySent = true;
    clearTimeout(this.#readyTimer);
    this.events.ready({ visitorId, source });
  }

  #visitorReady(): Promise<Visitor | null> {
    if (this.#visitor !== null || this.#instance === null) return Promise.resolve(this.#visitor);
    return new Promise((resolve) => this.#visitorWaiters.push(resolve));
  }

  #resolveVisitor(visitor: Visitor | null): void {
    for (const resolve of this.#visitorWaiters.splice(0)) resolve(visitor);
  }
}

import { CONTEXT_LIMITS, SDK_NAME, SDK_VERSION, type VisitorContext } from '../../protocol/index.js';
import type { TrackedHit, TrackedVisitor } from '../tracking/tracker.js';
import type { Runtime } from './runtime.js';
import { sameContext } from './same-context.js';
import { applyContext } from './visitor-context.js';

/**
 * Who a visitor is and what it sends: its id, anonymous id, authentication, consent, and its context with
 * the auto-set keys. The `Visitor` facade checks panic and asks for a fetch when something here changed.
 */
export class VisitorIdentity {
  id: string;
  anonymousId: string | null = null;
  authenticated: boolean;
  consent: boolean;
  #ctx: VisitorContext;
  /** The frozen view `context` returns, rebuilt only after the context or the id changed: every exposing flag
   * read hands the context to the tracker, so building a copy per read would tax the hot path. */
  #view: Readonly<VisitorContext> | null = null;
  readonly #runtime: Runtime;

  constructor(
    runtime: Runtime,
    init: { visitorId: string; hasConsented: boolean; isAuthenticated: boolean },
  ) {
    this.#runtime = runtime;
    this.id = init.visitorId;
    this.consent = init.hasConsented;
    this.authenticated = init.isAuthenticated;
    this.#ctx = { ...runtime.device };
  }

  /** A read-only copy of the context as sent, `fs_client`, `fs_version` and `fs_users` included. */
  get context(): Readonly<VisitorContext> {
    // Object.assign, not a spread: V8 spread a context built key by key in 4-12 us (every new visitor reads
    // this once), and copies it in under 1 us. The context holds no key that assigning would treat apart
    // (`__proto__` is refused, applyContext).
    return (this.#view ??= Object.freeze(
      Object.assign({}, this.#ctx, { fs_client: SDK_NAME, fs_version: SDK_VERSION, fs_users: this.id }),
    ));
  }

  /** Applies context entries under the context rules, logging the refused ones; true when a value changed. */
  applyEntries(entries: Array<[unknown, unknown]>): boolean {
    const { changed, refused } = applyContext(this.#ctx, entries);
    if (changed) this.#view = null;
    for (const message of refused) this.#runtime.logger.error(message);
    return changed;
  }

  /** Keeps only the auto-set keys; true when that changed the context. */
  clear(): boolean {
    const cleared: VisitorContext = { ...this.#runtime.device };
    if (sameContext(cleared, this.#ctx)) return false;
    this.#ctx = cleared;
    this.#view = null;
    return true;
  }

  /** Becomes the authenticated visitor `visitorId`; false (logged) when the id is not one. */
  authenticate(visitorId: string): boolean {
    const logger = this.#runtime.logger;
    if (
      typeof visitorId !== 'string' ||
      visitorId === '' ||
      visitorId.length > CONTEXT_LIMITS.maxVisitorIdLength
    ) {
      logger.error(
        `authenticate takes a visitor id of 1 to ${CONTEXT_LIMITS.maxVisitorIdLength} characters.`,
      );
      return false;
    }
    if (!this.#runtime.xpcEnabled())
      logger.warning('experience continuity is off: variations may change after authenticate.', 'xpc-off');
    if (!this.authenticated) this.anonymousId = this.id;
    this.id = visitorId;
    this.#view = null;
    this.authenticated = true;
    return true;
  }

  /** Turns back into the anonymous id; false (logged) when `authenticate` did not make this visitor one. */
  unauthenticate(): boolean {
    if (!this.authenticated || this.anonymousId === null) {
      this.#runtime.logger.error(
        'unauthenticate needs a visitor that authenticate() turned from anonymous to authenticated.',
      );
      return false;
    }
    this.id = this.anonymousId;
    this.#view = null;
    this.anonymousId = null;
    this.authenticated = false;
    return true;
  }

  /** The visitor as tracked items carry it, as it is now. */
  tracked(): TrackedVisitor {
    return { visitorId: this.id, anonymousId: this.anonymousId, authenticated: this.authenticated };
  }

  /**
   * Hands a hit the SDK makes itself to the tracker, as `visitor`'s (default: as it is now); a failure (its
   * chunk did not load) is logged.
   */
  queue(hit: TrackedHit, visitor: TrackedVisitor = this.tracked()): Promise<void> {
    return this.#runtime.tracker.addHit(visitor, hit).catch((error: unknown) => {
      this.#runtime.logger.error(`the ${hit.type} hit was not queued: ${String(error)}`);
    });
  }
}

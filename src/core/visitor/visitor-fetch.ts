import type { SentContext } from '../decision/sent-context.js';
import type { DecisionInput, DecisionOutcome, Reevaluable } from '../decision/source.js';
import type { TrackedHit } from '../tracking/tracker.js';
import { FetchFlagsRequiredStatusReason as Reason, FlagStatus } from '../status.js';
import type { Runtime } from './runtime.js';
import type { RestoredVisitor, VisitorCacheLink } from './visitor-cache-link.js';
import type { VisitorFlags } from './visitor-flags.js';
import type { VisitorIdentity } from './visitor-identity.js';

/**
 * A visitor's fetches: overlapping calls, the status while one runs (PROTOCOL.md §16.2), applying the answer,
 * and what follows it (the visitor cache record, bucketing mode's SEGMENT hit).
 */
export class VisitorFetch {
  #seq = 0;
  #waiters: Array<() => void> = [];
  #pendingReason: Reason | null = null;
  #watched = false;
  // The last context made a SEGMENT mark: the frozen view is replaced on every change, so a refetch of an
  // unchanged context reuses it (and its digest, once computed).
  #sent: SentContext | null = null;
  /** True once a fetch has begun: flags from the creation lookup no longer apply. */
  started = false;
  /**
   * CacheMode.NETWORK_FIRST: the creation record's flags, applied only if a fetch fails before any flags were
   * applied (PROTOCOL.md §17: the kept copy is used when the network fails or times out).
   */
  fallback: RestoredVisitor | null = null;

  constructor(
    private readonly runtime: Runtime,
    private readonly identity: VisitorIdentity,
    private readonly flags: VisitorFlags,
    private readonly cache: VisitorCacheLink,
  ) {}

  /**
   * Fetches for the visitor as it is now. Overlapping calls: only the latest call's answer is applied and
   * every promise resolves once the latest has settled. Never rejects. `visitor` is what the source
   * re-evaluates when the campaigns change (bucketing mode).
   */
  fetch(visitor: Reevaluable): Promise<void> {
    const seq = ++this.#seq;
    const identity = this.identity;
    const input: DecisionInput = {
      visitorId: identity.id,
      anonymousId: identity.anonymousId,
      context: identity.context,
      hasConsented: identity.consent,
      assignments: {},
    };
    const done = new Promise<void>((resolve) => this.#waiters.push(resolve));
    void this.#run(seq, input, visitor);
    return done;
  }

  /** PROTOCOL.md §16.2: a change while FETCHING waits for the answer; else FETCH_REQUIRED with the latest cause. */
  requireFetch(reason: Reason): void {
    if (this.flags.state.status === FlagStatus.FETCHING) this.#pendingReason = reason;
    else this.flags.setState(FlagStatus.FETCH_REQUIRED, reason);
  }

  async #run(seq: number, input: DecisionInput, visitor: Reevaluable): Promise<void> {
    const { runtime, flags, cache } = this;
    try {
      await cache.settled();
      if (seq !== this.#seq) return; // a later call supersedes this one before it started
      if (runtime.closed()) {
        runtime.logger.error('fetchFlags: the SDK is closed; call Feature.start first.');
        return;
      }
      if (!this.#watched) {
        this.#watched = true;
        runtime.source.watch?.(visitor);
      }
      this.#pendingReason = null;
      this.started = true;
      flags.setState(FlagStatus.FETCHING, Reason.NONE);
      const assignments = cache.history();
      const { visitorId, anonymousId, context } = input;
      const previous = cache.previous(visitorId, anonymousId, context, assignments);
      const decided: DecisionInput = {
        ...input,
        assignments,
        ...(previous === undefined ? {} : { previous }),
      };
      const outcome = await runtime.source.decide(decided);
      if (seq !== this.#seq) return; // an older answer arriving late is dropped
      if (!outcome.ok) {
        runtime.logger.error(`fetchFlags failed: ${outcome.reason}`);
        const kept = this.fallback;
        if (kept !== null && flags.fromCache === undefined && kept.visitorId === input.visitorId)
          flags.setKept(kept.campaigns);
        flags.setState(
          FlagStatus.FETCH_REQUIRED,
          flags.fromCache ? Reason.FLAGS_FETCHED_FROM_CACHE : Reason.FLAGS_FETCHING_ERROR,
        );
        return;
      }
      await this.#apply(outcome, decided);
    } finally {
      if (seq === this.#seq) for (const resolve of this.#waiters.splice(0)) resolve();
    }
  }

  async #apply(
    { decision, newAssignments, flags: built, basis }: DecisionOutcome & { ok: true },
    input: DecisionInput,
  ): Promise<void> {
    const flags = this.flags;
    this.runtime.learn(decision);
    if (decision.panic === true) {
      // Panic forces defaults over known flags (PROTOCOL.md §9.4).
      flags.set([], false);
      flags.setState(FlagStatus.PANIC, Reason.NONE);
      return;
    }
    flags.set(decision.campaigns, false, built);
    const pending = this.#pendingReason;
    this.#pendingReason = null;
    if (pending !== null) flags.setState(FlagStatus.FETCH_REQUIRED, pending);
    else flags.setState(FlagStatus.FETCHED, Reason.NONE);
    if (!this.identity.consent) return;
    // Decided before the write, so the record carries the SEGMENT hit's mark (`sent`, PROTOCOL.md §10).
    const segment = this.#segmentHit(input);
    await this.cache.write(input, decision.campaigns, newAssignments, basis);
    // Consent withdrawn during the write: the record it erased stays erased (PROTOCOL.md §10), and the context,
    // not sent, goes again once consent is given.
    // Read again: TypeScript keeps the check above across the await, when a withdrawal may have come.
    if (!(this.identity.consent as boolean)) {
      if (segment !== null) this.runtime.repeats.forget(input.visitorId, 'context');
      await this.cache.flush(input.visitorId);
      return;
    }
    if (segment !== null) await this.identity.queue(segment);
  }

  /**
   * In bucketing mode no request reaches the server that would store the context (the decision API stores it
   * as a SEGMENT hit, PROTOCOL.md §3), so the visitor sends it itself: the source that needs it makes the hit.
   * Not when this visitor id sent the same context within 30 minutes (PROTOCOL.md §5.1 Repeats), whichever
   * visitor object or page view sent it; null then. Marked as sent when made.
   */
  #segmentHit({ visitorId, context }: DecisionInput): TrackedHit | null {
    const { source, repeats } = this.runtime;
    if (source.contextHit === undefined || source.sentContext === undefined) return null;
    if (this.#sent?.context !== context) this.#sent = source.sentContext(context);
    if (repeats.repeatsContext(visitorId, this.#sent)) return null;
    repeats.mark(visitorId, 'context', this.#sent);
    return source.contextHit(context);
  }
}

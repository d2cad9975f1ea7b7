// Write-behind of assignments (PROTOCOL.md §3): decisions queue the histories they allocate and the writer
// commits them per environment at most every FLUSH_MS, one entry per visitor whatever its number of groups.
// Allocation is deterministic, so a write lost to a crash re-derives the same variation unless the
// allocation changed meanwhile.
import type { AssignmentHistory } from 'feature-ts/protocol';
import type { Logger } from 'pino';
import type { VisitorAssignments, AssignmentStore } from '../store/assignment-store.js';

/** How often queued assignments are committed: well inside the one second §3 allows. */
export const FLUSH_MS = 250;

/** §3: a decision's new assignments are committed within one second. */
const COMMIT_WITHIN_MS = 1_000;

/** At most one warning about late commits this often, however many batches are late. */
const LATE_WARNING_EVERY_MS = 60_000;

/** Queues visitors' new assignments and commits them in batches. */
export class AssignmentWriter {
  readonly #store: AssignmentStore;
  readonly #log: Logger;
  // Per environment, per visitor: what is waiting for the next flush, and what the store is writing now.
  #queue = new Map<string, Map<string, VisitorAssignments>>();
  readonly #writing = new Map<string, Map<string, VisitorAssignments>>();
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> = Promise.resolve();
  /** When the oldest decision now queued was queued (0: nothing queued). */
  #queuedSince = 0;
  #lastLateWarning = -Infinity;
  readonly #now: () => number;

  constructor(store: AssignmentStore, log: Logger, now: () => number = Date.now) {
    this.#store = store;
    this.#log = log;
    this.#now = now;
  }

  /**
   * Queues `history`, the visitor's whole history as this instance knows it (not copied: the caller never
   * changes it), to be added to its stored one; it is committed within FLUSH_MS of the store being free. A
   * visitor queued twice keeps its first variations, as the store keeps stored ones.
   */
  enqueue(envId: string, visitorId: string, history: AssignmentHistory, lastUsedMs: number): void {
    if (this.#queuedSince === 0) this.#queuedSince = this.#now();
    let visitors = this.#queue.get(envId);
    if (visitors === undefined) {
      visitors = new Map();
      this.#queue.set(envId, visitors);
    }
    const queued = visitors.get(visitorId);
    visitors.set(
      visitorId,
      queued === undefined
        ? { visitorId, history, lastUsedMs }
        : {
            visitorId,
            history: { ...history, ...queued.history },
            lastUsedMs: Math.max(queued.lastUsedMs, lastUsedMs),
          },
    );
    // unref: a pending flush must not keep a CLI process alive; close() flushes what is left.
    this.#timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /**
   * The history queued for `visitorId` or being written, not committed yet (the newest when both): what a
   * read of the store could still miss.
   */
  pending(envId: string, visitorId: string): VisitorAssignments | undefined {
    return this.#queue.get(envId)?.get(visitorId) ?? this.#writing.get(envId)?.get(visitorId);
  }

  /** Commits everything queued so far. */
  flush(): Promise<void> {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    // The queue is taken when the previous flush has ended, not now: while the store is busy, what queues
    // meanwhile goes in the same batch instead of a flush of its own behind it.
    this.#flushing = this.#flushing.then(async () => {
      const batch = this.#queue;
      const since = this.#queuedSince;
      this.#queue = new Map();
      this.#queuedSince = 0;
      for (const [envId, visitors] of batch) {
        this.#writing.set(envId, visitors);
        try {
          await this.#store.saveAssignments(envId, [...visitors.values()]);
        } catch (error) {
          this.#log.error({ err: error, envId, visitors: visitors.size }, 'assignments could not be stored');
        } finally {
          this.#writing.delete(envId);
        }
      }
      if (since !== 0) this.#warnIfLate(this.#now() - since);
    });
    return this.#flushing;
  }

  /**
   * Says so, at most once a minute, when a batch committed later than §3's one second after its oldest
   * decision: a visitor decided again before the commit still gets its variation (the writer answers for it),
   * but a crash would lose more than a second of assignments, and the store is not keeping up with the load.
   */
  #warnIfLate(lagMs: number): void {
    if (lagMs <= COMMIT_WITHIN_MS) return;
    const now = this.#now();
    if (now - this.#lastLateWarning < LATE_WARNING_EVERY_MS) return;
    this.#lastLateWarning = now;
    this.#log.warn(
      { lagMs: Math.round(lagMs) },
      `assignments were committed ${Math.round(lagMs)} ms after their decisions (PROTOCOL.md §3 allows ${COMMIT_WITHIN_MS} ms): the store is not keeping up with the decision rate`,
    );
  }
}

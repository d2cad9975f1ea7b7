// Write-behind of assignments (PROTOCOL.md §3): decisions queue the histories they allocate and the writer
// commits them per environment at most every FLUSH_MS, one entry per visitor whatever its number of groups.
// Allocation is deterministic, so a write lost to a crash re-derives the same variation unless the
// allocation changed meanwhile.
import type { AssignmentHistory } from 'feature-ts/protocol';
import type { Logger } from 'pino';
import type { Store, VisitorAssignments } from '../store/store.js';

/** How often queued assignments are committed: well inside the one second §3 allows. */
export const FLUSH_MS = 250;

/** Queues visitors' new assignments and commits them in batches. */
export class AssignmentWriter {
  readonly #store: Store;
  readonly #log: Logger;
  // Per environment, per visitor: what is waiting for the next flush, and what the store is writing now.
  #queue = new Map<string, Map<string, VisitorAssignments>>();
  readonly #writing = new Map<string, Map<string, VisitorAssignments>>();
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> = Promise.resolve();

  constructor(store: Store, log: Logger) {
    this.#store = store;
    this.#log = log;
  }

  /**
   * Queues `history`, the visitor's whole history as this instance knows it (not copied: the caller never
   * changes it), to be added to its stored one; it is committed within FLUSH_MS of the store being free. A
   * visitor queued twice keeps its first variations, as the store keeps stored ones.
   */
  enqueue(envId: string, visitorId: string, history: AssignmentHistory, lastUsedMs: number): void {
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
      this.#queue = new Map();
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
    });
    return this.#flushing;
  }
}

// Write-behind of assignments (PROTOCOL.md §3): decisions queue the rows they allocate and the writer commits
// them in one statement per environment at most every FLUSH_MS. Allocation is deterministic, so a write
// lost to a crash re-derives the same variation unless the allocation changed meanwhile.
import type { Logger } from 'pino';
import type { AssignmentRow, Store } from '../store/store.js';

/** How often queued assignments are committed: well inside the one second §3 allows. */
export const FLUSH_MS = 250;

/** Queues assignment rows and commits them in batches. */
export class AssignmentWriter {
  readonly #store: Store;
  readonly #log: Logger;
  #queue = new Map<string, AssignmentRow[]>();
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> = Promise.resolve();

  constructor(store: Store, log: Logger) {
    this.#store = store;
    this.#log = log;
  }

  /** Queues rows of an environment; they are committed within FLUSH_MS. */
  enqueue(envId: string, rows: AssignmentRow[]): void {
    if (rows.length === 0) return;
    const queued = this.#queue.get(envId);
    if (queued === undefined) this.#queue.set(envId, rows);
    else for (const row of rows) queued.push(row);
    // unref: a pending flush must not keep a CLI process alive; close() flushes what is left.
    this.#timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /** Commits everything queued so far. */
  flush(): Promise<void> {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    const batch = this.#queue;
    this.#queue = new Map();
    this.#flushing = this.#flushing.then(async () => {
      for (const [envId, rows] of batch) {
        try {
          await this.#store.saveAssignments(envId, rows);
        } catch (error) {
          this.#log.error({ err: error, envId, rows: rows.length }, 'assignments could not be stored');
        }
      }
    });
    return this.#flushing;
  }
}

// Sticky assignments of the decision API (PROTOCOL.md §3, §8.4, §8.5): histories per environment and
// visitor id, read through a bounded in-memory cache (the hot path then needs no query), new assignments
// written behind, and last use refreshed at most once a day per visitor so that the retention purge keeps
// every visitor seen within ASSIGNMENT_RETENTION_DAYS.
import type { AssignmentHistory } from 'feature-ts/protocol';
import type { VisitorAssignments, AssignmentStore } from '../store/assignment-store.js';
import type { AssignmentWriter } from './assignment-writer.js';

const DAY_MS = 86_400_000;

/**
 * Reads of one environment in flight at once. While they run, the misses of later requests gather into the
 * next read: one query per request would bound the decision API by the store's round trip, and one per
 * event-loop turn still paid the store's fixed cost per query for a handful of visitors.
 */
const READS_IN_FLIGHT = 2;

interface CachedHistory {
  /** Never changed once cached: a change replaces it (evaluations in flight may hold it). */
  history: AssignmentHistory;
  /** Oldest last use stored for this visitor, as far as this instance knows. */
  lastUsedMs: number;
}

/** Visitors to read in one query, and the answer all their requests wait for. */
interface ReadBatch {
  ids: Set<string>;
  found: Promise<ReadonlyMap<string, VisitorAssignments>>;
  resolve: (found: ReadonlyMap<string, VisitorAssignments>) => void;
  reject: (error: unknown) => void;
}

/** An environment's reads: how many run, and the next one, gathering ids while they do. */
interface Reads {
  inFlight: number;
  next: ReadBatch | null;
}

/** Options of the assignment service. */
export interface AssignmentServiceOptions {
  /** How many (environment, visitor) histories stay in memory. */
  maxCached?: number;
}

const EMPTY: ReadonlyMap<string, VisitorAssignments> = new Map();

/** Reads and records assignment histories. */
export class AssignmentService {
  readonly #store: AssignmentStore;
  readonly #writer: AssignmentWriter;
  readonly #max: number;
  // A Map keeps insertion order: the first key is the oldest entry, evicted first when full.
  readonly #cache = new Map<string, CachedHistory>();
  readonly #reads = new Map<string, Reads>();

  constructor(store: AssignmentStore, writer: AssignmentWriter, options: AssignmentServiceOptions = {}) {
    this.#store = store;
    this.#writer = writer;
    this.#max = options.maxCached ?? 200_000;
  }

  /** The merged history of `ids` (first id wins, §8.5), loading what the cache lacks in one query. */
  async historyOf(envId: string, ids: readonly string[], now: number): Promise<AssignmentHistory> {
    const found = ids.map((id) => this.#cached(envId, id));
    const missing = ids.filter((_, i) => found[i] === undefined);
    if (missing.length > 0) {
      const stored = await this.#load(envId, missing);
      for (const id of missing) {
        // Loaded (or recorded) by a concurrent request meanwhile: keep that one.
        const entry = this.#cached(envId, id) ?? this.#remember(envId, id, entryOf(stored.get(id), now));
        found[ids.indexOf(id)] = entry;
      }
    }
    if (ids.length === 1) {
      const only = found[0];
      if (only !== undefined) this.#touch(envId, ids[0] ?? '', only, now);
      return only?.history ?? {};
    }
    let merged: AssignmentHistory = {};
    for (let i = found.length - 1; i >= 0; i--) {
      const entry = found[i];
      if (entry === undefined) continue;
      this.#touch(envId, ids[i] ?? '', entry, now);
      // Spread, not Object.assign: a group called "__proto__" stays a key.
      merged = { ...merged, ...entry.history };
    }
    return merged;
  }

  /**
   * The cached history of `id`, or the one the writer still carries (evicted from the cache, or dropped by
   * clear(), before its write committed): a read of the store could miss it.
   */
  #cached(envId: string, id: string): CachedHistory | undefined {
    const cached = this.#cache.get(`${envId}\u0000${id}`);
    if (cached !== undefined) return cached;
    const pending = this.#writer.pending(envId, id);
    if (pending === undefined) return undefined;
    return this.#remember(envId, id, { history: pending.history, lastUsedMs: pending.lastUsedMs });
  }

  /** Loads stored histories, gathering the misses of concurrent requests (see READS_IN_FLIGHT). */
  #load(envId: string, ids: readonly string[]): Promise<ReadonlyMap<string, VisitorAssignments>> {
    let reads = this.#reads.get(envId);
    if (reads === undefined) {
      reads = { inFlight: 0, next: null };
      this.#reads.set(envId, reads);
    }
    let batch = reads.next;
    if (batch === null) {
      let resolve: ReadBatch['resolve'] = () => undefined;
      let reject: ReadBatch['reject'] = () => undefined;
      const found = new Promise<ReadonlyMap<string, VisitorAssignments>>((yes, no) => {
        resolve = yes;
        reject = no;
      });
      batch = { ids: new Set(), found, resolve, reject };
      reads.next = batch;
      // After this turn, so that the misses of every request parsed in it go in the same query.
      const started = reads;
      if (reads.inFlight < READS_IN_FLIGHT) setImmediate(() => this.#read(envId, started));
    }
    for (const id of ids) batch.ids.add(id);
    return batch.found;
  }

  /** Runs the environment's next read; when it ends, the one that gathered meanwhile. */
  #read(envId: string, reads: Reads): void {
    const batch = reads.next;
    if (batch === null) return;
    reads.next = null;
    reads.inFlight++;
    this.#store.getAssignments(envId, [...batch.ids]).then(
      (visitors) => {
        this.#readEnded(envId, reads);
        if (visitors.length === 0) return batch.resolve(EMPTY);
        batch.resolve(new Map(visitors.map((visitor) => [visitor.visitorId, visitor])));
      },
      (error: unknown) => {
        this.#readEnded(envId, reads);
        batch.reject(error);
      },
    );
  }

  #readEnded(envId: string, reads: Reads): void {
    reads.inFlight--;
    if (reads.next !== null) this.#read(envId, reads);
    else if (reads.inFlight === 0) this.#reads.delete(envId);
  }

  /** Records new assignments under each of `ids`; they are committed within a second. */
  record(envId: string, ids: readonly string[], assigned: AssignmentHistory, now: number): void {
    if (isEmpty(assigned)) return;
    for (const id of ids) {
      const entry = this.#cache.get(`${envId}\u0000${id}`);
      // Copy-on-write: the history object may be held by an evaluation in flight. A visitor without history
      // (every first visit) takes the engine's object as it is: nothing else holds it.
      const history =
        entry === undefined || isEmpty(entry.history) ? assigned : { ...entry.history, ...assigned };
      if (entry === undefined) this.#remember(envId, id, { history, lastUsedMs: now });
      else entry.history = history;
      this.#writer.enqueue(envId, id, history, now);
    }
  }

  /**
   * §8.5 across devices: variations an authenticated visitor holds through its anonymous id only are stored
   * under the authenticated id too, so that the next device it signs in on (another anonymous id) finds them
   * under the authenticated id first and keeps the variation seen before the first login. Call after
   * `historyOf` has loaded the authenticated id's own history.
   */
  carryOver(envId: string, authenticatedId: string, decided: AssignmentHistory, now: number): void {
    const own = this.#cache.get(`${envId}\u0000${authenticatedId}`)?.history ?? {};
    const missing: AssignmentHistory = {};
    for (const [group, variation] of Object.entries(decided)) {
      if (own[group] === undefined) missing[group] = variation;
    }
    this.record(envId, [authenticatedId], missing, now);
  }

  /** Drops every cached history (after a retention purge). */
  clear(): void {
    this.#cache.clear();
  }

  #remember(envId: string, id: string, entry: CachedHistory): CachedHistory {
    const key = `${envId}\u0000${id}`;
    this.#cache.delete(key);
    this.#cache.set(key, entry);
    if (this.#cache.size > this.#max) {
      const oldest = this.#cache.keys().next();
      if (oldest.done !== true) this.#cache.delete(oldest.value);
    }
    return entry;
  }

  /** Refreshes the stored last use of a visitor's assignments when it is over a day old. */
  #touch(envId: string, id: string, entry: CachedHistory, now: number): void {
    if (now - entry.lastUsedMs < DAY_MS || isEmpty(entry.history)) return;
    entry.lastUsedMs = now;
    this.#writer.enqueue(envId, id, entry.history, now);
  }
}

/** Whether a history has no group, without listing its keys. */
const isEmpty = (history: AssignmentHistory): boolean => {
  for (const group in history) if (Object.hasOwn(history, group)) return false;
  return true;
};

const entryOf = (stored: VisitorAssignments | undefined, now: number): CachedHistory =>
  stored === undefined
    ? { history: {}, lastUsedMs: now }
    : { history: stored.history, lastUsedMs: Math.min(now, stored.lastUsedMs) };

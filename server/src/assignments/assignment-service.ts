// Sticky assignments of the decision API (PROTOCOL.md §3, §8.4, §8.5): histories per environment and
// visitor id, read through a bounded in-memory cache (the hot path then needs no query), new assignments
// written behind, and last use refreshed at most once a day per visitor so that the retention purge keeps
// every visitor seen within ASSIGNMENT_RETENTION_DAYS.
import type { AssignmentHistory } from 'feature-ts/protocol';
import type { AssignmentRow, Store } from '../store/store.js';
import type { AssignmentWriter } from './assignment-writer.js';

const DAY_MS = 86_400_000;

interface CachedHistory {
  history: AssignmentHistory;
  /** Oldest last use stored for this visitor, as far as this instance knows. */
  lastUsedMs: number;
}

/** Options of the assignment service. */
export interface AssignmentServiceOptions {
  /** How many (environment, visitor) histories stay in memory. */
  maxCached?: number;
}

/** Reads and records assignment histories. */
export class AssignmentService {
  readonly #store: Store;
  readonly #writer: AssignmentWriter;
  readonly #max: number;
  // A Map keeps insertion order: the first key is the oldest entry, evicted first when full.
  readonly #cache = new Map<string, CachedHistory>();
  readonly #pending = new Map<string, { ids: Set<string>; rows: Promise<AssignmentRow[]> }>();

  constructor(store: Store, writer: AssignmentWriter, options: AssignmentServiceOptions = {}) {
    this.#store = store;
    this.#writer = writer;
    this.#max = options.maxCached ?? 200_000;
  }

  /** The merged history of `ids` (first id wins, §8.5), loading what the cache lacks in one query. */
  async historyOf(envId: string, ids: readonly string[], now: number): Promise<AssignmentHistory> {
    const found: Array<CachedHistory | undefined> = ids.map((id) => this.#cache.get(`${envId}\u0000${id}`));
    const missing = ids.filter((_, i) => found[i] === undefined);
    if (missing.length > 0) {
      const rows = await this.#load(envId, missing);
      for (const id of missing) {
        const cached = this.#cache.get(`${envId}\u0000${id}`);
        if (cached !== undefined) {
          // Loaded (or recorded) by a concurrent request meanwhile: keep that one.
          found[ids.indexOf(id)] = cached;
          continue;
        }
        const entry: CachedHistory = { history: {}, lastUsedMs: now };
        for (const row of rows) {
          if (row.visitorId !== id) continue;
          entry.history[row.variationGroupId] = row.variationId;
          entry.lastUsedMs = Math.min(entry.lastUsedMs, row.lastUsedMs);
        }
        found[ids.indexOf(id)] = this.#remember(envId, id, entry);
      }
    }
    if (ids.length === 1) {
      const only = found[0];
      if (only !== undefined) this.#touch(envId, ids[0] ?? '', only, now);
      return only?.history ?? {};
    }
    const merged: AssignmentHistory = {};
    for (let i = found.length - 1; i >= 0; i--) {
      const entry = found[i];
      if (entry === undefined) continue;
      this.#touch(envId, ids[i] ?? '', entry, now);
      Object.assign(merged, entry.history);
    }
    return merged;
  }

  /**
   * Loads histories, coalescing the misses of concurrent requests into one query per environment and
   * event-loop turn: a query per request would bound the decision API by the database's round trip.
   */
  #load(envId: string, ids: readonly string[]): Promise<AssignmentRow[]> {
    let pending = this.#pending.get(envId);
    if (pending === undefined) {
      const batch = { ids: new Set<string>(), rows: Promise.resolve<AssignmentRow[]>([]) };
      batch.rows = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        this.#pending.delete(envId);
        return this.#store.getAssignments(envId, [...batch.ids]);
      });
      this.#pending.set(envId, batch);
      pending = batch;
    }
    for (const id of ids) pending.ids.add(id);
    return pending.rows;
  }

  /** Records new assignments under each of `ids`; they are committed within a second. */
  record(envId: string, ids: readonly string[], assigned: AssignmentHistory, now: number): void {
    const groups = Object.keys(assigned);
    if (groups.length === 0) return;
    const rows: AssignmentRow[] = [];
    for (const id of ids) {
      const entry =
        this.#cache.get(`${envId}\u0000${id}`) ?? this.#remember(envId, id, { history: {}, lastUsedMs: now });
      // Copy-on-write, once per id (not per group: that copied the history once per new group): the history
      // object may be held by an evaluation in flight.
      const history = { ...entry.history };
      for (const group of groups) {
        const variation = assigned[group];
        if (variation === undefined) continue;
        history[group] = variation;
        rows.push({ visitorId: id, variationGroupId: group, variationId: variation, lastUsedMs: now });
      }
      entry.history = history;
    }
    this.#writer.enqueue(envId, rows);
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
    if (now - entry.lastUsedMs < DAY_MS) return;
    entry.lastUsedMs = now;
    const rows = Object.entries(entry.history).map(([variationGroupId, variationId]): AssignmentRow => ({
      visitorId: id,
      variationGroupId,
      variationId,
      lastUsedMs: now,
    }));
    this.#writer.enqueue(envId, rows);
  }
}

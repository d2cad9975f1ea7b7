/**
 * The most recently used entries by visitor id, at most `max` of them: reading an entry makes it the most
 * recent, and adding one past the bound drops the least recent (handed to `onDrop`). A server sees an
 * unbounded number of visitor ids; this bounds what the provider keeps for them. A Map keeps insertion order,
 * so re-inserting on read is the recency list.
 */
export class RecentVisitors<T> {
  readonly #entries = new Map<string, T>();
  readonly #max: number;
  readonly #onDrop: (entry: T) => void;

  /** At most `max` entries (an integer ≥ 1). */
  constructor(max: number, onDrop: (entry: T) => void) {
    this.#max = max;
    this.#onDrop = onDrop;
  }

  /** The entry of `visitorId`, now the most recent; undefined when none is kept. */
  get(visitorId: string): T | undefined {
    const entry = this.#entries.get(visitorId);
    if (entry !== undefined) {
      this.#entries.delete(visitorId);
      this.#entries.set(visitorId, entry);
    }
    return entry;
  }

  /** The entry of `visitorId`, its recency unchanged. */
  peek(visitorId: string): T | undefined {
    return this.#entries.get(visitorId);
  }

  /** Keeps `entry` as the most recent, dropping the least recent one past the bound. */
  set(visitorId: string, entry: T): void {
    this.#entries.delete(visitorId);
    this.#entries.set(visitorId, entry);
    if (this.#entries.size <= this.#max) return;
    const [oldestId, oldest] = this.#entries.entries().next().value as [string, T];
    this.#entries.delete(oldestId);
    this.#onDrop(oldest);
  }

  /** How many entries are kept. */
  get size(): number {
    return this.#entries.size;
  }

  /** Drops every entry (each handed to `onDrop`). */
  clear(): void {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    for (const entry of entries) this.#onDrop(entry);
  }
}

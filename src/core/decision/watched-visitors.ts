import type { Reevaluable } from './source.js';

/**
 * The visitors who fetched, held weakly: the application decides how long a visitor lives, and a visitor it
 * dropped is never fetched for again. Both sources keep one: bucketing mode re-evaluates them on each new
 * file, the decision API re-fetches them on each live-update change (PROTOCOL.md §16.2, §17).
 */
export class WatchedVisitors {
  readonly #refs = new Set<WeakRef<Reevaluable>>();
  #sweepAt = 1024;

  /** Watches `visitor` from now on. */
  add(visitor: Reevaluable): void {
    const refs = this.#refs;
    refs.add(new WeakRef(visitor));
    // Visitors the application dropped leave dead references: swept each time the set doubled, so a server
    // building a visitor per request keeps only its live visitors' (amortized: constant work per visitor).
    if (refs.size < this.#sweepAt) return;
    for (const ref of refs) if (ref.deref() === undefined) refs.delete(ref);
    this.#sweepAt = Math.max(1024, 2 * refs.size);
  }

  /** Fetches again for every visitor still alive; resolves once every fetch has settled. */
  refetch(): Promise<void> {
    const fetches: Array<Promise<void>> = [];
    for (const ref of this.#refs) {
      const visitor = ref.deref();
      if (visitor === undefined) this.#refs.delete(ref);
      else fetches.push(visitor.fetchFlags());
    }
    return Promise.all(fetches).then(() => undefined);
  }

  /** Forgets every visitor (the SDK closed). */
  clear(): void {
    this.#refs.clear();
  }
}

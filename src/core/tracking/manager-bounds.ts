/** How much the pool, and the hit cache it mirrors, may hold before the oldest items are evicted. */
export interface PoolBounds {
  /** Most items; default 10 000. */
  maxItems: number;
  /** Most bytes, counted as the UTF-8 bytes of each item's JSON text on the wire; default 5 MB. */
  maxBytes: number;
}

/**
 * Far above what a page or a process queues in normal use (a pool is sent every few seconds): the bounds only
 * matter when the collector has been unreachable for long, and then keep memory and storage in check.
 * SPEC.md has no option for them; `TrackerTuning.bounds` lowers them in tests.
 */
export const DEFAULT_POOL_BOUNDS: PoolBounds = { maxItems: 10_000, maxBytes: 5 * 1024 * 1024 };

// The store's daily upkeep (storage-upkeep.ts): month partitions of activations and hits, and retention.
import type { RetentionOutcome } from './sql/retention-sql.js';

/** The store's partitions and retention. */
export interface UpkeepStore {
  /**
   * Creates the month partitions of activations and hits for the UTC month of `nowMs` and the next two, if
   * missing (issue 31, time-partitions.ts); returns the names created.
   */
  keepPartitions(nowMs: number): Promise<string[]>;
  /**
   * Folds what is pending, then drops the whole months of activations and hits received before `horizonMs` (a
   * UTC month start) and records it as the horizon (FEATURE_RETENTION_DAYS, retention-sql.ts).
   */
  applyRetention(horizonMs: number): Promise<RetentionOutcome>;
  /** The retention horizon: activations and hits received before it may be gone (0: nothing dropped). */
  retentionHorizon(): Promise<number>;
}

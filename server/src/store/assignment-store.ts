// Visitors' stored assignments (§8.4): read before a decision, written behind it in batches
// (assignments/assignment-writer.ts).
import type { AssignmentHistory } from 'feature-ts/protocol';

/**
 * A visitor's stored assignments (§8.4): its history `{variationGroupId: variationId}` and when it was last
 * used, one row per visitor (so a decision that allocates dozens of groups reads and writes one row).
 */
export interface VisitorAssignments {
  visitorId: string;
  history: AssignmentHistory;
  lastUsedMs: number;
}

/** The store's visitor assignments. */
export interface AssignmentStore {
  /** The stored assignments of those of `visitorIds` that have any, one entry per visitor. */
  getAssignments(envId: string, visitorIds: readonly string[]): Promise<VisitorAssignments[]>;
  /**
   * Adds the groups of each history to the visitor's stored one and moves its last use forward; never
   * changes a stored variation (nor, for a visitor listed twice, the first entry's).
   */
  saveAssignments(envId: string, visitors: readonly VisitorAssignments[]): Promise<void>;
  /** Deletes assignments not used since `beforeMs`; returns how many. */
  purgeAssignments(beforeMs: number): Promise<number>;
}

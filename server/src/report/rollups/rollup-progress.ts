// The progress line of long folds (an upgrade's backfill at start, `feature-server report --rebuild`): how far,
// and how long is left at the rate so far, so that an operator watching a large database fold knows it moves.
import { rowsProgressLine } from '../../store/progress-line.js';

/** Where a long fold stands. */
export interface FoldProgress {
  /** Rows folded so far. */
  folded: number;
  /** Rows to fold in all (at the start). */
  total: number;
  /** Time since the start. */
  elapsedMs: number;
}

/** "Report rollups: 120,000 of 1,000,000 rows folded (12 %), about 40 s left". */
export const progressLine = ({ folded, total, elapsedMs }: FoldProgress): string =>
  rowsProgressLine('Report rollups', 'folded', { done: folded, total, elapsedMs });

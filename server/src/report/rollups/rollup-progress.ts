// The progress line of long folds (an upgrade's backfill at start, `feature-server report --rebuild`): how far,
// and how long is left at the rate so far, so that an operator watching a large database fold knows it moves.

/** Where a long fold stands. */
export interface FoldProgress {
  /** Rows folded so far. */
  folded: number;
  /** Rows to fold in all (at the start). */
  total: number;
  /** Time since the start. */
  elapsedMs: number;
}

const count = (n: number): string => n.toLocaleString('en-US');

const duration = (ms: number): string => {
  const s = Math.ceil(ms / 1000);
  return s < 90 ? `${s} s` : `${Math.ceil(s / 60)} min`;
};

/** "Report rollups: 120,000 of 1,000,000 rows folded (12 %), about 40 s left". */
export const progressLine = ({ folded, total, elapsedMs }: FoldProgress): string => {
  const done = Math.min(folded, total);
  const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
  const left =
    done === 0 || done >= total ? '' : `, about ${duration((elapsedMs / done) * (total - done))} left`;
  return `Report rollups: ${count(done)} of ${count(total)} rows folded (${percent} %)${left}`;
};

// The progress line of long work over stored rows (an upgrade's migrations, the report folds of an upgrade's
// backfill or a rebuild): how far, and how long is left at the rate so far, so that an operator watching a
// large database knows it moves. In store/ so that migrate.ts, which compiles with store/ alone, can say it
// without importing report/.

/** Where long work over rows stands. */
export interface RowsProgress {
  /** Rows done so far. */
  done: number;
  /** Rows to do in all (at the start). */
  total: number;
  /** Time since the start. */
  elapsedMs: number;
}

const count = (n: number): string => n.toLocaleString('en-US');

const duration = (ms: number): string => {
  const s = Math.ceil(ms / 1000);
  return s < 90 ? `${s} s` : `${Math.ceil(s / 60)} min`;
};

/** "<subject>: 120,000 of 1,000,000 rows <verb> (12 %), about 40 s left". */
export const rowsProgressLine = (subject: string, verb: string, progress: RowsProgress): string => {
  const done = Math.min(progress.done, progress.total);
  const { total, elapsedMs } = progress;
  const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
  const left =
    done === 0 || done >= total ? '' : `, about ${duration((elapsedMs / done) * (total - done))} left`;
  return `${subject}: ${count(done)} of ${count(total)} rows ${verb} (${percent} %)${left}`;
};

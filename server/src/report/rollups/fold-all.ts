// Folding everything pending, with progress: at start after an upgrade marked every stored row (migration 009),
// and for `feature-server report --rebuild`, which forgets the rollups and folds every stored row again (after a
// suspected defect, or to check that the rollups equal their rows). Both are the same folds as live traffic's:
// nothing here counts differently.
import type { ReportStore } from '../../store/report-store.js';
import type { FoldProgress } from './rollup-progress.js';

/** Rows folded at once from which foldAll vacuums the rollup tables after (a few ms below it, seconds above). */
const TIDY_AFTER_ROWS = 10_000;

/** Options of foldAll. */
export interface FoldAllOptions {
  /** Hears how far it is now and then (every `everyMs`), and once at the end when it heard any before. */
  onProgress?: (progress: FoldProgress) => void;
  /** How often a line is said (default 2 s: an operator sees it move, a log is not flooded). */
  everyMs?: number;
  /** The clock (tests pin it). */
  now?: () => number;
}

/** What a long fold did. */
export interface FoldAllOutcome {
  /** Rows waiting when it started. */
  total: number;
  /** Rows it folded itself (folds running beside it may have taken some). */
  folded: number;
  elapsedMs: number;
}

/** Folds every pending row of every environment, saying how far it is. */
export const foldAll = async (store: ReportStore, options: FoldAllOptions = {}): Promise<FoldAllOutcome> => {
  const now = options.now ?? Date.now;
  const everyMs = options.everyMs ?? 2_000;
  const started = now();
  const total = await store.pendingRollupCount();
  // Mutated by the callback below: an object, so that the checks after the await read it as it is then.
  const said = { at: started, any: false };
  const folded = await store.drainRollups((done) => {
    if (options.onProgress === undefined || now() - said.at < everyMs) return;
    said.at = now();
    said.any = true;
    options.onProgress({ folded: done, total, elapsedMs: said.at - started });
  });
  // Past this many rows, the dead marks and stale statistics a fold leaves are worth a VACUUM (ANALYZE).
  if (total >= TIDY_AFTER_ROWS) await store.tidyRollups();
  const elapsedMs = now() - started;
  // Folds beside this one (live traffic's) may have taken rows: at the end, all of them are folded.
  if (said.any) options.onProgress?.({ folded: Math.max(folded, total), total, elapsedMs });
  return { total, folded, elapsedMs };
};

/** Forgets the rollups and folds every stored row again (`report --rebuild`). */
export const rebuildRollups = async (
  store: ReportStore,
  options: FoldAllOptions = {},
): Promise<FoldAllOutcome> => {
  await store.resetRollups();
  return foldAll(store, options);
};

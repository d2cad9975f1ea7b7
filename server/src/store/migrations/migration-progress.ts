// What a migration's procedural step is given, and how a long one says how far it is (migrate.ts turns it into progress lines): apart from index.ts,
// which lists the migrations, so that a migration can name the type without importing the list it is in.

/** Hears how far a long migration step is: rows done of the rows it has to do (first with 0 done). */
export type MigrationProgress = (done: number, total: number) => void;

/** What a migration's `run` step is given. */
export interface MigrationStep {
  /** The time it runs at. */
  nowMs: number;
  /** Where it says how far it is. */
  progress: MigrationProgress;
  /** Rows per statement for a step that moves rows (tests lower it; else the step's own). */
  chunkRows?: number;
}

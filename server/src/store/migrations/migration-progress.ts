// How a long migration step says how far it is (migrate.ts turns it into progress lines): apart from index.ts,
// which lists the migrations, so that a migration can name the type without importing the list it is in.

/** Hears how far a long migration step is: rows done of the rows it has to do. */
export type MigrationProgress = (done: number, total: number) => void;

// When folds run (rollup-fold-sql.ts): soon after this instance stores rows of an environment (batched: one fold
// takes what arrived meanwhile), on a sweep that finds rows other instances stored, and before a report is read
// (`settle`), so that a report always includes every row stored before it was asked for. Folding is off the
// request that stored the rows: an insert never waits for a fold.

/** What the folder drives. */
export interface FoldOperations {
  /**
   * Folds up to `limit` marks of each kind of one environment; resolves to how many it folded. Without
   * `wait`, a fold running elsewhere for the environment (another instance's) makes it fold nothing: 0.
   */
  foldRollups(envId: string, limit: number, options: { wait: boolean }): Promise<number>;
  /** The environments with marks waiting. */
  pendingRollupEnvironments(): Promise<string[]>;
  /** Whether marks of one environment wait. */
  hasPendingRollups(envId: string): Promise<boolean>;
}

/** Options of the folder. */
export interface RollupFolderOptions {
  /** Marks of each kind per fold (one transaction). */
  batch: number;
  /** How often to look for rows other instances stored. */
  sweepMs: number;
  /** How long after a store to fold, gathering what arrives meanwhile. */
  delayMs: number;
  /** Hears a failed fold (it is retried at the next store or sweep). */
  onError: (error: unknown) => void;
}

/** The folder of one store. */
export interface RollupFolder {
  /** Rows of `envId` were stored: fold them soon. */
  stored(envId: string): void;
  /** Resolves once every row of `envId` stored before the call is folded. */
  settle(envId: string): Promise<void>;
  /** Folds every environment's marks; `onProgress` hears the marks folded so far after each fold. */
  drain(onProgress?: (folded: number) => void): Promise<number>;
  /** Stops folding; resolves once the fold in progress is done. */
  close(): Promise<void>;
}

/** Starts folding for a store. */
export const rollupFolder = (ops: FoldOperations, options: RollupFolderOptions): RollupFolder => {
  const running = new Map<string, Promise<void>>();
  const scheduled = new Map<string, ReturnType<typeof setTimeout>>();
  let closed = false;

  // Folds until nothing of the environment is left (one loop per environment at a time).
  const run = (envId: string): Promise<void> => {
    const current = running.get(envId);
    if (current !== undefined) return current;
    const loop = (async () => {
      try {
        // A fold that took less than a full batch of each kind left nothing: no empty fold to confirm it
        // (each costs a transaction, a few milliseconds of the embedded store's only thread).
        // A fold another instance is running takes these rows too (or its next one does, or the sweep's):
        // this loop does not queue behind it.
        while (!closed && (await ops.foldRollups(envId, options.batch, { wait: false })) >= options.batch);
      } catch (error) {
        options.onError(error);
      } finally {
        running.delete(envId);
      }
    })();
    running.set(envId, loop);
    return loop;
  };

  const sweep = setInterval(() => {
    void ops
      .pendingRollupEnvironments()
      .then((envIds) => envIds.forEach((envId) => void run(envId)))
      .catch((error: unknown) => {
        if (!closed) options.onError(error);
      });
  }, options.sweepMs);
  sweep.unref();

  return {
    stored(envId) {
      if (closed || scheduled.has(envId)) return;
      const timer = setTimeout(() => {
        scheduled.delete(envId);
        void run(envId);
      }, options.delayMs);
      timer.unref();
      scheduled.set(envId, timer);
    },
    async settle(envId) {
      // Folds of its own until none is left: they take turns with the background loop under the
      // environment's fold lock, and each takes what the other has not folded. Under a flood of new rows a
      // fold always finds more; rows stored after the call are not waited for beyond a bounded number of folds.
      // A refresh with nothing new (the common case) costs one cheap check, not a fold's transaction.
      for (let i = 0; i < 64; i++) {
        if (!(await ops.hasPendingRollups(envId))) return;
        if ((await ops.foldRollups(envId, options.batch, { wait: true })) < options.batch) return;
      }
    },
    async drain(onProgress) {
      let folded = 0;
      for (;;) {
        const envIds = await ops.pendingRollupEnvironments();
        if (envIds.length === 0) return folded;
        for (const envId of envIds)
          for (
            let n = await ops.foldRollups(envId, options.batch, { wait: true });
            n > 0;
            n = await ops.foldRollups(envId, options.batch, { wait: true })
          ) {
            folded += n;
            onProgress?.(folded);
          }
      }
    },
    async close() {
      closed = true;
      clearInterval(sweep);
      for (const timer of scheduled.values()) clearTimeout(timer);
      scheduled.clear();
      await Promise.all(running.values());
    },
  };
};

// Group commit of idempotent inserts (hits, activations): while one environment's statement is running, the
// requests that arrive meanwhile wait and then go in together as the next statement. Each statement costs a
// fixed ~1.3 ms on PGlite besides its rows, so under load one statement per request made the store, not the
// requests, the limit; with nothing in flight a request's rows go in at once, so light load waits for nothing.
// Every caller still resolves only once its own rows are committed (§5.2: durable before the answer).

/** Something the group commit merges: a row with its idempotency id (null: always stored). */
export interface IdempotentRow {
  hid: string | null;
}

/** Stores rows skipping known idempotency ids; resolves to the id of each row stored (null for rows without). */
export type StoreRows<R extends IdempotentRow> = (
  envId: string,
  rows: readonly R[],
) => Promise<ReadonlyArray<string | null>>;

/** Stores rows, skipping known idempotency ids; resolves to how many of these rows were stored. */
export type InsertRows<R extends IdempotentRow> = (envId: string, rows: readonly R[]) => Promise<number>;

interface Waiting<R> {
  rows: readonly R[];
  resolve: (stored: number) => void;
  reject: (error: unknown) => void;
}

/** Rows per merged statement at most: a statement stays short enough not to hold others back long. */
export const GROUP_MAX_ROWS = 2_000;

/**
 * Wraps `store` so that concurrent calls of one environment share statements. A row's idempotency id goes
 * in once, for the first call that carries it, so a hit sent twice at the same moment counts once, for one
 * caller, exactly as two statements one after the other would count it.
 */
export const groupCommit = <R extends IdempotentRow>(
  store: StoreRows<R>,
  maxRows = GROUP_MAX_ROWS,
): InsertRows<R> => {
  const queues = new Map<string, Array<Waiting<R>>>();

  /** Stores one group; resolves each caller with the count of its own rows stored. */
  const commit = async (envId: string, group: ReadonlyArray<Waiting<R>>): Promise<void> => {
    const seen = new Set<string>();
    const rows: R[] = [];
    const mine = group.map((waiting) => {
      const ids: Array<string | null> = [];
      for (const row of waiting.rows) {
        if (row.hid !== null) {
          if (seen.has(row.hid)) continue;
          seen.add(row.hid);
        }
        rows.push(row);
        ids.push(row.hid);
      }
      return ids;
    });
    let stored: ReadonlySet<string | null>;
    try {
      stored = new Set(await store(envId, rows));
    } catch (error) {
      if (group.length === 1) {
        group[0]?.reject(error);
        return;
      }
      // One request's rows must not fail the others': each goes in again on its own.
      for (const waiting of group) await commit(envId, [waiting]);
      return;
    }
    group.forEach((waiting, i) =>
      waiting.resolve((mine[i] ?? []).filter((hid) => hid === null || stored.has(hid)).length),
    );
  };

  const drain = async (envId: string, queue: Array<Waiting<R>>): Promise<void> => {
    while (queue.length > 0) {
      const group: Array<Waiting<R>> = [];
      let count = 0;
      for (let next = queue[0]; next !== undefined; next = queue[0]) {
        if (group.length > 0 && count + next.rows.length > maxRows) break;
        group.push(next);
        count += next.rows.length;
        queue.shift();
      }
      await commit(envId, group);
    }
    queues.delete(envId);
  };

  return (envId, rows) => {
    if (rows.length === 0) return Promise.resolve(0);
    return new Promise((resolve, reject) => {
      const queue = queues.get(envId);
      if (queue !== undefined) {
        queue.push({ rows, resolve, reject });
        return;
      }
      const started: Array<Waiting<R>> = [{ rows, resolve, reject }];
      queues.set(envId, started);
      void drain(envId, started);
    });
  };
};

// Group commit of idempotent inserts (hits, activations), pipelined (issue 31). Requests of one environment
// that arrive while its statements run wait and then go in together as one statement; up to
// `statementsInFlight` of an environment's statements run at once, each taking what queued meanwhile.
//
// Why several at once: a statement's commit waits for the WAL to reach the disk, and PostgreSQL's own group
// commit flushes the WAL of every commit waiting at that moment in one write. With a single statement in
// flight, an instance left that merging unused: it waited for each flush before sending the next rows, so it
// held its requests idle for a whole round trip per statement, and a second instance on the database only
// split the same chain into two thinner ones. With a few statements in flight, the next statement's rows go
// in while the previous one's flush runs, so more concurrent requests and more instances turn into more rows
// per flush. PGlite runs one statement at a time in its worker: statements in flight there only queue and
// each carries fewer rows, so it does best with one (see GROUP_STATEMENTS_IN_FLIGHT).
//
// With nothing in flight, a request's rows go in at once: light load waits for nothing. Every caller still
// resolves only once its own rows are committed (§5.2: durable before the answer).

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

/** One environment's calls not yet in a statement, and how many of its statements are running. */
interface Lane<R> {
  queue: Array<Waiting<R>>;
  running: number;
}

/** Rows per merged statement at most: a statement stays short enough not to hold others back long. */
export const GROUP_MAX_ROWS = 2_000;

/**
 * Statements of one environment in flight at most, by default: 2, from bench/ingestion.bench.ts on PostgreSQL
 * (50 concurrent single-hit requests, K = 1, 2, 4, 8 in alternated rounds): 2 did best for one instance
 * (+4 % and +22 % over 1 in two runs), 4 and 8 did worse, since every extra statement costs PostgreSQL a
 * commit while the rows per commit shrink. PGlite runs one statement at a time, so there 1 does best
 * (in-process, 50 concurrent single-row calls: 8-13 k rows/s at 1, 5-10 k at 2): its store should pass 1.
 */
export const GROUP_STATEMENTS_IN_FLIGHT = 2;

/**
 * Statements in flight at most across all environments, by default: below the PostgreSQL pool's 10
 * connections, so that a statement never waits for a connection holding rows that could still have grown
 * (and decisions keep a connection).
 */
export const GROUP_STATEMENTS_IN_FLIGHT_TOTAL = 8;

/** How many statements a group commit runs at once. */
export interface GroupCommitOptions {
  /** Per environment (default {@link GROUP_STATEMENTS_IN_FLIGHT}); 1 chains them one at a time. */
  statementsInFlight?: number;
  /** Across environments (default {@link GROUP_STATEMENTS_IN_FLIGHT_TOTAL}). */
  statementsInFlightTotal?: number;
}

/**
 * Wraps `store` so that concurrent calls of one environment share statements, several of which may run at
 * once. A row's idempotency id goes in once, for the first call that carries it, so a hit sent twice at the
 * same moment counts once, for one caller: within a statement the merge keeps its first copy; across
 * statements in flight together the database's unique index does (the later insert waits for the earlier
 * one's commit and skips the row), exactly as two statements one after the other would count it.
 */
export const groupCommit = <R extends IdempotentRow>(
  store: StoreRows<R>,
  maxRows = GROUP_MAX_ROWS,
  options: GroupCommitOptions = {},
): InsertRows<R> => {
  const perEnvironment = Math.max(1, options.statementsInFlight ?? GROUP_STATEMENTS_IN_FLIGHT);
  const total = Math.max(1, options.statementsInFlightTotal ?? GROUP_STATEMENTS_IN_FLIGHT_TOTAL);
  const lanes = new Map<string, Lane<R>>();
  /** Environments with calls queued and a statement of their own to spare, in arrival order (a Set keeps it). */
  const ready = new Set<string>();
  let running = 0;

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

  /** Takes from the head of `queue` as many whole calls as fit in one statement (at least one). */
  const take = (queue: Array<Waiting<R>>): Array<Waiting<R>> => {
    const group: Array<Waiting<R>> = [];
    let count = 0;
    for (let next = queue[0]; next !== undefined; next = queue[0]) {
      if (group.length > 0 && count + next.rows.length > maxRows) break;
      group.push(next);
      count += next.rows.length;
      queue.shift();
    }
    return group;
  };

  /** Starts statements while the caps allow, oldest waiting environment first. */
  const pump = (): void => {
    while (running < total) {
      const envId = ready.values().next().value;
      if (envId === undefined) return;
      ready.delete(envId);
      const lane = lanes.get(envId);
      if (lane === undefined || lane.queue.length === 0 || lane.running >= perEnvironment) continue;
      const group = take(lane.queue);
      lane.running++;
      running++;
      // Still rows and a slot of its own: it goes to the back of the line, behind the other environments.
      if (lane.queue.length > 0 && lane.running < perEnvironment) ready.add(envId);
      void commit(envId, group).finally(() => {
        lane.running--;
        running--;
        if (lane.queue.length > 0) ready.add(envId);
        else if (lane.running === 0) lanes.delete(envId);
        pump();
      });
    }
  };

  return (envId, rows) => {
    if (rows.length === 0) return Promise.resolve(0);
    return new Promise((resolve, reject) => {
      let lane = lanes.get(envId);
      if (lane === undefined) {
        lane = { queue: [], running: 0 };
        lanes.set(envId, lane);
      }
      lane.queue.push({ rows, resolve, reject });
      if (lane.running < perEnvironment) ready.add(envId);
      pump();
    });
  };
};

// The main thread's side of the embedded store: the shared SQL surface over messages to PGlite's worker
// thread (pglite-worker.ts), so a statement costs the event loop a postMessage instead of its whole run time.
// A worker that dies (a WASM abort, an out-of-memory) is replaced on the same data folder, where
// PostgreSQL's own recovery replays its WAL; without that, a server failed every request until restarted by
// hand.
import { setTimeout as delay } from 'node:timers/promises';
import type { Worker } from 'node:worker_threads';
import {
  connectPgliteWorker,
  startPgliteWorker,
  stoppedError,
  type WorkerConnection,
} from './pglite-worker-connection.js';
import type { WorkerRequest } from './pglite-worker.js';
import type { ListenInterruption, Queryable, Row, Sql } from '../sql/sql.js';

/** How long a call made while the worker restarts waits for it by default before it rejects. */
export const RESTART_WAIT_MS = 10_000;
/** The delay before the second restart attempt; it doubles with each failed attempt after. */
const RESTART_FIRST_DELAY_MS = 100;
/** The longest delay between two restart attempts. */
const RESTART_MAX_DELAY_MS = 5_000;

const CLOSED = 'the store was closed';

const restartingError = (reason: string): Error =>
  new Error(`the embedded store is restarting after its worker stopped (${reason}); try again`);

/** A worker death or restart, as the owner of a store on a data folder hears of it (for its logs). */
export interface PgliteRestartEvent {
  /**
   * `lost`: the worker stopped (`attempt` 0, calls in flight were rejected) or restart attempt `attempt`
   * failed (another follows, with backoff); `resumed`: attempt `attempt` opened the folder again.
   */
  state: 'lost' | 'resumed';
  /** Why the worker stopped or, for a failed attempt, why that attempt failed. */
  reason: string;
  /** How many restart attempts this outage has had so far. */
  attempt: number;
}

/** Options of openPgliteThread. */
export interface PgliteThreadOptions {
  /** Hears each worker death, failed restart attempt and restart of a store on a data folder. */
  onRestart?: (event: PgliteRestartEvent) => void;
  /**
   * Starts each worker (the first and every restart) by calling `start`, the real factory; the default just
   * calls it. A dependency-injection hook for tests: there is no SQL statement that crashes PGlite, so a test
   * keeps the Worker returned and ends it from outside (`terminate()` exits with code 1), which the store,
   * not having asked for it, treats as a crash.
   */
  startWorker?: (start: () => Worker) => Worker;
  /**
   * How long a call made while the worker restarts waits before it rejects, so requests do not hang on a
   * folder that will not open; RESTART_WAIT_MS by default.
   */
  restartWaitMs?: number;
}

interface Listener {
  channel: string;
  onPayload: (payload: string) => void;
  onInterruption: ((event: ListenInterruption) => void) | undefined;
  /** Subscribed in the current worker (or in the dead one, until the restart subscribes it again). */
  active: boolean;
}

/** A call made while the worker restarts, in the order calls were made. */
interface Waiter {
  run: (connection: WorkerConnection) => void;
  fail: (error: Error) => void;
}

/** The attempt's delay: the first at once (the dead worker's thread has ended), then 100 ms doubling to 5 s. */
const backoff = (attempt: number): number =>
  attempt <= 1 ? 0 : Math.min(RESTART_FIRST_DELAY_MS * 2 ** (attempt - 2), RESTART_MAX_DELAY_MS);

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Opens PGlite in `dataDir` (or in memory when null) on a worker thread and returns the shared SQL surface
 * over it. Rejects with PGlite's own error when it cannot open.
 *
 * Should the worker die while open, the calls in flight reject with "the embedded store's worker stopped:
 * <reason>" and listeners hear `lost`. On a data folder a new worker is then started, with backoff, until
 * one opens or the store is closed: calls made meanwhile wait for it (10 s by default, then they reject
 * with "the embedded store is restarting…; try again"), listeners are subscribed again and hear `resumed`.
 * A transaction open at the crash is lost. In memory a new worker would come back empty, so the store stops
 * for good: every later call rejects with the stopped message.
 */
export const openPgliteThread = async (
  dataDir: string | null,
  options: PgliteThreadOptions = {},
): Promise<Sql> => {
  const { onRestart, restartWaitMs = RESTART_WAIT_MS } = options;
  const wrap = options.startWorker ?? ((start: () => Worker) => start());
  const listeners = new Map<number, Listener>();
  const waiting: Waiter[] = [];
  let nextId = 1;
  // Set once no call can succeed any more: new calls reject with it at once.
  let refusal: string | null = null;
  // Null while restarting; then `outage` says why.
  let current: WorkerConnection | null = null;
  let outage = '';
  let restarting: Promise<void> = Promise.resolve();
  // Aborted by close: cuts a restart's backoff short and ends a worker still starting.
  const closeController = new AbortController();

  const connect = (holdProcess: boolean): Promise<WorkerConnection> =>
    connectPgliteWorker(
      {
        start: () => wrap(() => startPgliteWorker(dataDir)),
        dataDir,
        holdProcess,
        signal: closeController.signal,
      },
      {
        onNotification: (listener, payload) => listeners.get(listener)?.onPayload(payload),
        onDeath: (connection, reason) => died(connection, reason),
      },
    );

  const tell = (event: ListenInterruption): void => {
    for (const listener of listeners.values()) if (listener.active) listener.onInterruption?.(event);
  };

  // Its calls in flight have been rejected (their outcome is unknown: the HTTP layer answers 5xx and SDKs
  // retry with idempotency ids, so nothing is counted twice).
  const died = (connection: WorkerConnection, reason: string): void => {
    // A worker that is not the current one is a restart attempt, whose own failure is handled there; after
    // close, an end was asked for.
    if (connection !== current || refusal !== null) return;
    current = null;
    tell({ state: 'lost', reason });
    if (dataDir === null) {
      refusal = reason;
      listeners.clear();
      return;
    }
    outage = reason;
    onRestart?.({ state: 'lost', reason, attempt: 0 });
    restarting = restart(connection, reason);
  };

  /** Opens a new worker and subscribes the active listeners in it; null when the store closed meanwhile. */
  const reopen = async (): Promise<WorkerConnection | null> => {
    const connection = await connect(false);
    const subscribed = [...listeners].filter(([, listener]) => listener.active);
    try {
      for (const [id, { channel }] of subscribed)
        await connection.call({ op: 'listen', channel, listener: id });
    } catch (error) {
      await connection.terminate(messageOf(error));
      throw error;
    }
    if (refusal !== null) {
      await connection.terminate(CLOSED);
      return null;
    }
    // Unsubscribed while being subscribed again: the worker would forward its notifications to no one.
    for (const [id] of subscribed)
      if (!listeners.has(id)) connection.call({ op: 'unlisten', listener: id }).catch(() => undefined);
    return connection;
  };

  // A function, not the variable: TypeScript would keep its narrowing across the awaits below.
  const refused = (): boolean => refusal !== null;

  const restart = async (dead: WorkerConnection, reason: string): Promise<void> => {
    // Two PGlites must never write one folder: the next starts once the dead one's thread has ended.
    await dead.exited;
    for (let attempt = 1; !refused(); attempt++) {
      // Cut short by close, which then awaits this loop.
      await delay(backoff(attempt), undefined, { ref: false, signal: closeController.signal }).catch(
        () => undefined,
      );
      if (refused()) return;
      let connection: WorkerConnection | null;
      try {
        connection = await reopen();
      } catch (error) {
        if (!refused()) onRestart?.({ state: 'lost', reason: messageOf(error), attempt });
        continue;
      }
      if (connection === null) return;
      current = connection;
      tell({ state: 'resumed', reason });
      onRestart?.({ state: 'resumed', reason, attempt });
      for (const waiter of waiting.splice(0)) waiter.run(connection);
      return;
    }
  };

  /** Runs `use` on the current worker, or once the restart has one (bounded), in the order of the calls. */
  const using = <T>(use: (connection: WorkerConnection) => Promise<T>): Promise<T> => {
    if (refusal !== null) return Promise.reject(stoppedError(refusal));
    if (current !== null) return use(current);
    const reason = outage;
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = {
        run: (connection) => {
          clearTimeout(timer);
          use(connection).then(resolve, reject);
        },
        fail: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      // Not unref'd: a caller awaits this answer, so the process must live to give it.
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(waiter), 1);
        reject(restartingError(reason));
      }, restartWaitMs);
      waiting.push(waiter);
    });
  };

  const call = (request: WorkerRequest): Promise<unknown> => using((connection) => connection.call(request));

  const first = await connect(true);
  current = first;

  const query = async (text: string, params: readonly unknown[] = []): Promise<Row[]> =>
    (await call({ op: 'query', text, params, tx: null })) as Row[];

  const close = async (): Promise<void> => {
    const connection = current;
    const closeCall = refusal === null && connection !== null ? connection.call({ op: 'close' }) : null;
    refusal ??= CLOSED;
    closeController.abort();
    for (const waiter of waiting.splice(0)) waiter.fail(stoppedError(CLOSED));
    try {
      await closeCall;
    } finally {
      listeners.clear();
      await connection?.terminate(CLOSED);
      await restarting;
    }
  };
  let closing: Promise<void> | null = null;

  return {
    query,
    exec: async (text) => {
      await call({ op: 'exec', text });
    },
    transaction: async <T>(fn: (tx: Queryable) => Promise<T>): Promise<T> => {
      const tx = nextId++;
      // Pinned to the worker that ran BEGIN: should it die, the transaction is gone and its calls reject
      // at once instead of waiting for a worker that never heard of it.
      const connection = await using(async (candidate) => {
        await candidate.call({ op: 'begin', tx });
        return candidate;
      });
      const inTransaction: Queryable = {
        query: async (text, params = []) =>
          (await connection.call({ op: 'query', text, params, tx })) as Row[],
      };
      let result: T;
      try {
        result = await fn(inTransaction);
      } catch (error) {
        // The caller's error is the one that matters; a failed ROLLBACK (a dead worker) would only hide it.
        await connection.call({ op: 'rollback', tx }).catch(() => undefined);
        throw error;
      }
      await connection.call({ op: 'commit', tx });
      return result;
    },
    foldRollups: async (envId, limit, options) =>
      (await call({ op: 'fold', envId, limit, wait: options.wait })) as number,
    listen: async (channel, onPayload, onInterruption) => {
      const listener = nextId++;
      const entry: Listener = { channel, onPayload, onInterruption, active: false };
      listeners.set(listener, entry);
      try {
        await call({ op: 'listen', channel, listener });
      } catch (error) {
        listeners.delete(listener);
        throw error;
      }
      entry.active = true;
      return async () => {
        if (!listeners.delete(listener)) return;
        // While restarting there is nothing to undo: the new worker subscribes only the listeners still here.
        if (refusal === null && current !== null) await current.call({ op: 'unlisten', listener });
      };
    },
    channelPrefix: 'feature',
    close: () => (closing ??= close()),
  };
};

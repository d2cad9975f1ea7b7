// One PGlite worker thread as the main thread sees it: starting it, the calls it owes answers to, and its
// end. pglite-thread.ts builds the store's SQL surface over one of these at a time, and replaces it when it
// dies; this file knows nothing of restarts.
import { extname } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { WorkerCall, WorkerError, WorkerMessage, WorkerRequest } from './pglite-worker.js';

/**
 * Starts the worker's module, which sits next to this one: `.js` when running from tsc's output in dist/lib,
 * `.ts` when running from the sources under tsx.
 */
export const startPgliteWorker = (dataDir: string | null): Worker => {
  const extension = extname(new URL(import.meta.url).pathname);
  const entry = new URL(`./pglite-worker${extension}`, import.meta.url);
  const options = { workerData: { dataDir } };
  if (extension !== '.ts') return new Worker(entry, options);
  // Node 20 runs no `--import` preload in worker threads (tsx issue #354), so the worker would not know
  // `.ts`: it registers tsx's loader itself, then imports its module.
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap =
    `import(${JSON.stringify(tsx)}).then((api) => { api.register(); ` +
    `return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
};

/** Rebuilds a worker's error on this thread, keeping the database's code, detail, severity… */
const toError = (error: WorkerError): Error => Object.assign(new Error(error.message), error.props);

/** The error of a call made to, or pending on, a worker that is gone (or of a store that was closed). */
export const stoppedError = (reason: string): Error =>
  new Error(`the embedded store's worker stopped: ${reason}`);

/** Resolves once the worker reports PGlite open; rejects with its open error or its death. */
const started = (worker: Worker, dataDir: string | null): Promise<void> =>
  new Promise((resolve, reject) => {
    const settle = (error: Error | null): void => {
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      if (error === null) resolve();
      else reject(error);
    };
    const onMessage = (message: WorkerMessage): void => {
      if (message.kind === 'ready') settle(null);
      else if (message.kind === 'open-failed') {
        const where = dataDir === null ? 'in memory' : `in ${dataDir}`;
        settle(
          toError({ ...message.error, message: `PGlite could not open ${where}: ${message.error.message}` }),
        );
      }
    };
    const onError = (error: Error): void => settle(stoppedError(error.message));
    const onExit = (code: number): void => settle(stoppedError(`exited with code ${code}`));
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  });

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** One open worker: PGlite is ready behind it until it ends. */
export interface WorkerConnection {
  /** Sends one request; rejects with stoppedError once the worker is gone, and at once after. */
  call(request: WorkerRequest): Promise<unknown>;
  /** Resolves once the worker's thread has ended, whoever ended it. */
  readonly exited: Promise<void>;
  /**
   * Ends the worker on purpose: its pending calls reject with stoppedError(`reason`) and `onDeath` is not
   * called. Resolves once its thread has ended.
   */
  terminate(reason: string): Promise<void>;
}

/** What a connection tells its owner. */
export interface WorkerConnectionEvents {
  /** A NOTIFY payload for the subscription the main thread numbered `listener`. */
  onNotification(listener: number, payload: string): void;
  /**
   * The worker ended without terminate() asking it to (a WASM abort, an out-of-memory, an exit from any
   * other cause), after its pending calls were rejected.
   */
  onDeath(connection: WorkerConnection, reason: string): void;
}

/** How a worker is started and watched while PGlite opens. */
export interface WorkerConnectionSetup {
  /** Starts the thread (startPgliteWorker, possibly wrapped by a test). */
  start: () => Worker;
  /** Only for the messages of an open failure. */
  dataDir: string | null;
  /**
   * Whether the starting worker keeps the process alive. The first open must (its caller awaits it); a
   * restart need not: calls waiting for it hold the process themselves, and nobody else needs it.
   */
  holdProcess: boolean;
  /** Ends the starting worker at once, which rejects the connection (a store closed while restarting). */
  signal?: AbortSignal;
}

/**
 * Starts a worker and resolves once PGlite is open in it; rejects with PGlite's open error or the worker's
 * death, once its thread has ended.
 */
export const connectPgliteWorker = async (
  setup: WorkerConnectionSetup,
  events: WorkerConnectionEvents,
): Promise<WorkerConnection> => {
  const worker = setup.start();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  if (!setup.holdProcess) worker.unref();
  const abort = (): void => void worker.terminate();
  setup.signal?.addEventListener('abort', abort, { once: true });
  try {
    if (setup.signal?.aborted === true) abort();
    await started(worker, setup.dataDir);
  } catch (error) {
    await worker.terminate();
    throw error;
  } finally {
    setup.signal?.removeEventListener('abort', abort);
  }

  const pending = new Map<number, Pending>();
  let nextId = 1;
  // Set once the worker is gone or going: calls reject with it.
  let gone: string | null = null;
  let asked = false;

  // Idle, the worker holds the process no more than an in-process PGlite did (a command that forgets to
  // close still exits); busy, it must, or a process could end with a statement half way.
  worker.unref();
  const settled = (id: number): Pending | undefined => {
    const entry = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return entry;
  };

  const end = (reason: string): void => {
    if (gone !== null) return;
    gone = reason;
    for (const entry of pending.values()) entry.reject(stoppedError(reason));
    pending.clear();
    worker.unref();
    if (!asked) events.onDeath(connection, reason);
  };

  const connection: WorkerConnection = {
    call: (request) => {
      if (gone !== null) return Promise.reject(stoppedError(gone));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.ref();
        try {
          worker.postMessage({ id, request } satisfies WorkerCall);
        } catch (error) {
          // A parameter structured cloning cannot copy (a function): this call fails, nothing was sent.
          settled(id);
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    },
    exited,
    terminate: async (reason) => {
      asked = true;
      end(reason);
      // Until it has exited, the worker is what keeps a process that awaits this from ending early.
      worker.ref();
      await worker.terminate();
    },
  };

  worker.on('message', (message: WorkerMessage) => {
    if (message.kind === 'notification') {
      events.onNotification(message.listener, message.payload);
    } else if (message.kind === 'reply') {
      const entry = settled(message.id);
      if (message.ok) entry?.resolve(message.value);
      else entry?.reject(toError(message.error));
    }
  });
  worker.on('error', (error) => end(error.message));
  worker.on('exit', (code) => end(`exited with code ${code}`));
  worker.on('messageerror', (error) => {
    // A reply that could not be read leaves its caller unanswered, and which one is unknown: end it all.
    end(`a message could not be read (${error.message})`);
    void worker.terminate();
  });
  return connection;
};

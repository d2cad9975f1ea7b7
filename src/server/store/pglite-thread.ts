// The main thread's side of the embedded store: the shared SQL surface over messages to PGlite's worker
// thread (pglite-worker.ts), so a statement costs the event loop a postMessage instead of its whole run time.
import { extname } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { WorkerCall, WorkerError, WorkerMessage, WorkerRequest } from './pglite-worker.js';
import type { ListenInterruption, Queryable, Row, Sql } from './sql.js';

/**
 * Starts the worker's module, which sits next to this one: `.js` when running from tsc's output in dist/lib,
 * `.ts` when running from the sources under tsx.
 */
const startWorker = (dataDir: string | null): Worker => {
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

const stoppedError = (reason: string): Error => new Error(`the embedded store's worker stopped: ${reason}`);

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Listener {
  onPayload: (payload: string) => void;
  onInterruption: ((event: ListenInterruption) => void) | undefined;
}

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

/**
 * Opens PGlite in `dataDir` (or in memory when null) on a worker thread and returns the shared SQL surface
 * over it. Rejects with PGlite's own error when it cannot open. Should the worker die, every pending and
 * later call rejects with "the embedded store's worker stopped: <reason>" and listeners hear `lost`.
 */
export const openPgliteThread = async (dataDir: string | null): Promise<Sql> => {
  const worker = startWorker(dataDir);
  try {
    await started(worker, dataDir);
  } catch (error) {
    await worker.terminate();
    throw error;
  }

  const pending = new Map<number, Pending>();
  const listeners = new Map<number, Listener>();
  let nextId = 1;
  // Set once no call can succeed any more: new calls reject with it at once.
  let refusal: string | null = null;

  // Idle, the worker holds the process no more than an in-process PGlite did (a command that forgets to
  // close still exits); busy, it must, or a process could end with a statement half way.
  worker.unref();
  const settled = (id: number): Pending | undefined => {
    const entry = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return entry;
  };

  const call = (request: WorkerRequest): Promise<unknown> => {
    if (refusal !== null) return Promise.reject(stoppedError(refusal));
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
  };

  const stop = (reason: string, interrupt: boolean): void => {
    refusal ??= reason;
    for (const entry of pending.values()) entry.reject(stoppedError(reason));
    pending.clear();
    worker.unref();
    if (interrupt)
      for (const listener of listeners.values()) listener.onInterruption?.({ state: 'lost', reason });
    listeners.clear();
  };

  worker.on('message', (message: WorkerMessage) => {
    if (message.kind === 'notification') {
      listeners.get(message.listener)?.onPayload(message.payload);
    } else if (message.kind === 'reply') {
      const entry = settled(message.id);
      if (message.ok) entry?.resolve(message.value);
      else entry?.reject(toError(message.error));
    }
  });
  worker.on('error', (error) => stop(error.message, true));
  worker.on('exit', (code) => stop(`exited with code ${code}`, true));
  worker.on('messageerror', (error) => {
    // A reply that could not be read leaves its caller unanswered, and which one is unknown: end it all.
    stop(`a message could not be read (${error.message})`, true);
    void worker.terminate();
  });

  const query = async (
    text: string,
    params: readonly unknown[] = [],
    tx: number | null = null,
  ): Promise<Row[]> => (await call({ op: 'query', text, params, tx })) as Row[];

  let closing: Promise<void> | null = null;
  const close = async (): Promise<void> => {
    const closed = refusal === null ? call({ op: 'close' }) : Promise.resolve();
    refusal ??= 'the store was closed';
    try {
      await closed;
    } finally {
      stop('the store was closed', false);
      // Until it has exited, the worker is what keeps a process that awaits this close from ending early.
      worker.ref();
      await worker.terminate();
    }
  };

  return {
    query: (text, params) => query(text, params),
    exec: async (text) => {
      await call({ op: 'exec', text });
    },
    transaction: async <T>(fn: (tx: Queryable) => Promise<T>): Promise<T> => {
      const tx = nextId++;
      await call({ op: 'begin', tx });
      const inTransaction: Queryable = { query: (text, params) => query(text, params, tx) };
      let result: T;
      try {
        result = await fn(inTransaction);
      } catch (error) {
        // The caller's error is the one that matters; a failed ROLLBACK (a dead worker) would only hide it.
        await call({ op: 'rollback', tx }).catch(() => undefined);
        throw error;
      }
      await call({ op: 'commit', tx });
      return result;
    },
    listen: async (channel, onPayload, onInterruption) => {
      const listener = nextId++;
      listeners.set(listener, { onPayload, onInterruption });
      try {
        await call({ op: 'listen', channel, listener });
      } catch (error) {
        listeners.delete(listener);
        throw error;
      }
      return async () => {
        if (!listeners.delete(listener)) return;
        await call({ op: 'unlisten', listener });
      };
    },
    channelPrefix: 'feature',
    close: () => (closing ??= close()),
  };
};

// The embedded store's thread: PGlite runs its WASM Postgres synchronously, so on the server's main thread
// every statement stalled the event loop (a 1 000-row upsert ~50 ms, p99 spikes of 100-300 ms on decisions
// and hit ingestion). Here it owns a worker thread and answers pglite-thread.ts's messages; the main thread
// only posts them. Started by pglite-thread.ts with `workerData: { dataDir }`, never imported for its code.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types, type Transaction } from '@electric-sql/pglite';
import { foldBatch } from '../rollups/rollup-fold-sql.js';
import type { Row } from '../sql/sql.js';

/** What the main thread asks of the worker; each is answered by one `reply` with the same request id. */
export type WorkerRequest =
  | { op: 'query'; text: string; params: readonly unknown[]; tx: number | null }
  | { op: 'exec'; text: string }
  // Opens transaction `tx` (an id the main thread picked) and answers once BEGIN ran.
  | { op: 'begin'; tx: number }
  // Ends transaction `tx`; answered once COMMIT or ROLLBACK ran.
  | { op: 'commit' | 'rollback'; tx: number }
  // Forwards the channel's notifications as `notification` messages tagged with `listener`.
  | { op: 'listen'; channel: string; listener: number }
  | { op: 'unlisten'; listener: number }
  // Runs one report-rollup fold in a transaction of its own here (Sql.foldRollups); answers how many marks it folded.
  | { op: 'fold'; envId: string; limit: number; wait: boolean }
  // Closes PGlite; the main thread then ends the worker.
  | { op: 'close' };

/** A request as posted: the main thread matches the reply by `id`. */
export interface WorkerCall {
  id: number;
  request: WorkerRequest;
}

/**
 * An error as it crosses the thread boundary: its message and own primitive properties (a DatabaseError's
 * code, detail, severity, query…), which structured cloning of the Error itself would drop.
 */
export interface WorkerError {
  message: string;
  props: Record<string, string | number | boolean | null>;
}

/** What the worker posts to the main thread. */
export type WorkerMessage =
  | { kind: 'ready' }
  | { kind: 'open-failed'; error: WorkerError }
  | { kind: 'reply'; id: number; ok: true; value: unknown }
  | { kind: 'reply'; id: number; ok: false; error: WorkerError }
  | { kind: 'notification'; listener: number; payload: string };

/** Copies what the main thread needs to rebuild `error` (see WorkerError). */
const toWorkerError = (error: unknown): WorkerError => {
  if (typeof error !== 'object' || error === null) return { message: String(error), props: {} };
  const props: WorkerError['props'] = {};
  for (const [key, value] of Object.entries(error)) {
    if (key === 'message' || key === 'stack') continue;
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) {
      props[key] = value as string | number | boolean | null;
    }
  }
  // Emscripten's file system throws plain objects ({ name: 'ErrnoError', errno: 54 }): say what they hold.
  if (!(error instanceof Error)) return { message: JSON.stringify(props), props };
  // `name` is usually inherited, not own: keep it when it says more than "Error".
  if (!('name' in props) && error.name !== 'Error') props.name = error.name;
  return { message: error.message, props };
};

/** A transaction kept open between messages until the main thread decides how it ends. */
interface OpenTransaction {
  tx: Transaction;
  /** Resolves the decision and returns PGlite's transaction promise (rejects when COMMIT fails). */
  end(commit: boolean): Promise<void>;
}

const textSerializer = types.serializers[types.TEXT];

/**
 * PGlite's text parameters, plus bytes sent as they are: a Uint8Array bound to a text parameter goes in
 * PostgreSQL's binary format, which for text is its UTF-8 bytes, as node-postgres sends a Buffer. A long
 * text given as a string is measured and encoded by a JavaScript loop of PGlite's driver on this thread
 * (about 4 µs per KB); Buffer.from on the caller's side encodes it natively.
 */
const textOrBytes = (value: unknown): string =>
  // The driver's bind sends an ArrayBufferView as binary whatever its serializer's declared return type.
  value instanceof Uint8Array ? (value as unknown as string) : (textSerializer?.(value) ?? String(value));

const serve = (db: PGlite, port: NonNullable<typeof parentPort>): void => {
  const transactions = new Map<number, OpenTransaction>();
  const unlisteners = new Map<number, () => Promise<void>>();

  const begin = async (id: number): Promise<void> => {
    let decide: (commit: boolean) => void = () => undefined;
    const decided = new Promise<boolean>((resolve) => (decide = resolve));
    let started: (tx: Transaction) => void = () => undefined;
    const opened = new Promise<Transaction>((resolve) => (started = resolve));
    // PGlite keeps its transaction lock for as long as this callback runs, so other statements queue behind
    // it exactly as they did in-process; only statements tagged with this transaction run meanwhile.
    const finished = db.transaction(async (tx) => {
      started(tx);
      if (!(await decided)) await tx.rollback();
    });
    // Rejections are awaited through `end` or the race below; this branch only keeps Node from calling one
    // unhandled (which ends a worker) in the moment between them.
    finished.catch(() => undefined);
    const tx = await Promise.race([
      opened,
      finished.then(() => Promise.reject(new Error('the transaction ended before it began'))),
    ]);
    transactions.set(id, {
      tx,
      end: (commit) => {
        decide(commit);
        return finished;
      },
    });
  };

  const end = (id: number, commit: boolean): Promise<void> => {
    const open = transactions.get(id);
    if (open === undefined) return Promise.reject(new Error(`no open transaction ${id}`));
    transactions.delete(id);
    return open.end(commit);
  };

  const run = async (request: WorkerRequest): Promise<unknown> => {
    switch (request.op) {
      case 'query': {
        const params = [...request.params];
        if (request.tx === null) return (await db.query(request.text, params)).rows;
        const open = transactions.get(request.tx);
        if (open === undefined) throw new Error(`no open transaction ${request.tx}`);
        return (await open.tx.query(request.text, params)).rows;
      }
      case 'exec':
        await db.exec(request.text);
        return undefined;
      case 'fold': {
        const { envId, limit, wait } = request;
        // Back to back on this thread: the transaction holds the store only for the fold's own work.
        return db.transaction((tx) =>
          foldBatch(
            { query: async (text, params = []) => (await tx.query<Row>(text, [...params])).rows },
            envId,
            limit,
            { wait },
          ),
        );
      }
      case 'begin':
        return begin(request.tx);
      case 'commit':
      case 'rollback':
        return end(request.tx, request.op === 'commit');
      case 'listen': {
        const { listener } = request;
        const unlisten = await db.listen(request.channel, (payload) => {
          port.postMessage({ kind: 'notification', listener, payload } satisfies WorkerMessage);
        });
        unlisteners.set(listener, () => unlisten());
        return undefined;
      }
      case 'unlisten': {
        const unlisten = unlisteners.get(request.listener);
        unlisteners.delete(request.listener);
        await unlisten?.();
        return undefined;
      }
      case 'close':
        // PGlite's close waits for queued statements and open transactions to finish.
        await db.close();
        return undefined;
    }
  };

  const reply = (id: number, outcome: { value: unknown } | { error: unknown }): void => {
    if ('error' in outcome) {
      port.postMessage({
        kind: 'reply',
        id,
        ok: false,
        error: toWorkerError(outcome.error),
      } satisfies WorkerMessage);
      return;
    }
    try {
      port.postMessage({ kind: 'reply', id, ok: true, value: outcome.value } satisfies WorkerMessage);
    } catch (error) {
      // A value structured cloning cannot copy (a custom type parser's result) fails this call, not the
      // worker.
      reply(id, { error });
    }
  };

  // Requests are served concurrently, not one after another: a transaction waits for its commit message
  // while its own statements keep arriving; PGlite orders the statements themselves.
  port.on('message', ({ id, request }: WorkerCall) => {
    run(request).then(
      (value) => reply(id, { value }),
      (error: unknown) => reply(id, { error }),
    );
  });
};

const open = async (port: NonNullable<typeof parentPort>): Promise<void> => {
  const { dataDir } = workerData as { dataDir: unknown };
  try {
    if (dataDir !== null && typeof dataDir !== 'string')
      throw new TypeError('dataDir must be a string or null');
    const options = { serializers: { [types.TEXT]: textOrBytes } };
    const db = dataDir === null ? new PGlite(options) : new PGlite(dataDir, options);
    await db.waitReady;
    serve(db, port);
    port.postMessage({ kind: 'ready' } satisfies WorkerMessage);
  } catch (error) {
    port.postMessage({ kind: 'open-failed', error: toWorkerError(error) } satisfies WorkerMessage);
  }
};

if (parentPort === null)
  throw new Error('pglite-worker runs as a worker thread: open it with openPgliteThread');
await open(parentPort);

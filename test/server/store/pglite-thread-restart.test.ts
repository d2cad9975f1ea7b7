// The embedded store's worker dying: on a data folder it is restarted on the same folder (committed rows kept,
// calls made meanwhile answered, listeners told lost then resumed); in memory the store stops for good.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import type { Worker } from 'node:worker_threads';
import {
  openPgliteThread,
  type PgliteRestartEvent,
  type PgliteThreadOptions,
} from '../../../server/src/store/pglite/pglite-thread.js';
import type { Sql } from '../../../server/src/store/sql/sql.js';
import { freshDataDir } from '../template-data-dir.js';

const stopped = /the embedded store's worker stopped: the store was closed$/;

// A worker that dies: there is no SQL statement that crashes PGlite, so these tests end its thread from
// outside. terminate() exits it with code 1, which the store did not ask for: to it, a crash.
const killed = /the embedded store's worker stopped: exited with code 1$/;

/** A store whose workers the test holds, to end them as a WASM abort or an out-of-memory would. */
const openKillable = async (
  dataDir: string | null,
  options: Omit<PgliteThreadOptions, 'startWorker'> & {
    /** Sees each worker started, numbered from 1. */
    startWorker?: (worker: Worker, number: number) => void;
  } = {},
): Promise<{ sql: Sql; workers: Worker[]; kill: () => Promise<void> }> => {
  const workers: Worker[] = [];
  const { startWorker, ...rest } = options;
  const sql = await openPgliteThread(dataDir, {
    ...rest,
    startWorker: (start) => {
      const worker = start();
      const number = workers.push(worker);
      startWorker?.(worker, number);
      return worker;
    },
  });
  const kill = async (): Promise<void> => {
    await workers.at(-1)?.terminate();
  };
  return { sql, workers, kill };
};

/**
 * Runs `body` with a fresh data folder, removed after: a copy of a migrated one, since what is restarted is
 * opening a folder that holds a database, not creating one (initdb on each folder cost most of this file).
 */
const withDataDir = async (body: (dir: string) => Promise<void>): Promise<void> => {
  const dir = await freshDataDir('feature-pglite-restart-');
  try {
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** A promise's outcome, observed at once so a rejection is never unhandled while the test goes on. */
const outcome = <T>(promise: Promise<T>): Promise<{ value: T } | { error: unknown }> =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

/** The message of an outcome's error, or 'resolved'. */
const failure = (result: { value: unknown } | { error: unknown }): string =>
  'error' in result
    ? result.error instanceof Error
      ? result.error.message
      : String(result.error)
    : 'resolved';

void test('on a data folder, a dead worker is restarted: committed rows are kept and a call made meanwhile is answered', async () => {
  await withDataDir(async (dir) => {
    const order: string[] = [];
    const { sql, workers, kill } = await openKillable(dir, {
      onRestart: (event) => order.push(event.state),
    });
    try {
      await sql.exec("CREATE TABLE kept (name text); INSERT INTO kept VALUES ('committed before the crash')");
      await kill();
      order.push('asked');
      const rows = await sql.query('SELECT name FROM kept');
      order.push('answered');
      assert.deepEqual(rows, [{ name: 'committed before the crash' }]);
      // Asked while the new worker was starting, answered once it was open.
      assert.deepEqual(order, ['lost', 'asked', 'resumed', 'answered']);
      assert.equal(workers.length, 2);
      // The new worker writes the same folder, durably.
      await sql.exec("INSERT INTO kept VALUES ('written after the restart')");
    } finally {
      await sql.close();
    }
    const reopened = await openPgliteThread(dir);
    try {
      assert.deepEqual(await reopened.query('SELECT name FROM kept ORDER BY name'), [
        { name: 'committed before the crash' },
        { name: 'written after the restart' },
      ]);
    } finally {
      await reopened.close();
    }
  });
});

void test('listeners hear lost then resumed once, are subscribed again, and one added meanwhile once', async () => {
  await withDataDir(async (dir) => {
    const { sql, kill } = await openKillable(dir);
    try {
      const heard: string[] = [];
      let onResumed: () => void = () => undefined;
      const resumed = new Promise<void>((resolve) => (onResumed = resolve));
      await sql.listen(
        'feature_restarted',
        (payload) => heard.push(payload),
        (event) => {
          heard.push(`${event.state}: ${event.reason}`);
          if (event.state === 'resumed') onResumed();
        },
      );
      const unsubscribed: string[] = [];
      const unsubscribe = await sql.listen(
        'feature_restarted',
        (payload) => unsubscribed.push(payload),
        (event) => unsubscribed.push(event.state),
      );
      await unsubscribe();
      await sql.query('SELECT pg_notify($1, $2)', ['feature_restarted', 'before']);
      await kill();
      // Subscribed while restarting: it heard of no break, and must not be subscribed twice.
      const late: string[] = [];
      const lateListening = sql.listen(
        'feature_restarted',
        (payload) => late.push(payload),
        (event) => late.push(event.state),
      );
      await resumed;
      await lateListening;
      await sql.query('SELECT pg_notify($1, $2)', ['feature_restarted', 'after']);
      assert.deepEqual(heard, ['before', 'lost: exited with code 1', 'resumed: exited with code 1', 'after']);
      assert.deepEqual(late, ['after']);
      assert.deepEqual(unsubscribed, []);
    } finally {
      await sql.close();
    }
  });
});

void test('a call in flight when the worker dies rejects, and so does an open transaction, which is lost', async () => {
  await withDataDir(async (dir) => {
    const { sql, kill } = await openKillable(dir);
    try {
      await sql.exec('CREATE TABLE items (id int)');
      let inFlight: Promise<{ value: unknown } | { error: unknown }> = Promise.resolve({ value: null });
      const transaction = outcome(
        sql.transaction(async (tx) => {
          await tx.query('INSERT INTO items VALUES (1)');
          // Queued in the worker behind the open transaction: in flight when the worker dies.
          inFlight = outcome(sql.query('SELECT count(*)::int AS n FROM items'));
          await kill();
          await tx.query('INSERT INTO items VALUES (2)');
        }),
      );
      assert.match(failure(await transaction), killed);
      assert.match(failure(await inFlight), killed);
      // Waits for the new worker: the transaction never committed.
      assert.deepEqual(await sql.query('SELECT count(*)::int AS n FROM items'), [{ n: 0 }]);
      await sql.transaction((tx) => tx.query('INSERT INTO items VALUES (3)'));
      assert.deepEqual(await sql.query('SELECT id FROM items'), [{ id: 3 }]);
    } finally {
      await sql.close();
    }
  });
});

void test('onRestart hears the death, each failed attempt and the restart, with attempt numbers', async () => {
  await withDataDir(async (dir) => {
    const events: PgliteRestartEvent[] = [];
    const { sql, workers, kill } = await openKillable(dir, {
      onRestart: (event) => events.push(event),
      // The first restart's worker dies while opening.
      startWorker: (worker, number) => {
        if (number === 2) void worker.terminate();
      },
    });
    try {
      await kill();
      assert.deepEqual(await sql.query('SELECT 1 AS one'), [{ one: 1 }]);
      assert.deepEqual(
        events.map(({ state, attempt }) => `${state} ${attempt}`),
        ['lost 0', 'lost 1', 'resumed 2'],
      );
      assert.equal(events[0]?.reason, 'exited with code 1');
      // Ended before its thread ran any code, that worker exits with 0 or 1: either is a death.
      assert.match(events[1]?.reason ?? '', /^the embedded store's worker stopped: exited with code [01]$/);
      // Resumed from the outage the first death began.
      assert.equal(events[2]?.reason, 'exited with code 1');
      assert.equal(workers.length, 3);
    } finally {
      await sql.close();
    }
  });
});

void test('a call waits for the restart only so long, then rejects and says to try again', async () => {
  await withDataDir(async (dir) => {
    // Every new worker dies while opening: the folder never opens again.
    const { sql, workers, kill } = await openKillable(dir, {
      restartWaitMs: 300,
      startWorker: (worker, number) => {
        if (number > 1) void worker.terminate();
      },
    });
    try {
      await kill();
      await assert.rejects(sql.query('SELECT 1'), {
        message: 'the embedded store is restarting after its worker stopped (exited with code 1); try again',
      });
    } finally {
      await sql.close();
    }
    assert.ok(workers.every((worker) => worker.threadId === -1));
  });
});

void test('close while restarting stops it, rejects the waiting calls, and resolves with nothing left running', async () => {
  await withDataDir(async (dir) => {
    let restartStarted: () => void = () => undefined;
    const restarting = new Promise<void>((resolve) => (restartStarted = resolve));
    const { sql, workers, kill } = await openKillable(dir, {
      startWorker: (_worker, number) => {
        if (number === 2) restartStarted();
      },
    });
    await kill();
    const waiting = outcome(sql.query('SELECT 1'));
    // Closed while the new worker opens PGlite: close ends it rather than waiting for it.
    await restarting;
    await sql.close();
    assert.match(failure(await waiting), stopped);
    await assert.rejects(sql.query('SELECT 1'), stopped);
    await assert.rejects(
      sql.transaction(() => Promise.resolve()),
      stopped,
    );
    // Both workers, the one that was starting included, have ended.
    assert.equal(workers.length, 2);
    assert.ok(workers.every((worker) => worker.threadId === -1));
    await sql.close();
  });
});

void test('in memory, a dead worker is not restarted (it would come back empty): calls reject for good', async () => {
  const interruptions: string[] = [];
  const { sql, workers, kill } = await openKillable(null);
  await sql.listen(
    'feature_in_memory',
    () => undefined,
    (event) => interruptions.push(`${event.state}: ${event.reason}`),
  );
  await kill();
  await assert.rejects(sql.query('SELECT 1'), killed);
  await assert.rejects(sql.exec('SELECT 1'), killed);
  assert.deepEqual(interruptions, ['lost: exited with code 1']);
  assert.equal(workers.length, 1);
  await sql.close();
  await assert.rejects(sql.query('SELECT 1'), killed);
});

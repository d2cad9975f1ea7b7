// The embedded store on its worker thread: the shared SQL surface behaves as in-process PGlite did (values,
// errors, transactions, notifications, durability), and the main thread's event loop runs while it works.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Worker } from 'node:worker_threads';
import {
  openPgliteThread,
  type PgliteRestartEvent,
  type PgliteThreadOptions,
} from '../../../src/server/store/pglite-thread.js';
import type { Sql } from '../../../src/server/store/sql.js';

// One in-memory database for the tests that do not close it: PGlite costs seconds to open.
let sql: Sql;
before(async () => {
  sql = await openPgliteThread(null);
});
after(() => sql.close());

const stopped = /the embedded store's worker stopped: the store was closed$/;

void test('query passes parameters and returns text, int8, jsonb, bytea and null values', async () => {
  // Above 2^53, so PGlite cannot hand it back as a number.
  const big = 9007199254740993n;
  const rows = await sql.query(
    'SELECT $1::text AS t, $2::int8 AS b, $3::jsonb AS j, $4::bytea AS y, $5::text AS n',
    ['héllo', big, JSON.stringify({ a: [1, 'x'], b: null }), new Uint8Array([0, 1, 255]), null],
  );
  assert.equal(rows.length, 1);
  const row = rows[0];
  assert.ok(row !== undefined);
  assert.equal(row.t, 'héllo');
  assert.equal(row.b, big);
  assert.deepEqual(row.j, { a: [1, 'x'], b: null });
  assert.ok(row.y instanceof Uint8Array);
  assert.deepEqual([...row.y], [0, 1, 255]);
  assert.equal(row.n, null);
});

void test('exec runs several statements', async () => {
  await sql.exec(`
    CREATE TABLE exec_items (id int PRIMARY KEY);
    INSERT INTO exec_items VALUES (1), (2), (3);
  `);
  assert.deepEqual(await sql.query('SELECT id FROM exec_items ORDER BY id'), [
    { id: 1 },
    { id: 2 },
    { id: 3 },
  ]);
});

void test('a transaction commits when its function resolves', async () => {
  await sql.exec('CREATE TABLE committed_items (id int PRIMARY KEY)');
  const result = await sql.transaction(async (tx) => {
    await tx.query('INSERT INTO committed_items VALUES ($1)', [1]);
    await tx.query('INSERT INTO committed_items VALUES ($1)', [2]);
    return (await tx.query('SELECT count(*)::int AS n FROM committed_items'))[0]?.n;
  });
  assert.equal(result, 2);
  assert.deepEqual(await sql.query('SELECT id FROM committed_items ORDER BY id'), [{ id: 1 }, { id: 2 }]);
});

void test('a transaction rolls back when its function throws, and rethrows that same error', async () => {
  await sql.exec('CREATE TABLE rolled_back_items (id int PRIMARY KEY)');
  const boom = new Error('boom');
  await assert.rejects(
    sql.transaction(async (tx) => {
      await tx.query('INSERT INTO rolled_back_items VALUES ($1)', [1]);
      throw boom;
    }),
    (error) => error === boom,
  );
  assert.deepEqual(await sql.query('SELECT id FROM rolled_back_items'), []);
  // The database is usable after the rollback, transactions included.
  await sql.transaction((tx) => tx.query('INSERT INTO rolled_back_items VALUES (2)'));
  assert.deepEqual(await sql.query('SELECT id FROM rolled_back_items'), [{ id: 2 }]);
});

void test("a SQL error rejects with the database's message and code", async () => {
  await assert.rejects(sql.query('SELECT * FROM no_such_table'), (error) => {
    assert.ok(error instanceof Error);
    assert.equal(error.message, 'relation "no_such_table" does not exist');
    assert.equal((error as Error & { code?: unknown }).code, '42P01');
    assert.equal((error as Error & { severity?: unknown }).severity, 'ERROR');
    return true;
  });
});

void test('concurrent queries from many callers all resolve with their own answers', async () => {
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, i) => sql.query('SELECT $1::int * 2 AS n', [i])),
  );
  assert.deepEqual(
    answers,
    Array.from({ length: 50 }, (_, i) => [{ n: i * 2 }]),
  );
});

void test('listen hears a NOTIFY payload, and unsubscribing stops it', async () => {
  const heard: string[] = [];
  const unsubscribe = await sql.listen('feature_thread_test', (payload) => heard.push(payload));
  await sql.query('SELECT pg_notify($1, $2)', ['feature_thread_test', 'first']);
  // The worker posts a notification before the answer of the statement that caused it.
  assert.deepEqual(heard, ['first']);
  await unsubscribe();
  await sql.query('SELECT pg_notify($1, $2)', ['feature_thread_test', 'second']);
  await sql.query('SELECT 1');
  assert.deepEqual(heard, ['first']);
});

void test("the main thread's event loop keeps turning while the worker runs a heavy statement", async () => {
  // In-process PGlite let one turn pass before the statement, then none until its end; here a chain of
  // callbacks, each scheduled by the one before on the next turn, reaches its end first.
  let turns = 0;
  const heavy = sql
    .query('SELECT count(*)::int AS n FROM generate_series(1, 3000000)')
    .then((rows) => ({ rows, turnsBefore: turns }));
  const turn = (): void => {
    if (++turns < 3) setImmediate(turn);
  };
  setImmediate(turn);
  const { rows, turnsBefore } = await heavy;
  assert.deepEqual(rows, [{ n: 3000000 }]);
  assert.equal(turnsBefore, 3);
});

void test('an open that fails rejects with what PGlite said', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-pglite-thread-'));
  try {
    const file = join(dir, 'not-a-folder');
    writeFileSync(file, 'x');
    await assert.rejects(openPgliteThread(file), (error) => {
      assert.ok(error instanceof Error);
      assert.ok(error.message.startsWith(`PGlite could not open in ${file}: `), error.message);
      return true;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('a data folder reopened after close keeps its data', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-pglite-thread-'));
  try {
    const first = await openPgliteThread(dir);
    await first.exec("CREATE TABLE kept (name text); INSERT INTO kept VALUES ('still here')");
    await first.close();
    const second = await openPgliteThread(dir);
    try {
      assert.deepEqual(await second.query('SELECT name FROM kept'), [{ name: 'still here' }]);
    } finally {
      await second.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('after close, every call rejects with a clear message and close can be repeated', async () => {
  const own = await openPgliteThread(null);
  const interruptions: string[] = [];
  await own.listen(
    'feature_closed',
    () => undefined,
    (event) => interruptions.push(event.state),
  );
  await own.close();
  await assert.rejects(own.query('SELECT 1'), stopped);
  await assert.rejects(own.exec('SELECT 1'), stopped);
  await assert.rejects(
    own.transaction(() => Promise.resolve()),
    stopped,
  );
  await assert.rejects(
    own.listen('feature_closed', () => undefined),
    stopped,
  );
  await own.close();
  // A close is not an interruption: nothing was lost that the caller did not ask for.
  assert.deepEqual(interruptions, []);
});

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

/** Runs `body` with a fresh data folder, removed after. */
const withDataDir = async (body: (dir: string) => Promise<void>): Promise<void> => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-pglite-restart-'));
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

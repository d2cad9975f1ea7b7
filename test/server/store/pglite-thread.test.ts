// The embedded store on its worker thread: the shared SQL surface behaves as in-process PGlite did (values,
// errors, transactions, notifications, durability), and the main thread's event loop runs while it works.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openPgliteThread } from '../../../server/src/store/pglite/pglite-thread.js';
import type { Sql } from '../../../server/src/store/sql/sql.js';
import { freshDataDir } from '../template-data-dir.js';

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

void test('a Uint8Array bound to a text parameter arrives as the text its UTF-8 bytes spell', async () => {
  // As node-postgres sends a Buffer: in binary format, which for text is its UTF-8 bytes. The bytea
  // parameter above keeps PGlite's own encoding.
  const text = '{"grøup-✓":"variation-€"}';
  const rows = await sql.query('SELECT $1::text AS t, $1::text::jsonb AS j', [Buffer.from(text)]);
  assert.equal(rows[0]?.t, text);
  assert.deepEqual(rows[0].j, { 'grøup-✓': 'variation-€' });
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
  // A copy of a migrated folder: what is tested is reopening one, not creating it (initdb costs seconds).
  const dir = await freshDataDir('feature-pglite-thread-');
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

void test('after close, every call rejects with a clear message and close can be repeated', async (t) => {
  // On a copied folder, not in memory: a new in-memory database runs initdb, seconds for a test about closing.
  const dir = await freshDataDir('feature-pglite-thread-closed-');
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const own = await openPgliteThread(dir);
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

// Reads of assignments through the embedded store's filter: until the table is scanned every id is asked
// for; then ids the table certainly lacks are not, while every id it holds (scanned over several pages, or
// written through the store, before its write commits too) still is; after purges a new scan drops the
// deleted ones. With a store and a database double that count what they are asked.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { filterAssignmentReads } from '../../../server/src/store/pglite/filtered-assignment-reads.js';
import type { Queryable, Row } from '../../../server/src/store/sql/sql.js';
import type { VisitorAssignments } from '../../../server/src/store/assignment-store.js';
import type { Store } from '../../../server/src/store/store.js';
import { until } from '../../support/until.js';

const ENV = 'env';

/** A database double: the assignments table as sorted (env, visitor) keys, scanned page by page. */
const database = (keys: Array<[string, string]>) => {
  let hold: Promise<void> = Promise.resolve();
  let release: () => void = () => undefined;
  let scans = 0;
  const db: Queryable = {
    query: async (_text, params = []): Promise<Row[]> => {
      await hold;
      scans++;
      const [envAfter, visitorAfter, limit] = params as [string, string, number];
      keys.sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1));
      return keys
        .filter(([e, v]) => e > envAfter || (e === envAfter && v > visitorAfter))
        .slice(0, limit)
        .map(([e, v]) => ({ env_id: e, visitor_id: v }));
    },
  };
  return {
    db,
    keys,
    scans: () => scans,
    holdScans: () => {
      hold = new Promise((resolve) => (release = resolve));
    },
    releaseScans: () => release(),
  };
};

/** A store double: records the ids each read asks for; writes wait for `releaseWrites` when held. */
const storeDouble = (table: ReturnType<typeof database>) => {
  const asked: string[][] = [];
  let purged = 0;
  let writes: Promise<void> = Promise.resolve();
  let release: () => void = () => undefined;
  const store = {
    getAssignments: (_envId: string, ids: readonly string[]): Promise<VisitorAssignments[]> => {
      asked.push([...ids]);
      return Promise.resolve([]);
    },
    saveAssignments: async (envId: string, visitors: readonly VisitorAssignments[]): Promise<void> => {
      await writes;
      for (const visitor of visitors) table.keys.push([envId, visitor.visitorId]);
    },
    purgeAssignments: (): Promise<number> => Promise.resolve(purged),
    close: () => Promise.resolve(),
  } as unknown as Store;
  return {
    store,
    asked,
    setPurged: (n: number) => (purged = n),
    holdWrites: () => {
      writes = new Promise((resolve) => (release = resolve));
    },
    releaseWrites: () => release(),
  };
};

/** The ids the store was asked for by this read: none when the filter answered alone. */
const asks = async (
  double: ReturnType<typeof storeDouble>,
  store: Store,
  ids: string[],
): Promise<string[]> => {
  const before = double.asked.length;
  await store.getAssignments(ENV, ids);
  return double.asked.length > before ? (double.asked.at(-1) ?? []) : [];
};

void describe('filtered assignment reads', () => {
  void it('asks for every id until the table is scanned (from the first read on), then only for ids it may hold', async () => {
    // 12 000 stored visitors: the scan takes three pages.
    const table = database(Array.from({ length: 12_000 }, (_, i): [string, string] => [ENV, `old-${i}`]));
    table.holdScans();
    const double = storeDouble(table);
    const store = filterAssignmentReads(double.store, table.db);
    assert.deepEqual(await asks(double, store, ['old-1', 'new-1']), ['old-1', 'new-1']);
    assert.deepEqual(await asks(double, store, ['new-2']), ['new-2']);
    table.releaseScans();
    await until(() => table.scans() === 3, { what: '3 scans done', intervalMs: 0, maxChecks: 1000 });
    await new Promise((resolve) => setImmediate(resolve));
    const ids = ['old-0', 'old-5000', 'old-11999', ...Array.from({ length: 50 }, (_, i) => `new-${i}`)];
    const asked = await asks(double, store, ids);
    for (const id of ['old-0', 'old-5000', 'old-11999']) assert.ok(asked.includes(id), id);
    assert.ok(asked.length < 10, `asked for ${asked.length} ids`);
    // Only ids it certainly lacks: no read at all.
    assert.deepEqual(await asks(double, store, ['new-x']), []);
  });

  void it('asks for a visitor written through it, from the moment its write is sent', async () => {
    const table = database([]);
    const double = storeDouble(table);
    const store = filterAssignmentReads(double.store, table.db);
    // The first read starts the scan.
    assert.deepEqual(await asks(double, store, ['fresh']), ['fresh']);
    await until(() => table.scans() === 1, { what: '1 scan done', intervalMs: 0, maxChecks: 1000 });
    await new Promise((resolve) => setImmediate(resolve));
    double.holdWrites();
    const visitors = [{ visitorId: 'fresh', history: { g: 'v' }, lastUsedMs: 1 }];
    const written = store.saveAssignments(ENV, visitors);
    assert.deepEqual(await asks(double, store, ['fresh']), ['fresh']);
    // A new scan (after purges) starting while that write is in flight keeps it too.
    double.setPurged(10);
    table.holdScans();
    await store.purgeAssignments(0);
    table.releaseScans();
    await until(() => table.scans() === 2, { what: '2 scans done', intervalMs: 0, maxChecks: 1000 });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(await asks(double, store, ['fresh']), ['fresh']);
    double.releaseWrites();
    await written;
    assert.deepEqual(await asks(double, store, ['fresh']), ['fresh']);
  });

  void it('scans again after purges deleted a quarter of its visitors, dropping them', async () => {
    const table = database(Array.from({ length: 100 }, (_, i): [string, string] => [ENV, `gone-${i}`]));
    const double = storeDouble(table);
    const store = filterAssignmentReads(double.store, table.db);
    assert.deepEqual(await asks(double, store, ['gone-7']), ['gone-7']);
    await until(() => table.scans() === 1, { what: '1 scan done', intervalMs: 0, maxChecks: 1000 });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(await asks(double, store, ['gone-7']), ['gone-7']);
    // 20 of 100 deleted: not yet.
    double.setPurged(20);
    await store.purgeAssignments(0);
    assert.equal(table.scans(), 1);
    // 40 of 100: scanned again, over what the table holds now.
    table.keys.splice(0, table.keys.length, [ENV, 'kept']);
    await store.purgeAssignments(0);
    await until(() => table.scans() === 2, { what: '2 scans done', intervalMs: 0, maxChecks: 1000 });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      await asks(double, store, ['gone-7']),
      [],
      'a deleted visitor is not read after the new scan',
    );
    assert.deepEqual(await asks(double, store, ['kept']), ['kept']);
  });
});

// Issue 31: activations and hits sit in one partition per UTC month of their received time (migration 10),
// with a DEFAULT partition for a month that has none yet; idempotency ids are claimed in collected_ids, so a
// retry received in a later month than its first copy is still not stored twice.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../../../server/src/store/store.js';
import { activation, hit } from '../report/rollups-support.js';
import { seedEnvironment, storeKinds } from '../support.js';
import {
  openStoreWithSql,
  partitionNames,
  partitionsOfRows,
  type StoreWithSql,
} from './partitions-support.js';

const OCT = Date.UTC(2026, 9, 10);
const NOV = Date.UTC(2026, 10, 10);

for (const kind of storeKinds()) {
  void describe(`monthly partitions of activations and hits (${kind.name})`, () => {
    let db: StoreWithSql;
    let store: Store;
    let envId: string;
    before(async () => {
      db = await openStoreWithSql(kind);
      store = db.store;
      ({ envId } = await seedEnvironment(store, []));
      // As the daily upkeep would have on 2026-10-05: October, November and December exist.
      await store.keepPartitions(Date.UTC(2026, 9, 5));
    });
    after(async () => {
      await db.close();
      await kind.cleanup();
    });

    void it('stores each row in the partition of its received month, and in DEFAULT without one', async () => {
      await store.insertHits(envId, [
        hit({ type: 'PAGEVIEW', vid: 'p1', createdMs: OCT, hid: 'p-oct' }),
        hit({ type: 'PAGEVIEW', vid: 'p1', createdMs: NOV, hid: 'p-nov' }),
        hit({ type: 'PAGEVIEW', vid: 'p1', createdMs: Date.UTC(2031, 0, 2), hid: 'p-2031' }),
      ]);
      await store.insertActivations(envId, [
        activation({ vid: 'p1', group: 'g1', variation: 'v1', createdMs: OCT, hid: 'a-oct' }),
      ]);
      assert.deepEqual(Object.values(await partitionsOfRows(db, 'hits')), [
        'hits_2026_10',
        'hits_2026_11',
        'hits_default',
      ]);
      assert.deepEqual(Object.values(await partitionsOfRows(db, 'activations')), ['activations_2026_10']);
    });

    void it('does not store twice a retry received in the month after its first copy', async () => {
      const first = hit({ type: 'EVENT', vid: 'r1', goal: 'buy', createdMs: OCT + 1000, hid: 'r-1' });
      assert.equal(await store.insertHits(envId, [first]), 1);
      // The retry arrives in November: another partition, the same id.
      assert.equal(await store.insertHits(envId, [{ ...first, receivedMs: NOV }]), 0);
      const retry = activation({
        vid: 'r1',
        group: 'g1',
        variation: 'v1',
        createdMs: OCT + 2000,
        hid: 'ra-1',
      });
      assert.equal(await store.insertActivations(envId, [retry]), 1);
      assert.equal(await store.insertActivations(envId, [{ ...retry, receivedMs: NOV }]), 0);
      const hits = await db.query(`SELECT count(*)::int AS n FROM hits WHERE hid = 'r-1'`);
      assert.equal(hits[0]?.n, 1);
      const activations = await db.query(`SELECT count(*)::int AS n FROM activations WHERE hid = 'ra-1'`);
      assert.equal(activations[0]?.n, 1);
    });

    void it('stores one row per id in a batch (the first), and every row without an id', async () => {
      const rows = [
        hit({ type: 'EVENT', vid: 'b1', goal: 'first', createdMs: NOV, hid: 'b-1' }),
        hit({ type: 'EVENT', vid: 'b1', goal: 'second', createdMs: NOV + 1, hid: 'b-1' }),
        hit({ type: 'EVENT', vid: 'b1', goal: 'plain', createdMs: NOV + 2 }),
        hit({ type: 'EVENT', vid: 'b1', goal: 'plain', createdMs: NOV + 2 }),
      ];
      assert.equal(await store.insertHits(envId, rows), 3);
      const stored = await db.query(
        `SELECT h.goal, h.hid FROM hits h WHERE h.visitor_id = 'b1' ORDER BY h.seq`,
      );
      assert.deepEqual(
        stored.map((row) => [row.goal, row.hid]),
        [
          ['first', 'b-1'],
          ['plain', null],
          ['plain', null],
        ],
      );
      const ids = await db.query(`SELECT kind, received_ms::text AS r FROM collected_ids WHERE hid = 'b-1'`);
      assert.deepEqual(ids, [{ kind: 'h', r: String(NOV) }]);
    });

    void it('creates a missing month over rows the DEFAULT partition holds in it, keeping their seq', async () => {
      const before = await partitionsOfRows(db, 'hits');
      const stray = Object.entries(before).find(([, p]) => p === 'hits_default');
      assert.ok(stray !== undefined, 'the 2031 row sits in DEFAULT');
      const created = await store.keepPartitions(Date.UTC(2030, 11, 20));
      assert.deepEqual(created, [
        'activations_2030_12',
        'activations_2031_01',
        'activations_2031_02',
        'hits_2030_12',
        'hits_2031_01',
        'hits_2031_02',
      ]);
      assert.equal((await partitionsOfRows(db, 'hits'))[stray[0]], 'hits_2031_01');
      assert.deepEqual(await store.keepPartitions(Date.UTC(2030, 11, 21)), [], 'idempotent');
      assert.ok((await partitionNames(db, 'hits')).includes('hits_default'));
    });
  });
}

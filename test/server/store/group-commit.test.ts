// Group commit of hits and activations. First the merging on its own, over a recording function (which
// statements ran, with which rows): one statement in flight (the merging), then several (the pipelining of
// issue 31); then on every store kind, concurrent requests carrying the same idempotency ids, in statements
// that run at the same time: each id is stored once and counted as accepted by exactly one caller.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { groupCommit, type IdempotentRow } from '../../../server/src/store/sql/group-commit.js';
import type { HitRow } from '../../../server/src/store/collect-store.js';
import { describeStoreOnEveryKind } from '../support.js';

interface Row extends IdempotentRow {
  bad?: boolean;
}

/** An idempotent store over a Set of (environment, id), recording each statement's ids; a row marked bad fails its statement. */
const recordingStore = () => {
  const known = new Set<string>();
  const statements: Array<Array<string | null>> = [];
  let release: (() => void) | null = null;
  let hold: Promise<void> | null = null;
  const store = async (envId: string, rows: readonly Row[]): Promise<Array<string | null>> => {
    statements.push(rows.map((r) => r.hid));
    if (hold !== null) await hold;
    if (rows.some((r) => r.bad === true)) throw new Error('constraint violated');
    return rows
      .filter((r) => r.hid === null || !known.has(`${envId}/${r.hid}`))
      .map((r) => {
        if (r.hid !== null) known.add(`${envId}/${r.hid}`);
        return r.hid;
      });
  };
  return {
    store,
    statements,
    /** Makes the next statements wait until `open` is called. */
    block: () => {
      hold = new Promise((resolve) => (release = resolve));
    },
    open: () => {
      hold = null;
      release?.();
    },
  };
};

const rows = (...hids: Array<string | null>): Row[] => hids.map((hid) => ({ hid }));

/** One statement in flight at a time: every call that arrives meanwhile waits for the next statement. */
const chained = { statementsInFlight: 1 };

void describe('group commit', () => {
  void it('sends a lone call at once, then merges the calls that arrive while a statement runs', async () => {
    const db = recordingStore();
    const insert = groupCommit(db.store, undefined, chained);
    db.block();
    const first = insert('env', rows('a'));
    assert.deepEqual(db.statements, [['a']], 'nothing in flight: the first call did not wait');
    const second = insert('env', rows('b', 'c'));
    const third = insert('env', rows('d'));
    db.open();
    assert.deepEqual(await Promise.all([first, second, third]), [1, 2, 1]);
    assert.deepEqual(db.statements, [['a'], ['b', 'c', 'd']]);
  });

  void it('counts an id carried by several calls once, for the first of them', async () => {
    const db = recordingStore();
    const insert = groupCommit(db.store, undefined, chained);
    db.block();
    const first = insert('env', rows('x'));
    const second = insert('env', rows('k', 'y', 'k'));
    const third = insert('env', rows('y', 'z', null));
    const fourth = insert('env', rows('x', null));
    db.open();
    // 'x' was stored by the first statement: the fourth call's copy is a duplicate like any later resend.
    assert.deepEqual(await Promise.all([first, second, third, fourth]), [1, 2, 2, 1]);
    assert.deepEqual(db.statements[1], ['k', 'y', 'z', null, 'x', null]);
  });

  void it('keeps environments apart', async () => {
    const db = recordingStore();
    const insert = groupCommit(db.store, undefined, chained);
    db.block();
    const one = insert('env-1', rows('a'));
    const other = insert('env-2', rows('a'));
    db.open();
    // Neither waited for the other's statement: each environment has its own queue.
    assert.deepEqual(db.statements, [['a'], ['a']]);
    assert.deepEqual(await Promise.all([one, other]), [1, 1]);
  });

  void it("does not let one call's failing rows fail the others", async () => {
    const db = recordingStore();
    const insert = groupCommit(db.store, undefined, chained);
    db.block();
    const first = insert('env', rows('a'));
    const good = insert('env', rows('b'));
    const bad = insert('env', [{ hid: 'c', bad: true }]);
    const later = insert('env', rows('d'));
    db.open();
    assert.equal(await first, 1);
    assert.equal(await good, 1);
    await assert.rejects(bad, /constraint violated/);
    assert.equal(await later, 1);
    // The merged statement failed whole, so each of its calls went again on its own.
    assert.deepEqual(db.statements, [['a'], ['b', 'c', 'd'], ['b'], ['c'], ['d']]);
  });

  void it('splits a queue longer than the row limit into several statements, keeping each call whole', async () => {
    const db = recordingStore();
    const insert = groupCommit(db.store, 3, chained);
    db.block();
    const calls = [insert('env', rows('a')), insert('env', rows('b', 'c')), insert('env', rows('d', 'e'))];
    calls.push(insert('env', rows('f', 'g', 'h', 'i')));
    db.open();
    assert.deepEqual(await Promise.all(calls), [1, 2, 2, 4]);
    assert.deepEqual(db.statements, [['a'], ['b', 'c'], ['d', 'e'], ['f', 'g', 'h', 'i']]);
  });

  void it('runs up to statementsInFlight statements at once, each taking what queued meanwhile', async () => {
    const db = recordingStore();
    const insert = groupCommit(db.store, undefined, { statementsInFlight: 2 });
    db.block();
    const calls = [insert('env', rows('a')), insert('env', rows('b'))];
    assert.deepEqual(db.statements, [['a'], ['b']], 'a second statement went without waiting for the first');
    calls.push(insert('env', rows('c')), insert('env', rows('d', 'e')));
    assert.equal(db.statements.length, 2, 'both slots busy: the next calls wait');
    db.open();
    assert.deepEqual(await Promise.all(calls), [1, 1, 1, 2]);
    // The first slot to free took everything that had queued.
    assert.deepEqual(db.statements, [['a'], ['b'], ['c', 'd', 'e']]);
  });

  void it('counts an id sent in two statements in flight together once (the store skips the later copy)', async () => {
    const db = recordingStore();
    const insert = groupCommit(db.store, undefined, { statementsInFlight: 3 });
    db.block();
    const calls = [insert('env', rows('x', 'y')), insert('env', rows('x')), insert('env', rows('y', 'z'))];
    db.open();
    assert.deepEqual(db.statements, [['x', 'y'], ['x'], ['y', 'z']]);
    assert.deepEqual(await Promise.all(calls), [2, 0, 1]);
  });

  void it('caps the statements in flight across environments, the oldest waiting environment first', async () => {
    const db = recordingStore();
    const insert = groupCommit(db.store, undefined, { statementsInFlight: 2, statementsInFlightTotal: 2 });
    db.block();
    const calls = [insert('env-1', rows('a')), insert('env-1', rows('b'))];
    calls.push(insert('env-2', rows('c')), insert('env-1', rows('d')), insert('env-3', rows('e')));
    assert.deepEqual(db.statements, [['a'], ['b']], 'the cap holds env-2 and env-3 back');
    db.open();
    assert.deepEqual(await Promise.all(calls), [1, 1, 1, 1, 1]);
    // The environments held back go first, in arrival order; env-1, which had its share, goes back in line.
    assert.deepEqual(db.statements, [['a'], ['b'], ['c'], ['e'], ['d']]);
  });

  void it("keeps a failing call's statement from failing the calls of the others in flight", async () => {
    const db = recordingStore();
    const insert = groupCommit(db.store, undefined, { statementsInFlight: 2 });
    db.block();
    const first = insert('env', rows('a'));
    const second = insert('env', rows('b'));
    const good = insert('env', rows('c'));
    const bad = insert('env', [{ hid: 'd', bad: true }]);
    db.open();
    assert.equal(await first, 1);
    assert.equal(await second, 1);
    assert.equal(await good, 1);
    await assert.rejects(bad, /constraint violated/);
    assert.deepEqual(db.statements, [['a'], ['b'], ['c', 'd'], ['c'], ['d']]);
  });

  void it('answers 0 for no rows without a statement', async () => {
    const db = recordingStore();
    assert.equal(await groupCommit(db.store)('env', []), 0);
    assert.deepEqual(db.statements, []);
  });
});

const hit = (hid: string | null, visitorId: string): HitRow => ({
  hid,
  type: 'EVENT',
  visitorId,
  customerId: null,
  goal: 'add_to_cart',
  revenue: null,
  createdMs: 1_000,
  receivedMs: 1_000,
  body: { t: 'EVENT', ea: 'add_to_cart' },
});

describeStoreOnEveryKind('group commit', (opened) => {
  void it('stores each id once across 40 concurrent calls and counts it for one caller', async () => {
    const { store, envId } = opened();
    // Call i carries ids i and i+1 (so each id but the ends is in two calls) and one hit without an id.
    const calls = Array.from({ length: 40 }, (_, i) =>
      store.insertHits(envId, [hit(`h-${i}`, `v${i}`), hit(`h-${i + 1}`, `v${i}`), hit(null, `v${i}`)]),
    );
    const accepted = await Promise.all(calls);
    // 41 distinct ids and 40 hits without one.
    assert.equal(
      accepted.reduce((a, b) => a + b, 0),
      81,
    );
    assert.ok(accepted.every((n) => n >= 1 && n <= 3));
    assert.deepEqual(await store.countHits(envId), { EVENT: 81 });
    // Sent again, all at once: every id is known now, only the id-less hits are new.
    const again = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        store.insertHits(envId, [hit(`h-${i}`, `v${i}`), hit(null, `v${i}`)]),
      ),
    );
    assert.deepEqual(
      again,
      Array.from({ length: 40 }, () => 1),
    );
  });

  void it('stores an id once when pipelined statements carry it at the same time', async () => {
    const { store, envId } = opened();
    // Every call carries the shared id and one of its own; the first calls each start a statement at once
    // (several in flight), the later ones merge: the copies meet both within a statement and across
    // statements running together, where the unique index makes the later insert wait and skip.
    const before = (await store.countHits(envId)).EVENT ?? 0;
    for (let round = 0; round < 5; round++) {
      const calls = Array.from({ length: 30 }, (_, i) =>
        store.insertHits(envId, [hit(`dup-${round}`, `v${i}`), hit(`own-${round}-${i}`, `v${i}`)]),
      );
      const accepted = await Promise.all(calls);
      assert.equal(
        accepted.filter((n) => n === 2).length,
        1,
        `round ${round}: one caller counts the shared id`,
      );
      assert.equal(accepted.filter((n) => n === 1).length, 29);
    }
    assert.equal((await store.countHits(envId)).EVENT, before + 5 * 31);
  });

  void it('stores concurrent activations once per id', async () => {
    const { store, envId } = opened();
    const activation = (hid: string) => ({
      hid,
      visitorId: 'v',
      anonymousId: null,
      campaignId: 'c',
      variationGroupId: 'g',
      variationId: 'x',
      createdMs: 1_000,
      receivedMs: 1_000,
    });
    const accepted = await Promise.all(
      Array.from({ length: 10 }, () =>
        store.insertActivations(envId, [activation('a-1'), activation('a-2')]),
      ),
    );
    assert.equal(
      accepted.reduce((a, b) => a + b, 0),
      2,
    );
  });
});

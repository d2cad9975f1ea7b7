// Assignment histories written as numbers (migration 006, server/src/store/sql/stored-histories.ts) on every store
// kind: what is written is the numbers form and reads back as the ids; a merge keeps the stored variation in
// both forms (numbers, and JSON rows written before 006); a store that did not write an id's number (another
// process, or the same folder reopened) reads it from the database; rows written by hand never fail a read
// or a write.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { VisitorAssignments } from '../../../server/src/store/assignment-store.js';
import type { Store } from '../../../server/src/store/store.js';
import { rawDatabase, storeKinds, type RawDatabase } from '../support.js';

/** The visitors of the rows written by hand in the second test. */
const HAND_WRITTEN = ['legacy', 'unknown-codes', 'repeated', 'garbage', 'broken-json', 'empty'];

/** The histories the store reads for `visitorIds`, by visitor (a visitor without one is absent). */
const historiesOf = async (
  store: Store,
  visitorIds: string[],
): Promise<Map<string, Record<string, string>>> =>
  new Map((await store.getAssignments('env', visitorIds)).map((v) => [v.visitorId, { ...v.history }]));

/** The history the store reads for `visitorId`; undefined for none. */
const historyOf = async (store: Store, visitorId: string): Promise<Record<string, string> | undefined> =>
  (await historiesOf(store, [visitorId])).get(visitorId);

/** The stored text of each visitor, read behind the store's back (its store must be closed on PGlite). */
const rawHistories = async (db: RawDatabase): Promise<Map<string, string>> =>
  new Map(
    (await db.query("SELECT visitor_id, history FROM assignments WHERE env_id = 'env'")).map((row) => [
      String(row.visitor_id),
      String(row.history),
    ]),
  );

const visitor = (
  visitorId: string,
  history: Record<string, string>,
  lastUsedMs = 1000,
): VisitorAssignments => ({
  visitorId,
  history,
  lastUsedMs,
});

void describe('assignment histories written as numbers (migration 006)', () => {
  for (const kind of storeKinds()) {
    void it(`writes numbers, reads ids and merges with the stored variation winning, on ${kind.name}`, async () => {
      const db = await rawDatabase(kind, 'feature-006-');
      try {
        // Twenty 20-character ids per history, as the server generates them (PROTOCOL.md §1).
        const id = (n: number): string => `k${String(n).padStart(3, '0')}${'x'.repeat(16)}`;
        const wide = Object.fromEntries(Array.from({ length: 20 }, (_, g) => [id(g), id(100 + (g % 3))]));
        let store = await db.openStore();
        try {
          await store.saveAssignments('env', [
            visitor('wide', wide),
            visitor('odd', { ['__proto__']: 'p', 'grøup-✓': 'variation-😀' }),
            visitor('merged', { g1: 'first' }),
          ]);
          // The stored variation wins; a group new to the visitor is added; the same visitor twice in one batch
          // keeps its first entry's variation.
          await store.saveAssignments('env', [
            visitor('merged', { g1: 'second', g2: 'added' }, 3000),
            visitor('merged', { g1: 'third', g3: 'later' }, 2000),
          ]);
          assert.deepEqual(await historyOf(store, 'wide'), wide);
          assert.deepEqual(Object.entries((await historyOf(store, 'odd')) ?? {}).sort(), [
            ['__proto__', 'p'],
            ['grøup-✓', 'variation-😀'],
          ]);
          assert.deepEqual(await historyOf(store, 'merged'), { g1: 'first', g2: 'added', g3: 'later' });
          assert.equal((await store.getAssignments('env', ['merged']))[0]?.lastUsedMs, 3000);
        } finally {
          await store.close();
        }

        const raw = await rawHistories(db);
        for (const text of raw.values()) assert.match(text, /^[1-9]\d*:[1-9]\d*(,[1-9]\d*:[1-9]\d*)*$/);
        assert.ok(
          (raw.get('wide') ?? '').length * 5 < JSON.stringify(wide).length,
          `${raw.get('wide')} is not a fifth of the JSON`,
        );
        assert.equal(raw.get('merged')?.split(',').length, 3);

        // A store that starts with no numbers in memory (PGlite: the folder reopened; PostgreSQL: as another
        // process would) reads the numbers the first one gave, and merges over them.
        store = await db.openStore();
        try {
          assert.deepEqual(await historyOf(store, 'wide'), wide);
          await store.saveAssignments('env', [visitor('merged', { g1: 'fourth', g4: 'new' })]);
          assert.deepEqual(await historyOf(store, 'merged'), {
            g1: 'first',
            g2: 'added',
            g3: 'later',
            g4: 'new',
          });
        } finally {
          await store.close();
        }
      } finally {
        await db.remove();
      }
    });

    void it(`keeps JSON rows written before 006 and survives rows written by hand, on ${kind.name}`, async () => {
      const db = await rawDatabase(kind, 'feature-006-');
      try {
        let store = await db.openStore();
        await store.saveAssignments('env', [visitor('known', { g1: 'v1', g2: 'v2' })]);
        await store.close();
        const codes = new Map(
          (await db.query('SELECT code, id FROM assignment_ids')).map((row) => [
            String(row.id),
            Number(row.code),
          ]),
        );
        const [g1, v1, v2] = [codes.get('g1'), codes.get('v1'), codes.get('v2')];
        await db.exec(
          `INSERT INTO assignments VALUES
             ('env', 'legacy', '{"g1": "old", "__proto__": "p"}', 10),
             ('env', 'unknown-codes', '${g1}:${v1},999999:${v2},9999999999:${v1}', 10),
             ('env', 'repeated', '${g1}:${v2},${g1}:${v1}', 10),
             ('env', 'garbage', 'g1=v1', 10),
             ('env', 'broken-json', '{"g1": "v', 10),
             ('env', 'empty', '', 10)`,
        );
        store = await db.openStore();
        try {
          const read = await historiesOf(store, HAND_WRITTEN);
          // Unreadable rows are no history; numbers unknown to assignment_ids (or too large for one) are
          // left out; a group named twice keeps its first variation, as a merge would.
          assert.deepEqual([...read.keys()].sort(), ['empty', 'legacy', 'repeated', 'unknown-codes']);
          assert.deepEqual(Object.entries(read.get('legacy') ?? {}).sort(), [
            ['__proto__', 'p'],
            ['g1', 'old'],
          ]);
          assert.deepEqual(read.get('unknown-codes'), { g1: 'v1' });
          assert.deepEqual(read.get('repeated'), { g1: 'v2' });
          assert.deepEqual(read.get('empty'), {});

          // One batch over all of them: every visitor is written, the readable histories merged (the stored
          // variation winning, §8.4), the unreadable ones replaced.
          await store.saveAssignments(
            'env',
            [...HAND_WRITTEN, 'fresh'].map((id) => visitor(id, { g1: 'new1', g5: 'new5' }, 5000)),
          );
          const after = await historiesOf(store, [...HAND_WRITTEN, 'fresh']);
          assert.deepEqual(Object.entries(after.get('legacy') ?? {}).sort(), [
            ['__proto__', 'p'],
            ['g1', 'old'],
            ['g5', 'new5'],
          ]);
          assert.deepEqual(after.get('unknown-codes'), { g1: 'v1', g5: 'new5' });
          assert.deepEqual(after.get('repeated'), { g1: 'v2', g5: 'new5' });
          for (const replaced of ['garbage', 'broken-json', 'empty', 'fresh'])
            assert.deepEqual(after.get(replaced), { g1: 'new1', g5: 'new5' }, replaced);
        } finally {
          await store.close();
        }
        // The JSON row stays JSON (merged as jsonb); every other row is in the numbers form.
        const raw = await rawHistories(db);
        assert.deepEqual(Object.entries(JSON.parse(raw.get('legacy') ?? '') as object).sort(), [
          ['__proto__', 'p'],
          ['g1', 'old'],
          ['g5', 'new5'],
        ]);
        for (const [visitorId, text] of raw)
          if (visitorId !== 'legacy')
            assert.match(text, /^[1-9]\d*:[1-9]\d*(,[1-9]\d*:[1-9]\d*)*$/, visitorId);
      } finally {
        await db.remove();
      }
    });

    if (kind.postgres !== undefined)
      void it('gives each id one number when two processes write new ids at once, on postgres', async () => {
        const db = await rawDatabase(kind, 'feature-006-');
        try {
          const [first, second] = [await db.openStore(), await db.openStore()];
          try {
            const histories = (prefix: string): VisitorAssignments[] =>
              Array.from({ length: 50 }, (_, i) =>
                visitor(`${prefix}-${i}`, {
                  [`group-${i % 10}`]: `variation-${i % 7}`,
                  shared: `s-${i % 3}`,
                }),
              );
            await Promise.all([
              first.saveAssignments('env', histories('a')),
              second.saveAssignments('env', histories('b')),
            ]);
            const rows = await db.query('SELECT id, count(*)::int AS n FROM assignment_ids GROUP BY id');
            assert.equal(rows.length, 10 + 7 + 1 + 3);
            assert.ok(rows.every((row) => row.n === 1));
            // Each reads what the other wrote.
            assert.deepEqual(await historyOf(first, 'b-13'), { 'group-3': 'variation-6', shared: 's-1' });
            assert.deepEqual(await historyOf(second, 'a-13'), { 'group-3': 'variation-6', shared: 's-1' });
          } finally {
            await Promise.all([first.close(), second.close()]);
          }
        } finally {
          await db.remove();
        }
      });
  }
});

// The store's assignments (PROTOCOL.md §8.4), one row per visitor, on every store kind: a write-behind batch
// larger than one statement's chunk lands whole, a stored variation is never changed by a later write (nor by
// a second entry of the same batch), last use only moves forward, group ids that name prototype members
// are plain keys, and ids outside ASCII come back as they went (ids are stored once, in assignment_ids).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { VisitorAssignments } from '../../../server/src/store/assignment-store.js';
import { describeStoreOnEveryKind } from '../support.js';

describeStoreOnEveryKind('assignments', (opened) => {
  void it('stores every visitor of a batch spanning several statements', async () => {
    const { store, envId } = opened();
    // 250 visitors × 3 groups: more visitors than one statement carries.
    const visitors: VisitorAssignments[] = Array.from({ length: 250 }, (_, v) => ({
      visitorId: `bulk-${v}`,
      history: { g1: `g1-v${v % 2}`, g2: `g2-v${v % 2}`, g3: `g3-v${v % 2}` },
      lastUsedMs: 1000 + v,
    }));
    await store.saveAssignments(envId, visitors);
    const ids = Array.from({ length: 250 }, (_, v) => `bulk-${v}`);
    const stored = await store.getAssignments(envId, ids);
    assert.equal(stored.length, 250);
    const of = (id: string) => stored.find((r) => r.visitorId === id);
    assert.deepEqual({ ...of('bulk-0')?.history }, { g1: 'g1-v0', g2: 'g2-v0', g3: 'g3-v0' });
    assert.deepEqual({ ...of('bulk-249')?.history }, { g1: 'g1-v1', g2: 'g2-v1', g3: 'g3-v1' });
    assert.equal(of('bulk-249')?.lastUsedMs, 1249);
  });

  void it('keeps the stored variation of a group and adds new groups', async () => {
    const { store, envId } = opened();
    await store.saveAssignments(envId, [{ visitorId: 'sticky', history: { g1: 'first' }, lastUsedMs: 5000 }]);
    await store.saveAssignments(envId, [
      { visitorId: 'sticky', history: { g1: 'second', g2: 'other' }, lastUsedMs: 4000 },
    ]);
    const [stored] = await store.getAssignments(envId, ['sticky']);
    assert.deepEqual({ ...stored?.history }, { g1: 'first', g2: 'other' });
    // Last use never moves back: the later write carried an older time.
    assert.equal(stored?.lastUsedMs, 5000);
  });

  void it('keeps the first variations of a visitor listed twice in one batch, and the latest last use', async () => {
    const { store, envId } = opened();
    await store.saveAssignments(envId, [
      { visitorId: 'twice', history: { g1: 'first' }, lastUsedMs: 100 },
      { visitorId: 'other', history: { g1: 'x' }, lastUsedMs: 100 },
      { visitorId: 'twice', history: { g1: 'second', g2: 'added' }, lastUsedMs: 200 },
    ]);
    const stored = await store.getAssignments(envId, ['twice', 'other']);
    const twice = stored.find((r) => r.visitorId === 'twice');
    assert.deepEqual({ ...twice?.history }, { g1: 'first', g2: 'added' });
    assert.equal(twice?.lastUsedMs, 200);
    assert.equal(stored.length, 2);
  });

  void it('stores group ids named after prototype members as plain keys', async () => {
    const { store, envId } = opened();
    // Own keys, as a parsed body would have them.
    const history = JSON.parse('{"__proto__":"p","constructor":"c"}') as Record<string, string>;
    await store.saveAssignments(envId, [{ visitorId: 'proto', history, lastUsedMs: 1 }]);
    const [stored] = await store.getAssignments(envId, ['proto']);
    assert.deepEqual(Object.entries(stored?.history ?? {}).sort(), [
      ['__proto__', 'p'],
      ['constructor', 'c'],
    ]);
    assert.equal(Object.hasOwn(stored?.history ?? {}, '__proto__'), true);
  });

  void it('stores ids outside ASCII, and a history past the 2 KB where PostgreSQL starts to compress a row', async () => {
    const { store, envId } = opened();
    // Ids are written once, to assignment_ids (stored-histories.ts), and read back from there: characters of
    // two, three and four bytes must come back as they were.
    const history: Record<string, string> = {};
    for (let g = 0; g < 60; g++) history[`grøup-${g}-✓`] = `variation-€-${g}-😀`;
    await store.saveAssignments(envId, [{ visitorId: 'visiteur-é-😀', history, lastUsedMs: 7 }]);
    const [stored] = await store.getAssignments(envId, ['visiteur-é-😀']);
    assert.equal(stored?.visitorId, 'visiteur-é-😀');
    assert.deepEqual({ ...stored.history }, history);
  });

  void it('keeps environments apart', async () => {
    const { store } = opened();
    const account = await store.createAccount('other');
    const other = (await store.createEnvironment({ accountId: account.id, name: 'other' })).environment.id;
    assert.deepEqual(await store.getAssignments(other, ['sticky', 'bulk-0']), []);
  });
});

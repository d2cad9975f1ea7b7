// The store's assignment rows (PROTOCOL.md §8.4) on every store kind: a write-behind batch larger than one
// statement's chunk lands whole, a stored variation is never changed by a later write, last use only moves
// forward, and group ids that name prototype members are plain keys.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { AssignmentRow } from '../../../server/src/store/store.js';
import { describeStoreOnEveryKind } from '../support.js';

describeStoreOnEveryKind('assignments', (opened) => {
  void it('stores every visitor of a batch spanning several statements', async () => {
    const { store, envId } = opened();
    // 250 visitors × 3 groups: more visitors than one statement carries, rows of a visitor interleaved.
    const rows: AssignmentRow[] = [];
    for (const group of ['g1', 'g2', 'g3']) {
      for (let v = 0; v < 250; v++) {
        rows.push({
          visitorId: `bulk-${v}`,
          variationGroupId: group,
          variationId: `${group}-v${v % 2}`,
          lastUsedMs: 1000 + v,
        });
      }
    }
    await store.saveAssignments(envId, rows);
    const ids = Array.from({ length: 250 }, (_, v) => `bulk-${v}`);
    const stored = await store.getAssignments(envId, ids);
    assert.equal(stored.length, 750);
    const of = (id: string) =>
      Object.fromEntries(
        stored.filter((r) => r.visitorId === id).map((r) => [r.variationGroupId, r.variationId]),
      );
    assert.deepEqual(of('bulk-0'), { g1: 'g1-v0', g2: 'g2-v0', g3: 'g3-v0' });
    assert.deepEqual(of('bulk-249'), { g1: 'g1-v1', g2: 'g2-v1', g3: 'g3-v1' });
    assert.equal(stored.find((r) => r.visitorId === 'bulk-249')?.lastUsedMs, 1249);
  });

  void it('keeps the stored variation of a group and adds new groups', async () => {
    const { store, envId } = opened();
    await store.saveAssignments(envId, [
      { visitorId: 'sticky', variationGroupId: 'g1', variationId: 'first', lastUsedMs: 5000 },
    ]);
    await store.saveAssignments(envId, [
      { visitorId: 'sticky', variationGroupId: 'g1', variationId: 'second', lastUsedMs: 4000 },
      { visitorId: 'sticky', variationGroupId: 'g2', variationId: 'other', lastUsedMs: 4000 },
    ]);
    const stored = await store.getAssignments(envId, ['sticky']);
    const history = Object.fromEntries(stored.map((r) => [r.variationGroupId, r.variationId]));
    assert.deepEqual(history, { g1: 'first', g2: 'other' });
    // Last use never moves back: the later write carried an older time.
    assert.ok(stored.every((r) => r.lastUsedMs === 5000));
  });

  void it('stores group ids named after prototype members as plain keys', async () => {
    const { store, envId } = opened();
    await store.saveAssignments(envId, [
      { visitorId: 'proto', variationGroupId: '__proto__', variationId: 'p', lastUsedMs: 1 },
      { visitorId: 'proto', variationGroupId: 'constructor', variationId: 'c', lastUsedMs: 1 },
    ]);
    const stored = await store.getAssignments(envId, ['proto']);
    assert.deepEqual(stored.map((r) => [r.variationGroupId, r.variationId]).sort(), [
      ['__proto__', 'p'],
      ['constructor', 'c'],
    ]);
  });

  void it('keeps environments apart', async () => {
    const { store } = opened();
    const account = await store.createAccount('other');
    const other = (await store.createEnvironment({ accountId: account.id, name: 'other' })).environment.id;
    assert.deepEqual(await store.getAssignments(other, ['sticky', 'bulk-0']), []);
  });
});

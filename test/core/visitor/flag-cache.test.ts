// The visitor's Flag cache (issue 18): one Flag per key and flags snapshot, so a read allocates nothing, while
// every SPEC rule of reading still holds: flags are live, a new snapshot gives new Flags, panic gives defaults.
import { campaign, decision, panicDecision } from '../shared/decisions.js';
import { nodeHarness } from '../shared/node-harness.js';
import { withSession } from '../shared/session.js';

const h = nodeHarness;
const { describe, it, assert } = h;
const quiet = { visitorExposed: false };
const first = decision('*', [campaign('c1', 'vg1', 'v1', { color: 'green', size: 2 })]);
const second = decision('*', [campaign('c1', 'vg1', 'v2', { color: 'blue', size: 3, extra: true })]);

describe('Visitor.getFlag cache (one Flag per key and snapshot)', () => {
  it('the same Flag for a key within a snapshot, getFlags included; a new one after a fetch', () =>
    withSession(h, { decisions: { '*': first } }, async ({ instance, double }) => {
      const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
      await visitor.fetchFlags();
      const color = visitor.getFlag('color');
      assert.equal(visitor.getFlag('color'), color);
      assert.equal(visitor.getFlags().get('color'), color);
      assert.notEqual(visitor.getFlag('size'), color);
      assert.equal(visitor.getFlag('missing'), visitor.getFlag('missing'));

      await double.setDecisions({ '*': second });
      await visitor.fetchFlags();
      const colorAfter = visitor.getFlag('color');
      assert.notEqual(colorAfter, color, 'a new snapshot gives a new Flag');
      assert.equal(visitor.getFlag('color'), colorAfter);
      assert.equal(colorAfter.value('red', quiet), 'blue');
      assert.equal(color.value('red', quiet), 'blue', 'a Flag kept from before the fetch is live');
      assert.equal(visitor.getFlag('size').value(0, quiet), 3);
    }));

  it('reads after a snapshot change see the new values: a key missing before, found after', () =>
    withSession(h, { decisions: { '*': first } }, async ({ instance, double }) => {
      const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
      const early = visitor.getFlag('extra');
      assert.equal(early.value(false, quiet), false);
      assert.equal(early.exists(), false);
      await visitor.fetchFlags();
      assert.equal(visitor.getFlag('extra').exists(), false);
      assert.equal(visitor.getFlag('color').value('red', quiet), 'green');
      await double.setDecisions({ '*': second });
      await visitor.fetchFlags();
      assert.equal(visitor.getFlag('extra').value(false, quiet), true);
      assert.equal(early.value(false, quiet), true);
      assert.equal(early.getFlagStatus(), 'FETCHED');
    }));

  it('a cached Flag gives its default once another visitor puts the SDK in panic, and its value after', () =>
    withSession(h, { decisions: { v1: first, p: panicDecision('p') } }, async ({ instance, double }) => {
      const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
      await visitor.fetchFlags();
      const color = visitor.getFlag('color');
      assert.equal(color.value('red', quiet), 'green');
      const other = instance.newVisitor({ visitorId: 'p', hasConsented: true }).build();
      await other.fetchFlags();
      assert.equal(instance.getStatus(), 'SDK_PANIC');
      assert.equal(color.value('red', quiet), 'red');
      assert.equal(visitor.getFlag('color'), color, 'the snapshot of v1 did not change');
      assert.equal(color.getFlagStatus(), 'PANIC');
      assert.equal(visitor.getFlags().count, 0);
      await double.setDecisions({ v1: first, p: first });
      await other.fetchFlags();
      assert.equal(color.value('red', quiet), 'green');
    }));

  it('a type mismatch on a cached Flag still gives the default with one warning', () =>
    withSession(h, { decisions: { '*': first } }, async ({ instance, logs }) => {
      const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
      await visitor.fetchFlags();
      for (let i = 0; i < 3; i++) assert.equal(visitor.getFlag('color').value(1, quiet), 1);
      assert.equal(visitor.getFlag('color').value('red', quiet), 'green');
      assert.equal(logs.filter((l) => l.message.startsWith('flag "color" is a string')).length, 1);
    }));
});

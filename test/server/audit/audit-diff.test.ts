// The readable diff of two audited states (issue 36), against differences worked out by hand.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { auditDiff } from '../../../server/src/audit/audit-diff.js';

void it('gives no lines for equal states, whatever their key order', () => {
  assert.deepEqual(auditDiff({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 }), []);
  assert.deepEqual(auditDiff(null, null), []);
});

void it('names each changed leaf by its path, in the order of the state before', () => {
  const before = {
    name: 'Checkout',
    state: 'active',
    body: { variationGroups: [{ id: 'vg1', variations: [{ allocation: 50 }, { allocation: 50 }] }] },
  };
  const after = {
    state: 'paused',
    name: 'Checkout',
    body: { variationGroups: [{ id: 'vg1', variations: [{ allocation: 30 }, { allocation: 70 }] }] },
  };
  assert.deepEqual(auditDiff(before, after), [
    { path: 'state', before: 'active', after: 'paused' },
    { path: 'body.variationGroups[0].variations[0].allocation', before: 50, after: 30 },
    { path: 'body.variationGroups[0].variations[1].allocation', before: 50, after: 70 },
  ]);
});

void it('shows a key or item that appears or goes with one side only', () => {
  assert.deepEqual(auditDiff({ a: 1, list: ['x'] }, { b: null, list: ['x', 'y'] }), [
    { path: 'a', before: 1 },
    { path: 'list[1]', after: 'y' },
    { path: 'b', after: null },
  ]);
});

void it('quotes a key that is not a plain name', () => {
  assert.deepEqual(auditDiff({ 'odd key': 1, c1: { 'a.b': true } }, { 'odd key': 2, c1: { 'a.b': false } }), [
    { path: '["odd key"]', before: 1, after: 2 },
    { path: 'c1["a.b"]', before: true, after: false },
  ]);
});

void it('gives one line for a subject created, deleted, or whose type changed', () => {
  assert.deepEqual(auditDiff(null, { id: 'c1' }), [{ path: '', before: null, after: { id: 'c1' } }]);
  assert.deepEqual(auditDiff({ id: 'c1' }, null), [{ path: '', before: { id: 'c1' }, after: null }]);
  assert.deepEqual(auditDiff({ v: [1] }, { v: { 0: 1 } }), [{ path: 'v', before: [1], after: { 0: 1 } }]);
});

// RecentVisitors: the server provider's bound on kept visitors (least recently used dropped first).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecentVisitors } from '../../src/openfeature/recent-visitors.js';

void describe('RecentVisitors', () => {
  void it('keeps at most max entries, dropping the least recently read or set', () => {
    const dropped: string[] = [];
    const recent = new RecentVisitors<string>(2, (entry) => dropped.push(entry));
    recent.set('a', 'A');
    recent.set('b', 'B');
    assert.equal(recent.get('a'), 'A'); // a is now more recent than b
    recent.set('c', 'C');
    assert.deepEqual(dropped, ['B']);
    assert.equal(recent.size, 2);
    assert.equal(recent.peek('b'), undefined);
    assert.equal(recent.peek('a'), 'A'); // peeking does not change the order
    recent.set('d', 'D');
    assert.deepEqual(dropped, ['B', 'A']);
  });

  void it('setting a kept id replaces its entry without dropping another; clear drops every entry', () => {
    const dropped: string[] = [];
    const recent = new RecentVisitors<string>(2, (entry) => dropped.push(entry));
    recent.set('a', 'A1');
    recent.set('b', 'B');
    recent.set('a', 'A2');
    assert.deepEqual(dropped, []);
    assert.equal(recent.get('a'), 'A2');
    recent.clear();
    assert.deepEqual(dropped.sort(), ['A2', 'B']);
    assert.equal(recent.size, 0);
  });
});

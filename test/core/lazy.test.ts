// deferred (src/core/lazy.ts): a lazily loaded chunk's object usable at once, calls kept in order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deferred } from '../../src/core/lazy.js';

interface Target {
  add(value: string): Promise<string>;
}

const target = (calls: string[]): Target => ({
  add(value) {
    calls.push(value);
    return Promise.resolve(`added ${value}`);
  },
});

void test('calls made while the chunk loads run once it is in, in call order, with their results', async () => {
  const calls: string[] = [];
  let resolve: (t: Target) => void = () => undefined;
  const proxy = deferred(new Promise<Target>((r) => (resolve = r)), ['add']);
  const first = proxy.add('a');
  const second = proxy.add('b');
  assert.deepEqual(calls, [], 'nothing runs before the chunk is in');
  resolve(target(calls));
  // Made after the chunk resolved but before its callbacks ran: still after a and b.
  const third = proxy.add('c');
  assert.deepEqual(await Promise.all([first, second, third]), ['added a', 'added b', 'added c']);
  assert.deepEqual(calls, ['a', 'b', 'c']);
});

void test('once the chunk is in, a call reaches it at once, without waiting for the microtask queue', async () => {
  const calls: string[] = [];
  const proxy = deferred(Promise.resolve(target(calls)), ['add']);
  await proxy.add('early');
  const result = proxy.add('now');
  assert.deepEqual(calls, ['early', 'now'], 'the call ran synchronously');
  assert.equal(await result, 'added now');
});

void test('a chunk that fails to load rejects every call', async () => {
  const proxy = deferred(Promise.reject<Target>(new Error('chunk failed')), ['add']);
  await assert.rejects(proxy.add('a'), /chunk failed/);
  await new Promise(setImmediate);
  await assert.rejects(proxy.add('b'), /chunk failed/);
});

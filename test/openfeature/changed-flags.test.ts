// changedFlags: the keys OpenFeature's ConfigurationChanged lists (added, removed, another value or variation).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FlagEntry, FlagsSnapshot } from '../../src/core/public.js';
import { changedFlags } from '../../src/openfeature/changed-flags.js';
import { EMPTY_METADATA } from '../core/shared/decisions.js';

const entry = (key: string, value: FlagEntry['value'], variationId = 'v1'): [string, FlagEntry] => [
  key,
  { key, value, metadata: { ...EMPTY_METADATA, variationGroupId: 'vg1', variationId } },
];
const snapshot = (...entries: Array<[string, FlagEntry]>): FlagsSnapshot => new Map(entries);

void describe('changedFlags', () => {
  void it('nothing for equal flags, objects compared by their JSON (a refetch builds new ones)', () => {
    assert.deepEqual(
      changedFlags(
        snapshot(entry('a', { x: [1] }), entry('b', 2)),
        snapshot(entry('a', { x: [1] }), entry('b', 2)),
      ),
      [],
    );
  });

  void it('a new value, a new variation with the same value, an added and a removed key', () => {
    const before = snapshot(entry('value', 1), entry('variation', 'x'), entry('removed', true));
    const after = snapshot(entry('value', 2), entry('variation', 'x', 'v2'), entry('added', null));
    assert.deepEqual(changedFlags(before, after).sort(), ['added', 'removed', 'value', 'variation']);
  });
});

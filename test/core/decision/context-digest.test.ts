// The digest bucketing mode compares contexts by (PROTOCOL.md §5.1 Repeats): stable, blind to key order.
import assert from 'node:assert/strict';
import { contextDigest } from '../../../src/core/decision/context-digest.js';
import { nodeHarness } from '../shared/node-harness.js';

const { describe, it } = nodeHarness;

describe('contextDigest', () => {
  it('is stable, ignores key order and tells values and types apart', () => {
    const d = contextDigest({ plan: 'gold', age: 31 });
    assert.equal(contextDigest({ age: 31, plan: 'gold' }), d);
    assert.notEqual(contextDigest({ plan: 'gold', age: '31' }), d);
    assert.notEqual(contextDigest({ plan: 'silver', age: 31 }), d);
    assert.notEqual(contextDigest({}), d);
    assert.match(d, /^[0-9a-z]+\.[0-9a-z]+$/);
  });
});

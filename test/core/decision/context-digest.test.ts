// The digest bucketing mode compares contexts by (PROTOCOL.md §5.1 Repeats): stable, blind to key order.
import assert from 'node:assert/strict';
import { contextDigest } from '../../../src/core/decision/context-digest.js';
import { murmur3 } from '../../../src/engine/murmur3.js';
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

  it('is the digest records already hold: murmur3 of the sorted pairs as JSON, and its length', () => {
    // The digest is stored in visitor cache records (PROTOCOL.md §10 `sent`): a change would resend every
    // visitor's SEGMENT hit once.
    const stored = (context: Record<string, string | number | boolean>): string => {
      const json = JSON.stringify(
        Object.keys(context)
          .sort()
          .map((k) => [k, context[k]]),
      );
      return `${murmur3(json).toString(36)}.${json.length.toString(36)}`;
    };
    for (const context of [
      {},
      { plan: 'gold' },
      { b: 1.5, a: -0, c: true, 'quote"d': 'é\u2028\n', fs_users: 'v-1', age: 1e21 },
      { z: false, y: '', x: 0, sdk_osName: 'Linux' },
    ])
      assert.equal(contextDigest(context), stored(context));
  });
});

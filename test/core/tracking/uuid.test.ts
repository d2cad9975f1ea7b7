import assert from 'node:assert/strict';
import { test } from 'node:test';
import { uuidV4 } from '../../../src/core/tracking/uuid.js';

void test('idempotency ids are RFC 9562 version-4 UUIDs, all distinct across many refills of the random pool', () => {
  const ids = Array.from({ length: 10_000 }, () => uuidV4());
  for (const id of ids)
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(new Set(ids).size, ids.length);
  // Every hex digit outside the fixed version and variant bits takes every value: the bytes are used, not zero.
  const free = ids
    .map((id) => id.replaceAll('-', ''))
    .map((hex) => hex.slice(0, 12) + hex.slice(13, 16) + hex.slice(17));
  for (let position = 0; position < 30; position++)
    assert.equal(new Set(free.map((hex) => hex[position])).size, 16, `position ${position}`);
});

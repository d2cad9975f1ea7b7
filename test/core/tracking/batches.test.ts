// Splitting the pool into requests (PROTOCOL.md §4, §5.2, §5.3): activations first, at most 100 a request,
// hits at most 1 000 a request (the server rejects the rest by index, and a rejected hit is not retried), and
// every request's body within the byte budget.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextBatch, type Batch, type PooledItem } from '../../../src/core/tracking/batches.js';
import { pooled } from '../../../src/core/tracking/manager-pool.js';
import type { CachedHitType, JsonValue } from '../../../src/protocol/index.js';

const item = (type: CachedHitType, n: number, fields: Record<string, JsonValue>): PooledItem =>
  pooled(
    {
      version: 1,
      data: {
        visitorId: `v${n}`,
        anonymousId: null,
        type,
        time: 0,
        content: { hid: `h${n}`, createdAt: 0, ...fields },
      },
    },
    false,
  );

const events = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) =>
    item('EVENT', from + i, { category: 'ACTION_TRACKING', action: 'a' }),
  );
const activations = (count: number) =>
  Array.from({ length: count }, (_, i) =>
    item('ACTIVATE', 10_000 + i, { variationGroupId: 'vg1', variationId: 'v1', flagKey: 'k' }),
  );

/** Every request `nextBatch` gives for `items`, as the tracker sends them: one after the other. */
const planBatches = (items: readonly PooledItem[], maxBytes: number): Array<Batch & { body: string }> => {
  const batches: Array<Batch & { body: string }> = [];
  let rest = items;
  for (
    let next = nextBatch(rest, 'env', maxBytes, 0);
    next !== null;
    next = nextBatch(rest, 'env', maxBytes, 0)
  ) {
    batches.push({ ...next.batch, body: next.body });
    const taken = new Set(next.batch.items);
    rest = rest.filter((item) => !taken.has(item));
  }
  return batches;
};

void describe('nextBatch', () => {
  void it('sends at most 1 000 hits in one request', () => {
    const batches = planBatches(events(2_500), 2 * 1024 * 1024);
    assert.deepEqual(
      batches.map((b) => [b.activation, b.items.length]),
      [
        [false, 1000],
        [false, 1000],
        [false, 500],
      ],
    );
    // Every hit once, in order.
    assert.deepEqual(
      batches.flatMap((b) => b.items.map((i) => i.record.data.content.hid)),
      events(2_500).map((i) => i.record.data.content.hid),
    );
  });

  void it('sends activations first, at most 100 in one request, in the activation body form', () => {
    const batches = planBatches([...events(3), ...activations(250)], 2 * 1024 * 1024);
    assert.deepEqual(
      batches.map((b) => [b.activation, b.items.length]),
      [
        [true, 100],
        [true, 100],
        [true, 50],
        [false, 3],
      ],
    );
  });

  void it('keeps each body within the byte budget', () => {
    const budget = 8 * 1024;
    // Multi-byte labels: the budget is in UTF-8 bytes, not in characters.
    const batches = planBatches(
      Array.from({ length: 400 }, (_, i) =>
        item('EVENT', i, { category: 'ACTION_TRACKING', action: 'a', label: 'é€😀'.repeat(5) }),
      ),
      budget,
    );
    assert.ok(batches.length > 1);
    for (const batch of batches) assert.ok(new TextEncoder().encode(batch.body).length <= budget);
    // Each body is the batch of PROTOCOL.md §5, its hits in order.
    const first = JSON.parse(batches[0]?.body ?? '{}') as {
      cid: string;
      ds: string;
      t: string;
      h: Array<{ hid: string; el: string }>;
    };
    assert.equal(first.cid, 'env');
    assert.equal(first.t, 'BATCH');
    assert.deepEqual(
      first.h.map((h) => h.hid),
      batches[0]?.items.map((i) => i.record.data.content.hid),
    );
    assert.equal(first.h[0]?.el, 'é€😀'.repeat(5));
  });
});

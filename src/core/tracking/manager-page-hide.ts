import { HIT_LIMITS } from '../../protocol/index.js';
import { nextBatch, utf8Bytes, type Batch, type PooledItem } from './batches.js';

/**
 * What one page may have in flight in `keepalive` fetches, bodies summed: 64 KiB (the Fetch standard's
 * keepalive quota). Chromium counts `sendBeacon` in the same quota and refuses what goes over it.
 */
export const PAGE_HIDE_BUDGET = 64 * 1024;

/**
 * The requests a page hide sends (PROTOCOL.md §5.3): activations first, then hits, each body at most 60 KB,
 * all bodies together at most `budget` bytes, so the browser queues every one of them. The first request
 * that would go over ends the list: its items and the rest stay pooled and cached for the next flush or the
 * next page view. Only about twice the budget of items is planned, so a page hide with a full pool stays quick.
 */
export const beaconPlan = (
  items: readonly PooledItem[],
  envId: string,
  now: number,
  budget = PAGE_HIDE_BUDGET,
): Array<{ batch: Batch; body: string }> => {
  let planned = 0;
  let rest = [...items]
    .sort((a, b) => Number(b.record.data.type === 'ACTIVATE') - Number(a.record.data.type === 'ACTIVATE'))
    .filter((item) => (planned += item.bytes) <= 2 * budget);
  const plan: Array<{ batch: Batch; body: string }> = [];
  while (rest.length > 0) {
    const next = nextBatch(rest, envId, Math.min(HIT_LIMITS.maxBeaconBytes, budget), now);
    if (next === null) break;
    const { batch, body } = next;
    budget -= utf8Bytes(body);
    if (budget < 0) break;
    plan.push({ batch, body });
    const sent = new Set(batch.items);
    rest = rest.filter((item) => !sent.has(item));
  }
  return plan;
};

import { HIT_LIMITS } from '../../protocol/index.js';
import { nextBatch, utf8Bytes, type Batch, type PooledItem } from './batches.js';
import { expired, type HitPool } from './manager-pool.js';
import type { SendSchedule } from './manager-schedule.js';
import type { SendTarget } from './manager-send.js';
import { sendBeacon } from './transport.js';

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

/**
 * What the tracker does on page hide (PROTOCOL.md §5.3): sends the pool by beacon, within {@link beaconPlan}'s
 * budget. A beacon's answer cannot be read, so beaconed items stay pooled and cached: if the page lives on (a
 * tab switch) the next flush sends them again and reads the answer; if it dies, the next page view sends them
 * from the cache. Either way the server counts each `hid` once. While the server's wait runs (`Retry-After`,
 * backoff) no beacon goes: §5.3 makes no exception for page hide, and every item is in the cache for the next
 * page view.
 */
export const beaconPool = (
  target: Pick<SendTarget, 'envId' | 'urls' | 'clock'>,
  pool: HitPool,
  schedule: Pick<SendSchedule, 'due'>,
): void => {
  const now = target.clock();
  const list = pool.items().filter((item) => !expired(item, now));
  // Periodic strategy: every item gets a copy for the next page view before any beacon goes (nobody reads
  // a beacon's answer, and what does not fit the budget waits there), in-flight ones too (their answer may
  // never come). Best effort: the page may end before the write does.
  void pool.write(list);
  if (!schedule.due()) return;
  const waiting = list.filter((item) => !item.inFlight && !item.beaconed);
  for (const { batch, body } of beaconPlan(waiting, target.envId, now)) {
    for (const item of batch.items) item.beaconed = true;
    sendBeacon(target.urls[batch.activation ? 0 : 1], body);
  }
};

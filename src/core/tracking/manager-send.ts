import { HIT_LIMITS, isJsonObject } from '../../protocol/index.js';
import { nextBatch, type Batch, type PooledItem } from './batches.js';
import { hidOf, type HitPool } from './manager-pool.js';
import type { SendSchedule } from './manager-schedule.js';
import type { TrackerDeps } from './tracker.js';
import { postText, type SendResult } from './transport.js';

/** Where and how the tracker's requests go. */
export interface SendTarget {
  envId: string;
  apiKey: string;
  /** `POST {D}/activate` and `POST {E}`, in that order. */
  urls: readonly [activations: string, hits: string];
  timeoutMs: number;
  clock: () => number;
  // Typed through TrackerDeps: the files split from manager.ts import nothing of src/core outside tracking/,
  // so a move there touches the files that imported it before the split, not these.
  logger: TrackerDeps['logger'];
  /** Said in a failure's reason when no server could be reached at the default address. */
  serverHint: TrackerDeps['serverHint'];
}

/**
 * Applies an answer (PROTOCOL.md §5.3); false when the pass must stop because the server asked us to wait.
 * A 2xx removes the items (and their cached copies) and acknowledges those not rejected by index; a drop
 * removes them with the reason logged; a retry keeps them and sets the wait.
 */
const settle = async (
  target: SendTarget,
  pool: HitPool,
  schedule: SendSchedule,
  batch: Batch,
  result: SendResult,
): Promise<boolean> => {
  const { logger } = target;
  const what = `${batch.items.length} ${batch.activation ? 'activations' : 'hits'}`;
  if (result.kind === 'retry') {
    const delay = schedule.failed(result.retryAfterMs);
    logger.warning(
      schedule.final
        ? `Tracking: ${what} not delivered at close (${result.reason})`
        : `Tracking: ${what} kept, next attempt in ${Math.round(delay)} ms (${result.reason})`,
    );
    return false;
  }
  schedule.answered();
  // Items dropped meanwhile (consent withdrawn) are no longer ours to acknowledge.
  const mine = batch.items.filter((item) => pool.get(hidOf(item)) === item);
  const rejected = new Set<PooledItem | undefined>();
  if (result.kind === 'drop') logger.error(`Tracking: ${what} dropped (${result.reason})`);
  else if (isJsonObject(result.body) && Array.isArray(result.body.rejected))
    for (const { index, message } of result.body.rejected as Array<{ index: number; message: string }>) {
      const item = batch.items[index];
      rejected.add(item);
      if (item) logger.error(`Tracking: ${item.record.data.type} ${hidOf(item)} rejected: ${message}`);
    }
  await pool.remove(mine);
  if (result.kind === 'ok')
    for (const item of mine)
      if (!rejected.has(item))
        try {
          item.onAck?.();
        } catch (error) {
          logger.error(`Tracking: an exposure callback threw: ${String(error)}`);
        }
  return true;
};

/**
 * Sends the pool, one request after another (so an item is never in two sends at once), and stops at the
 * first answer that says to wait. Each request first asks the schedule whether the wait is over: no request
 * of any pass goes before it (PROTOCOL.md §5.3).
 */
export const sendPool = async (target: SendTarget, pool: HitPool, schedule: SendSchedule): Promise<void> => {
  const { envId, urls, timeoutMs, clock, serverHint } = target;
  await pool.recheck();
  pool.report();
  let rest = pool.items().filter((item) => !item.inFlight);
  while (schedule.due()) {
    // What left the pool since (the previous request's items, a visitor's consent withdrawn) is not sent.
    rest = rest.filter((item) => pool.get(hidOf(item)) === item);
    // qt is measured here, when this request's body is built (PROTOCOL.md §5.3).
    const next = nextBatch(rest, envId, HIT_LIMITS.maxBatchBytes, clock());
    if (next === null) return;
    const { batch, body } = next;
    for (const item of batch.items) item.inFlight = true;
    const result = await postText(
      urls[batch.activation ? 0 : 1],
      body,
      // Hits go as text/plain, a CORS-safelisted type: no preflight. Activations carry the API key.
      batch.activation
        ? { contentType: 'application/json', headers: { 'x-api-key': target.apiKey }, timeoutMs, serverHint }
        : { contentType: 'text/plain', timeoutMs, serverHint },
    );
    for (const item of batch.items) item.inFlight = false;
    if (!(await settle(target, pool, schedule, batch, result))) return;
  }
};

import { MAX_ACTIVATIONS_PER_BATCH, MAX_HITS_PER_BATCH, type HitCacheRecord } from '../../protocol/index.js';
import { toWireActivation, toWireHit } from './wire.js';

/** One hit or activation in the tracker's pool. */
export interface PooledItem {
  /** The record exactly as the hit cache stores it (PROTOCOL.md §11); the pool and the cache share it. */
  record: HitCacheRecord;
  /** A copy is in the hit cache (or being written), so an acknowledgement must flush it. */
  cached: boolean;
  /** The copy's write has completed (or the item came from the cache): from then on, missing there means taken. */
  stored: boolean;
  /** Read from the cache at start, so the cache is known to keep it: even a custom cache's word on it counts. */
  seen: boolean;
  /** The record's weight against the pool's byte bound: the length of its JSON text. */
  bytes: number;
  /** Part of the request being sent: no second send of it may start meanwhile. */
  inFlight: boolean;
  /** Already handed to a beacon once: a second page-hide event does not send it again. */
  beaconed: boolean;
  /** Runs once the server acknowledged this activation (never for items reloaded from the cache). */
  onAck: (() => void) | undefined;
}

/** Items that go in one request: activations to `POST {D}/activate`, hits to `POST {E}`. */
export interface Batch {
  activation: boolean;
  items: PooledItem[];
}

const encoder = new TextEncoder();

/** Room left for the envelope (`{"cid":…,"ds":"APP","t":"BATCH","h":[]}`, an id ≤ 64 characters). */
const ENVELOPE_BYTES = 256;

/** `qt` may gain digits between planning and sending, and each item adds a comma. */
const ITEM_SLACK_BYTES = 16;

const wireOf = (item: PooledItem, now: number) =>
  item.record.data.type === 'ACTIVATE' ? toWireActivation(item.record, now) : toWireHit(item.record, now);

/**
 * Splits items into requests (PROTOCOL.md §5.3): activations first, at most 100 per request, then hits, at
 * most 1 000 per request (the server rejects the rest); each request's body at most `maxBytes` UTF-8 bytes (2 MB for fetch, 60 KB for a beacon). An item too big
 * on its own still gets a request: the server's 413 then drops it with a logged reason.
 */
export const planBatches = (items: readonly PooledItem[], maxBytes: number, now: number): Batch[] => {
  const batches: Batch[] = [];
  for (const activation of [true, false]) {
    let current: PooledItem[] = [];
    let size = ENVELOPE_BYTES;
    for (const item of items) {
      if ((item.record.data.type === 'ACTIVATE') !== activation) continue;
      const bytes = encoder.encode(JSON.stringify(wireOf(item, now))).length + ITEM_SLACK_BYTES;
      const full = current.length >= (activation ? MAX_ACTIVATIONS_PER_BATCH : MAX_HITS_PER_BATCH);
      if (current.length > 0 && (full || size + bytes > maxBytes)) {
        batches.push({ activation, items: current });
        current = [];
        size = ENVELOPE_BYTES;
      }
      current.push(item);
      size += bytes;
    }
    if (current.length > 0) batches.push({ activation, items: current });
  }
  return batches;
};

/** The JSON text of a batch request, `qt` computed at `now` (PROTOCOL.md §4, §5). */
export const batchBody = (envId: string, batch: Batch, now: number): string => {
  const wire = batch.items.map((item) => wireOf(item, now));
  return JSON.stringify(
    batch.activation ? { cid: envId, batch: wire } : { cid: envId, ds: 'APP', t: 'BATCH', h: wire },
  );
};

// The retry delay is the SDK's one retry policy (../retry.ts), shared with the bucketing file polling.
export { backoffDelay } from '../retry.js';

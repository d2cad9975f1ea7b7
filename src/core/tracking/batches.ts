import { MAX_ACTIVATIONS_PER_BATCH, MAX_HITS_PER_BATCH, type HitCacheRecord } from '../../protocol/index.js';
import { withQueueTime } from './wire.js';

const encoder = new TextEncoder();
const scratch = new Uint8Array(4096);

/**
 * The UTF-8 bytes of `text`. Encoded into one reused buffer when it surely fits (a UTF-16 unit takes at most 3
 * bytes): `encode` allocates an array per call, 20 times slower for a hit's 400 characters.
 */
export const utf8Bytes = (text: string): number =>
  text.length * 3 > scratch.length ? encoder.encode(text).length : encoder.encodeInto(text, scratch).written;

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
  /** The item's weight against the pool's byte bound: the UTF-8 bytes of its JSON text on the wire. */
  bytes: number;
  /** Its JSON text on the wire without `qt` (wire.ts), built once: every body that carries the item reuses it. */
  wire: string;
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

/** Room left for the envelope (`{"cid":…,"ds":"APP","t":"BATCH","h":[]}`, an id ≤ 64 characters). */
const ENVELOPE_BYTES = 256;

/** Each item adds a comma and its `,"qt":…` (at most 14 bytes for a queue time under 4 hours). */
const ITEM_SLACK_BYTES = 16;

const isActivation = (item: PooledItem): boolean => item.record.data.type === 'ACTIVATE';

/**
 * The next request to send of `items` (PROTOCOL.md §5.3), with its body, `qt` computed at `now`: activations
 * first, at most 100 per request, then hits, at most 1 000 per request (the server rejects the rest); the
 * body at most `maxBytes` UTF-8 bytes (2 MB for fetch, 60 KB for a beacon). An item too big on its own still
 * gets a request: the server's 413 then drops it with a logged reason. Each item's JSON was built once, when it
 * was pooled (`PooledItem.wire`), for its size and every body. Null when there is nothing to send.
 */
export const nextBatch = (
  items: readonly PooledItem[],
  envId: string,
  maxBytes: number,
  now: number,
): { batch: Batch; body: string } | null => {
  const activation = items.some(isActivation);
  const most = activation ? MAX_ACTIVATIONS_PER_BATCH : MAX_HITS_PER_BATCH;
  const chosen: PooledItem[] = [];
  const texts: string[] = [];
  let size = ENVELOPE_BYTES;
  for (const item of items) {
    if (isActivation(item) !== activation) continue;
    if (chosen.length === most) break;
    const bytes = item.bytes + ITEM_SLACK_BYTES;
    if (chosen.length > 0 && size + bytes > maxBytes) break;
    chosen.push(item);
    texts.push(withQueueTime(item.wire, item.record, now));
    size += bytes;
  }
  if (chosen.length === 0) return null;
  const cid = JSON.stringify(envId);
  const head = activation ? `{"cid":${cid},"batch":[` : `{"cid":${cid},"ds":"APP","t":"BATCH","h":[`;
  return { batch: { activation, items: chosen }, body: `${head}${texts.join(',')}]}` };
};

// The retry delay is the SDK's one retry policy (../net/retry.ts), shared with the bucketing file polling.
export { backoffDelay } from '../net/retry.js';

/**
 * A UUID v4 (RFC 9562 §5.4) for idempotency ids (PROTOCOL.md §5.4). Built from `crypto.getRandomValues`
 * because `crypto.randomUUID` exists only in secure contexts (plain `http:` pages lack it) and `Math.random`
 * is not random enough to keep two visitors' ids apart.
 */
export const uuidV4 = (): string => {
  // Random bytes are drawn for 64 ids at a time: a `getRandomValues` call per id cost a server building a
  // visitor per request more than the rest of creating its hits. Each byte is used once.
  if (next === pool.length) {
    crypto.getRandomValues(pool);
    next = 0;
  }
  const at = next;
  next += 16;
  // Version 4 in the high nibble of byte 6, variant 10xx in the high bits of byte 8.
  pool[at + 6] = ((pool[at + 6] ?? 0) & 0x0f) | 0x40;
  pool[at + 8] = ((pool[at + 8] ?? 0) & 0x3f) | 0x80;
  // A table of the 256 byte values in hex: formatting each byte and joining them was most of an id's cost.
  let id = '';
  for (let i = 0; i < 16; i++)
    id += (i === 4 || i === 6 || i === 8 || i === 10 ? '-' : '') + (HEX[pool[at + i] ?? 0] as string);
  return id;
};

const pool = new Uint8Array(16 * 64);
let next = pool.length;
const HEX = Array.from({ length: 256 }, (_, b) => (b + 256).toString(16).slice(1));

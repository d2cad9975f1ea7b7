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
  const bytes = pool.slice(next, (next += 16));
  // Version 4 in the high nibble of byte 6, variant 10xx in the high bits of byte 8.
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

const pool = new Uint8Array(16 * 64);
let next = pool.length;

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
  // The 36 character codes are written into one array and made a string at once: concatenating 20 pieces
  // left a chain of 20 partial strings per id for the garbage collector, two ids per visitor a server builds.
  let j = 0;
  for (let i = 0; i < 16; i++) {
    if (j === 8 || j === 13 || j === 18 || j === 23) j++;
    const byte = pool[at + i] ?? 0;
    codes[j++] = hexDigit(byte >> 4);
    codes[j++] = hexDigit(byte & 15);
  }
  return String.fromCharCode(...codes);
};

const pool = new Uint8Array(16 * 64);
let next = pool.length;
/** The id's character codes; the dashes at 8, 13, 18 and 23 are never overwritten. */
const codes = new Array<number>(36).fill(45);
/** The character code of a hex digit, 0-9 then a-f. */
const hexDigit = (n: number): number => n + (n < 10 ? 48 : 87);

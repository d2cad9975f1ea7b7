/**
 * A UUID v4 (RFC 9562 §5.4) for idempotency ids (PROTOCOL.md §5.4). Built from `crypto.getRandomValues`
 * because `crypto.randomUUID` exists only in secure contexts (plain `http:` pages lack it) and `Math.random`
 * is not random enough to keep two visitors' ids apart.
 */
export const uuidV4 = (): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  // Version 4 in the high nibble of byte 6, variant 10xx in the high bits of byte 8.
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

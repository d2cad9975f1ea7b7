// MurmurHash3 x86 32-bit, seed 0, over the UTF-8 bytes of a string (PROTOCOL.md §8.1).
//
// The string is encoded while it is hashed, one code unit at a time, so no byte buffer is allocated and an
// ASCII id costs one branch per character. The hash is a stream: a prefix (a variation group id) can be
// hashed once and resumed with each visitor id, which is how the engine hashes `groupId + visitorId`
// without concatenating them.

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

/**
 * The state of a hash after a prefix: resume it with {@link murmur3Resume}. Ids are ASCII in practice, but
 * any string works: a prefix that ends inside a surrogate pair keeps the high half pending.
 */
export interface Murmur3Prefix {
  /** The running hash after every complete 4-byte block. */
  readonly h: number;
  /** The bytes of the incomplete block, little-endian. */
  readonly k: number;
  /** How many bits of `k` are used (0, 8, 16 or 24). */
  readonly shift: number;
  /** The number of bytes hashed so far. */
  readonly length: number;
  /** A trailing high surrogate not yet encoded (0 when none). */
  readonly high: number;
}

/** Mixes one complete 4-byte block `k` into the running hash `h`. */
const mixBlock = (h: number, k: number): number => {
  k = Math.imul(k, C1);
  k = (k << 15) | (k >>> 17);
  h ^= Math.imul(k, C2);
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
};

/**
 * Hashes `s` after the state `(h, k, shift, length, high)`. With `out`, the state after `s` is written there
 * and 0 returned; without it, the hash is finished and returned as an unsigned 32-bit integer.
 */
const run = (
  h: number,
  k: number,
  shift: number,
  length: number,
  high: number,
  s: string,
  out: { -readonly [K in keyof Murmur3Prefix]: number } | null,
): number => {
  const n = s.length;
  let i = 0;
  if (high === 0) {
    // ASCII fast path: fill the pending block byte by byte, then take whole 4-character blocks. The
    // general loop below takes over at the first non-ASCII character.
    for (; shift !== 0 && i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      k |= c << shift;
      length++;
      shift += 8;
      if (shift === 32) {
        h = mixBlock(h, k);
        k = 0;
        shift = 0;
      }
    }
    if (shift === 0) {
      for (; i + 4 <= n; i += 4) {
        const c0 = s.charCodeAt(i);
        const c1 = s.charCodeAt(i + 1);
        const c2 = s.charCodeAt(i + 2);
        const c3 = s.charCodeAt(i + 3);
        if ((c0 | c1 | c2 | c3) >= 0x80) break;
        h = mixBlock(h, c0 | (c1 << 8) | (c2 << 16) | (c3 << 24));
        length += 4;
      }
    }
  }
  for (; i <= n; i++) {
    let c: number;
    if (i === n) {
      // The end of the input: only a pending high surrogate may still need encoding.
      if (high === 0 || out !== null) break;
      c = 0xfffd;
      high = 0;
    } else {
      c = s.charCodeAt(i);
      if (high !== 0) {
        if (c >= 0xdc00 && c <= 0xdfff) {
          c = 0x10000 + ((high - 0xd800) << 10) + (c - 0xdc00);
        } else {
          // A lone high surrogate encodes as U+FFFD (as TextEncoder does); `c` is read again next turn.
          c = 0xfffd;
          i--;
        }
        high = 0;
      } else if (c >= 0xd800 && c <= 0xdbff) {
        high = c;
        continue;
      } else if (c >= 0xdc00 && c <= 0xdfff) {
        c = 0xfffd;
      }
    }
    // Pack the UTF-8 bytes of `c` little-endian into `enc`, `count` of them.
    let enc: number;
    let count: number;
    if (c < 0x80) {
      enc = c;
      count = 1;
    } else if (c < 0x800) {
      enc = 0xc0 | (c >> 6) | ((0x80 | (c & 0x3f)) << 8);
      count = 2;
    } else if (c < 0x10000) {
      enc = 0xe0 | (c >> 12) | ((0x80 | ((c >> 6) & 0x3f)) << 8) | ((0x80 | (c & 0x3f)) << 16);
      count = 3;
    } else {
      enc =
        0xf0 |
        (c >> 18) |
        ((0x80 | ((c >> 12) & 0x3f)) << 8) |
        ((0x80 | ((c >> 6) & 0x3f)) << 16) |
        ((0x80 | (c & 0x3f)) << 24);
      count = 4;
    }
    for (; count > 0; count--) {
      k |= (enc & 0xff) << shift;
      enc >>>= 8;
      length++;
      shift += 8;
      if (shift === 32) {
        h = mixBlock(h, k);
        k = 0;
        shift = 0;
      }
    }
  }
  if (out !== null) {
    out.h = h;
    out.k = k;
    out.shift = shift;
    out.length = length;
    out.high = high;
    return 0;
  }
  if (shift !== 0) {
    k = Math.imul(k, C1);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, C2);
  }
  h ^= length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
};

/** MurmurHash3 x86 32-bit, seed 0, of the UTF-8 bytes of `input`, as an unsigned 32-bit integer. */
export const murmur3 = (input: string): number => run(0, 0, 0, 0, 0, input, null);

/** Hashes `prefix` once, so that {@link murmur3Resume} can finish `prefix + rest` for many `rest`s. */
export const murmur3Prefix = (prefix: string): Murmur3Prefix => {
  const out = { h: 0, k: 0, shift: 0, length: 0, high: 0 };
  run(0, 0, 0, 0, 0, prefix, out);
  return Object.freeze(out);
};

/** `murmur3(prefix + rest)`, where `state` is `murmur3Prefix(prefix)`. */
export const murmur3Resume = (state: Murmur3Prefix, rest: string): number =>
  run(state.h, state.k, state.shift, state.length, state.high, rest, null);

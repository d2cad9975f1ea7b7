// A Bloom filter of (environment, visitor id) pairs: "maybe held" or "certainly not". It grows by adding a
// partition four times larger when the last one is full, so it stays near its false-positive rate whatever
// the number of visitors, at about 10 bits per visitor. No deletion: a removed pair stays a false positive.

/** Bits of the first partition: 128 KiB, about 110 000 visitors at 1 %. */
const FIRST_BITS = 1 << 20;
/** Bits per visitor at capacity: with PROBES probes, about 1 % false positives per partition. */
const BITS_PER_KEY = 9.6;
const PROBES = 7;

interface Partition {
  words: Uint32Array;
  /** Bit count minus one (a power of two minus one). */
  mask: number;
  count: number;
  capacity: number;
}

const partition = (bits: number): Partition => ({
  words: new Uint32Array(bits >>> 5),
  mask: bits - 1,
  count: 0,
  capacity: Math.floor(bits / BITS_PER_KEY),
});

/** MurmurHash3's finalizer: spreads every input bit over the 32 output bits. */
const mix = (h: number): number => {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
};

/** A set of (environment, visitor id) pairs that may answer "maybe" for a pair never added, never "no" for one. */
export class VisitorFilter {
  readonly #partitions: Partition[] = [partition(FIRST_BITS)];
  // The two hashes of the last pair hashed (double hashing: probe i is h1 + i × h2).
  #h1 = 0;
  #h2 = 0;

  /** Pairs added (a pair the filter already answered "maybe" for is not counted again). */
  get size(): number {
    let size = 0;
    for (const part of this.#partitions) size += part.count;
    return size;
  }

  /** Adds the pair. */
  add(envId: string, visitorId: string): void {
    this.#hash(envId, visitorId);
    if (this.#held()) return;
    let last = this.#partitions[this.#partitions.length - 1] as Partition;
    if (last.count >= last.capacity) {
      last = partition((last.mask + 1) * 4);
      this.#partitions.push(last);
    }
    for (let i = 0, h = this.#h1; i < PROBES; i++, h = (h + this.#h2) >>> 0) {
      const bit = h & last.mask;
      last.words[bit >>> 5] = (last.words[bit >>> 5] as number) | (1 << (bit & 31));
    }
    last.count++;
  }

  /** False when the pair was certainly never added. */
  mightHave(envId: string, visitorId: string): boolean {
    this.#hash(envId, visitorId);
    return this.#held();
  }

  #held(): boolean {
    for (const part of this.#partitions) {
      let all = true;
      for (let i = 0, h = this.#h1; i < PROBES && all; i++, h = (h + this.#h2) >>> 0) {
        const bit = h & part.mask;
        all = ((part.words[bit >>> 5] as number) & (1 << (bit & 31))) !== 0;
      }
      if (all) return true;
    }
    return false;
  }

  /** Two independent 32-bit hashes of the pair's UTF-16 code units (FNV-1a style, then mixed). */
  #hash(envId: string, visitorId: string): void {
    let a = 0x811c9dc5;
    let b = 0x9747b28c;
    for (let i = 0; i < envId.length; i++) {
      const c = envId.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
    }
    // A separator that no code unit can be, so that ("ab", "c") and ("a", "bc") differ.
    a = Math.imul(a ^ 0x10000, 0x01000193);
    b = Math.imul(b ^ 0x10000, 0x5bd1e995);
    for (let i = 0; i < visitorId.length; i++) {
      const c = visitorId.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
    }
    this.#h1 = mix(a);
    // Odd, so that the probes of a power-of-two partition never repeat.
    this.#h2 = (mix(b ^ 0x5f356495) | 1) >>> 0;
  }
}

/**
 * Feature key → feature id, an open-addressing hash table with linear probing (Knuth, TAOCP
 * vol. 3 §6.4, Algorithm L) over one typed array: an integer lookup in a few nanoseconds without
 * boxing, which a Map<number, number> does not guarantee. Key 0 marks an empty slot (feature
 * keys are never 0, see featureKey).
 *
 * Most keys looked up at inference are not in the table (a word pair never seen in training),
 * and the table, ~1 MB for the shipped model, is too large to stay in the processor's cache
 * between lines: each such look-up would wait on memory. A bit set of the keys, 128 KB, answers
 * most of them first (a Bloom filter with one hash function, Bloom 1970): a clear bit means the
 * key is absent, exactly; a set bit sends the look-up on to the table. With ~37,000 keys in
 * 2^20 bits, about 3.5% of absent keys find their bit set.
 */
export class FeatureDictionary {
  /** Slot s holds its key at 2s and the key's id at 2s + 1, so a probe reads one cache line. */
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** One bit per FILTER_BITS bucket of key hashes: set when a key of the table falls there. */
  private readonly filter = new Int32Array(FILTER_BITS >>> 5);
  readonly size: number;

  constructor(keys: ArrayLike<number>) {
    let capacity = 16;
    while (capacity < keys.length * 2) capacity *= 2;
    this.slots = new Int32Array(capacity * 2);
    this.mask = capacity - 1;
    for (let id = 0; id < keys.length; id++) {
      const key = (keys[id] as number) | 0;
      let slot = this.home(key);
      while (this.slots[slot * 2] !== 0 && this.slots[slot * 2] !== key) slot = (slot + 1) & this.mask;
      this.slots[slot * 2] = key;
      this.slots[slot * 2 + 1] = id;
      const bit = filterBit(key);
      this.filter[bit >>> 5] = (this.filter[bit >>> 5] as number) | (1 << (bit & 31));
    }
    this.size = keys.length;
  }

  /** The id of a key, or -1 when the key was not seen in training. */
  get(key: number): number {
    const bit = filterBit(key);
    if (((this.filter[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return -1;
    const wanted = key | 0;
    let slot = this.home(wanted);
    for (;;) {
      const stored = this.slots[slot * 2] as number;
      if (stored === wanted) return this.slots[slot * 2 + 1] as number;
      if (stored === 0) return -1;
      slot = (slot + 1) & this.mask;
    }
  }

  private home(key: number): number {
    return (Math.imul(key, 0x9e3779b1) >>> 0) & this.mask;
  }
}

/** Bits of the filter (128 KB): small enough to stay in a core's cache beside the hot vectors. */
const FILTER_BITS = 1 << 20;

/** A key's filter bit, from other bits of the key than its home slot uses. */
function filterBit(key: number): number {
  return Math.imul(key, 0x85ebca6b) >>> 12;
}

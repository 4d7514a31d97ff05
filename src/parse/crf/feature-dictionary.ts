/**
 * Feature key → feature id, an open-addressing hash table with linear probing (Knuth, TAOCP
 * vol. 3 §6.4, Algorithm L) over typed arrays: an integer lookup in a few nanoseconds without
 * boxing, which a Map<number, number> does not guarantee. Key 0 marks an empty slot (feature
 * keys are never 0, see featureKey).
 */
export class FeatureDictionary {
  private readonly slots: Uint32Array;
  private readonly ids: Int32Array;
  private readonly mask: number;
  readonly size: number;

  constructor(keys: ArrayLike<number>) {
    let capacity = 16;
    while (capacity < keys.length * 2) capacity *= 2;
    this.slots = new Uint32Array(capacity);
    this.ids = new Int32Array(capacity);
    this.mask = capacity - 1;
    for (let id = 0; id < keys.length; id++) {
      const key = (keys[id] as number) >>> 0;
      let slot = this.home(key);
      while (this.slots[slot] !== 0 && this.slots[slot] !== key) slot = (slot + 1) & this.mask;
      this.slots[slot] = key;
      this.ids[slot] = id;
    }
    this.size = keys.length;
  }

  /** The id of a key, or -1 when the key was not seen in training. */
  get(key: number): number {
    let slot = this.home(key);
    for (;;) {
      const stored = this.slots[slot] as number;
      if (stored === key) return this.ids[slot] as number;
      if (stored === 0) return -1;
      slot = (slot + 1) & this.mask;
    }
  }

  private home(key: number): number {
    return (Math.imul(key, 0x9e3779b1) >>> 0) & this.mask;
  }
}

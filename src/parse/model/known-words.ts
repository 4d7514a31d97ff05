import { featureValues, TEMPLATE } from "./feature-keys.js";

/**
 * Which word hashes a model may know by name: a bit set holding every hash that some feature
 * key of the model's dictionary could spell under a template of the word's identity (the word
 * itself, the word with whether a comma follows it, the word as each neighbour). Feature keys are invertible
 * (featureValues), so each key names one candidate hash per template; most candidates are no
 * word at all, which only makes the set larger than it must be. A clear bit is exact: no
 * feature of the model names that word, so the model tells it apart from other words of its
 * shape only by the features of its shape. A set bit may be a false alarm (about 9% of unknown
 * hashes with the shipped model).
 *
 * FeatureExtractor reads it to give numbers the model does not know by name one shared
 * description per shape (house numbers and ZIPs are nearly all distinct, and a description
 * per number would fill the processor's cache with words read once).
 */
export class KnownWords {
  private readonly bits = new Int32Array(KNOWN_BITS >>> 5);

  constructor(featureKeys: ArrayLike<number>) {
    for (let i = 0; i < featureKeys.length; i++) {
      const key = featureKeys[i] as number;
      for (const template of IDENTITY_TEMPLATES)
        for (const value of featureValues(template, key)) {
          this.add(value);
          // boundaryKeys spells the word as hash ^ (comma after): both hashes it may stand for.
          if (template === TEMPLATE.wordBoundaryAfter) this.add(value ^ 1);
        }
    }
  }

  /** False when no feature of the model names the word with this hash. */
  mayKnow(hash: number): boolean {
    const bit = bitOf(hash);
    return ((this.bits[bit >>> 5] as number) & (1 << (bit & 31))) !== 0;
  }

  private add(hash: number): void {
    const bit = bitOf(hash);
    this.bits[bit >>> 5] = (this.bits[bit >>> 5] as number) | (1 << (bit & 31));
  }
}

/** The templates whose value is a word's hash (feature-keys.ts: word, boundaryKeys, neighbourKeys). */
const IDENTITY_TEMPLATES = [
  TEMPLATE.word,
  TEMPLATE.wordBoundaryAfter,
  TEMPLATE.neighbourWord,
  TEMPLATE.neighbourWord + 1,
  TEMPLATE.neighbourWord + 2,
  TEMPLATE.neighbourWord + 3,
];

/** 2^21 bits (256 KB): the shipped model's ~260,000 candidate hashes set about 9% of them. */
const KNOWN_BITS = 1 << 21;

function bitOf(hash: number): number {
  return Math.imul(hash, 0x9e3779b1) >>> 11;
}

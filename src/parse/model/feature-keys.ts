/**
 * Feature keys and the groups they come in. Every feature is a 32-bit key: a template number
 * mixed with a 32-bit value (a word's hash, a bit index, a bucket). Keys are hashed, not spelled
 * out as strings, so extraction allocates almost nothing; the trained model keeps a dictionary
 * of the keys seen in training (src/parse/crf/feature-dictionary.ts) and ignores the rest. With
 * 32-bit keys and ~25,000 kept features, some two of them collide with probability ≈ 7% per
 * model (birthday bound, n²/2³³); a collision only merges two features' weights.
 *
 * Each function below lists the keys of one group (src/parse/model/features.ts "LineAnalysis"):
 * FeatureExtractor.extract lists them all for training, EmissionScorer sums their weights once
 * per value for inference.
 */

/** Template numbers (part of every key: never renumber one a shipped model uses). */
export const TEMPLATE = {
  bias: 1,
  word: 2,
  shape: 3,
  collapsedShape: 4,
  length: 5,
  wordClass: 6,
  lexical: 7,
  gazetteer: 8,
  boundaryBefore: 9,
  boundaryAfter: 10,
  periodAfter: 11,
  fromStart: 12,
  fromEnd: 13,
  segment: 14,
  segmentsAfter: 15,
  numberSeen: 16,
  neighbourWord: 17, // + offset index 0..3
  neighbourSignature: 21, // + offset index 0..3
  bigramBefore: 25,
  bigramAfter: 26,
  prefix3: 27,
  suffix3: 28,
  prefix2: 29,
  suffix2: 30,
  signature: 31,
  wordBoundaryAfter: 32,
  lexicalFromEnd: 33,
  ruleLabel: 34,
  ruleLabelBefore: 35,
  ruleLabelAfter: 36,
  ruleLabelPair: 37,
} as const;

/** The word (and signature) of a neighbour before the start and after the end of the line. */
export const LINE_START = 0x5eed0001;
export const LINE_END = 0x5eed0002;

/** FNV-1a, 32-bit (Fowler, Noll, Vo). */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A feature key from template and value: MurmurHash3's fmix32 finalizer over their mix. */
export function featureKey(template: number, value: number): number {
  let h = Math.imul(template, 0x9e3779b1) ^ value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0 || 1;
}

/**
 * The values whose key under `template` is `key`. fmix32 (MurmurHash3's finalizer, Appleby) is
 * a bijection on 32-bit words, undone step by step in reverse order: a shift-xor by 16 is its
 * own inverse, one by 13 is undone by xoring the shifts by 13 and 26, and each multiplier by its
 * inverse mod 2^32 (0x85ebca6b · 0xa5cb9243 ≡ 0xc2b2ae35 · 0x7ed1b41d ≡ 1, found by Newton's
 * iteration x ← x(2 − ax)). Key 1 also stands for a mix of 0 (featureKey never returns 0), so it
 * has two values.
 */
export function featureValues(template: number, key: number): number[] {
  let h = key >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7ed1b41d);
  h ^= (h >>> 13) ^ (h >>> 26);
  h = Math.imul(h, 0xa5cb9243);
  h ^= h >>> 16;
  const mix = Math.imul(template, 0x9e3779b1);
  const value = (h ^ mix) >>> 0;
  return key === 1 ? [value, mix >>> 0] : [value];
}

/** Signature bits of a token's match against known city names (bits 26-29: begin, inside, end, single). */
export const CITY_MATCH_SHIFT = 26;

/** Offsets of the four neighbours whose word and signature are features of a token. */
export const NEIGHBOUR_OFFSETS = [-2, -1, 1, 2] as const;

/** A growable list of feature keys. */
export class KeyList {
  keys = new Uint32Array(256);
  count = 0;

  add(template: number, value: number): void {
    if (this.count === this.keys.length) this.grow(this.count + 1);
    this.keys[this.count++] = featureKey(template, value);
  }

  addAll(keys: Uint32Array): void {
    if (this.count + keys.length > this.keys.length) this.grow(this.count + keys.length);
    this.keys.set(keys, this.count);
    this.count += keys.length;
  }

  private grow(size: number): void {
    const grown = new Uint32Array(Math.max(size, this.keys.length * 2));
    grown.set(this.keys);
    this.keys = grown;
  }
}

/** The signature's own features: the signature, and each city-match bit alone. */
export function signatureKeys(signature: number, out: KeyList): void {
  out.add(TEMPLATE.signature, signature);
  for (let bit = CITY_MATCH_SHIFT; bit < 30; bit++)
    if ((signature & (1 << bit)) !== 0) out.add(TEMPLATE.gazetteer, bit);
}

/**
 * A token's place, packed: period after (bit 0), comma before (1), comma after (2), position
 * from start 0-5 (bits 3-5), from end 0-4 (6-8), segment 0-3 (9-10), segments after 0-3
 * (11-12), a number seen before (13), the word's lexical bits (14-21).
 */
export function placeCode(
  periodAfter: boolean,
  boundaryBefore: boolean,
  boundaryAfter: boolean,
  fromStart: number,
  fromEnd: number,
  segment: number,
  segmentsAfter: number,
  numberSeen: number,
  lexical: number,
): number {
  return (
    (periodAfter ? 1 : 0) |
    (boundaryBefore ? 2 : 0) |
    (boundaryAfter ? 4 : 0) |
    (fromStart << 3) |
    (fromEnd << 6) |
    (segment << 9) |
    (segmentsAfter << 11) |
    (numberSeen << 13) |
    (lexical << 14)
  );
}

/**
 * The features of a place code, in four parts: FeatureExtractor.extract lists them among the
 * other groups in the order the templates were first written (the order of the additions in
 * training, so the same data trains the same weights).
 */
export function placeKeys(code: number, out: KeyList): void {
  biasKeys(out);
  periodKeys(code, out);
  commaKeys(code, out);
  positionKeys(code, out);
}

export function biasKeys(out: KeyList): void {
  out.add(TEMPLATE.bias, 0);
}

export function periodKeys(code: number, out: KeyList): void {
  if ((code & 1) !== 0) out.add(TEMPLATE.periodAfter, 0);
}

export function commaKeys(code: number, out: KeyList): void {
  if ((code & 2) !== 0) out.add(TEMPLATE.boundaryBefore, 0);
  if ((code & 4) !== 0) out.add(TEMPLATE.boundaryAfter, 0);
}

export function positionKeys(code: number, out: KeyList): void {
  const fromEnd = (code >>> 6) & 7;
  out.add(TEMPLATE.fromStart, (code >>> 3) & 7);
  out.add(TEMPLATE.fromEnd, fromEnd);
  out.add(TEMPLATE.lexicalFromEnd, (fromEnd << 8) | ((code >>> 14) & 0xff));
  out.add(TEMPLATE.segment, (code >>> 9) & 3);
  out.add(TEMPLATE.segmentsAfter, (code >>> 11) & 3);
  out.add(TEMPLATE.numberSeen, (code >>> 13) & 1);
}

/** A comma after the token, in its place code. */
export function boundaryAfterOf(code: number): number {
  return (code >>> 2) & 1;
}

/** The word × whether a comma follows it. */
export function boundaryKeys(word: number, boundaryAfter: number, out: KeyList): void {
  out.add(TEMPLATE.wordBoundaryAfter, word ^ boundaryAfter);
}

/** The word with the previous and with the next word. */
export function bigramKeys(previous: number, word: number, next: number, out: KeyList): void {
  out.add(TEMPLATE.bigramBefore, Math.imul(previous, 31) ^ word);
  out.add(TEMPLATE.bigramAfter, Math.imul(word, 31) ^ next);
}

/** The features a neighbour at NEIGHBOUR_OFFSETS[k] gives: its word and its signature. */
export function neighbourKeys(k: number, word: number, signature: number, out: KeyList): void {
  out.add(TEMPLATE.neighbourWord + k, word);
  out.add(TEMPLATE.neighbourSignature + k, signature);
}

/** Rule labels of the token (bits 0-4), the previous one (5-9) and the next one (10-14); LABELS.length past either end. */
export function ruleCode(previous: number, label: number, next: number): number {
  return label | (previous << 5) | (next << 10);
}

/** The features of a rule code: the token's rule label, its neighbours', the pair with the previous. */
export function ruleKeys(code: number, out: KeyList): void {
  const label = code & 31;
  const previous = (code >>> 5) & 31;
  out.add(TEMPLATE.ruleLabel, label);
  out.add(TEMPLATE.ruleLabelBefore, previous);
  out.add(TEMPLATE.ruleLabelAfter, (code >>> 10) & 31);
  out.add(TEMPLATE.ruleLabelPair, (previous << 5) | label);
}

/** The word value of a neighbour past either end of the line. */
export function edgeWord(k: number): number {
  return (NEIGHBOUR_OFFSETS[k] as number) < 0 ? LINE_START : LINE_END;
}

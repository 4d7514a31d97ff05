import { usGazetteer, type Gazetteer } from "./gazetteer.js";
import type { Token } from "./token.js";
import { wordClasses } from "./word-classes.js";

/**
 * Feature extraction for the CRF. Every feature is a 32-bit key: a template number mixed with
 * a 32-bit value (a word's hash, a bit index, a bucket). Keys are hashed, not spelled out as
 * strings, so extraction allocates almost nothing; the trained model keeps a dictionary of the
 * keys seen in training (src/parse/crf/feature-dictionary.ts) and ignores the rest. With 32-bit
 * keys and ~25,000 kept features, some two of them collide with probability ≈ 7% per model
 * (birthday bound, n²/2³³); a collision only merges two features' weights.
 */
export interface FeatureConfig {
  /** Bump when templates change: a model trained under another version is refused. */
  templatesVersion: number;
  /** Words seen often in training; other words of four letters or more get character n-grams. */
  commonWords: string[];
}

export const TEMPLATES_VERSION = 1;

const T = {
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
} as const;

const LEX = {
  digits: 1 << 0,
  hasDigit: 1 << 1,
  letters: 1 << 2,
  singleLetter: 1 << 3,
  fraction: 1 << 4,
  hyphen: 1 << 5,
  hash: 1 << 6,
  ampersand: 1 << 7,
} as const;

const GAZ = { cityWord: 1, zip: 2, cityBegin: 4, cityInside: 8, cityEnd: 16, citySingle: 32 } as const;
const OFFSETS = [-2, -1, 1, 2] as const;
const BOS = 0x5eed0001;
const EOS = 0x5eed0002;

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

/** Per-position feature keys of one token sequence: keys[offsets[t] .. offsets[t+1]). */
export interface ExtractedFeatures {
  length: number;
  keys: Uint32Array;
  offsets: Int32Array;
}

/** What a word contributes on its own, computed once per distinct word and cached. */
interface WordInfo {
  hash: number;
  /** lexical bits | word classes << 8 | (city word, known ZIP) << 24 */
  bits: number;
  /** The keys of the word's own features (identity, shape, length, classes, n-grams). */
  keys: Uint32Array;
}

/** Distinct words cached before the cache is cleared (bounds memory on a long-running service). */
const WORD_CACHE_SIZE = 50_000;

export class FeatureExtractor {
  private readonly common: ReadonlySet<string>;
  private readonly wordCache = new Map<string, WordInfo>();
  private keys = new Uint32Array(1024);
  private count = 0;
  private offsets = new Int32Array(65);
  private words = new Int32Array(64);
  private signatures = new Int32Array(64);
  private gazetteerBits = new Int32Array(64);

  constructor(
    config: FeatureConfig,
    private readonly gazetteer: Gazetteer = usGazetteer(),
  ) {
    if (config.templatesVersion !== TEMPLATES_VERSION) {
      throw new Error(`feature templates version ${config.templatesVersion} is not supported`);
    }
    this.common = new Set(config.commonWords);
  }

  /** Keys for every token; the answer's arrays are reused by the next call. */
  extract(input: string, tokens: readonly Token[]): ExtractedFeatures {
    const n = tokens.length;
    this.ensure(n);
    this.count = 0;
    this.markCities(tokens);
    // (markCities fills gazetteerBits from the word cache: city word and ZIP bits plus matches.)
    for (let t = 0; t < n; t++) {
      const info = this.wordInfo((tokens[t] as Token).text);
      this.words[t] = info.hash;
      this.signatures[t] = info.bits | ((this.gazetteerBits[t] as number) << 24);
    }
    let segment = 0;
    let numberSeen = 0;
    let segments = 0;
    for (let t = 1; t < n; t++) if ((tokens[t] as Token).boundaryBefore) segments++;
    for (let t = 0; t < n; t++) {
      const token = tokens[t] as Token;
      if (token.boundaryBefore) segment++;
      this.offsets[t] = this.count;
      this.tokenFeatures(input, tokens, t);
      this.contextFeatures(tokens, t, Math.min(segment, 3), Math.min(segments - segment, 3), numberSeen);
      if (((this.signatures[t] as number) & LEX.digits) !== 0) numberSeen = 1;
    }
    this.offsets[n] = this.count;
    return { length: n, keys: this.keys, offsets: this.offsets };
  }

  private ensure(n: number): void {
    if (this.words.length >= n) return;
    this.words = new Int32Array(n * 2);
    this.signatures = new Int32Array(n * 2);
    this.gazetteerBits = new Int32Array(n * 2);
    this.offsets = new Int32Array(n * 2 + 1);
  }

  private add(template: number, value: number): void {
    if (this.count === this.keys.length) this.grow(this.count + 1);
    this.keys[this.count++] = featureKey(template, value);
  }

  private grow(size: number): void {
    const grown = new Uint32Array(Math.max(size, this.keys.length * 2));
    grown.set(this.keys);
    this.keys = grown;
  }

  /** Features of the token itself: the cached word features, the signature, the period after it. */
  private tokenFeatures(input: string, tokens: readonly Token[], t: number): void {
    const token = tokens[t] as Token;
    const info = this.wordInfo(token.text);
    const signature = this.signatures[t] as number;
    this.add(T.bias, 0);
    this.add(T.signature, signature);
    for (let bit = 26; bit < 30; bit++) if ((signature & (1 << bit)) !== 0) this.add(T.gazetteer, bit);
    if (input.charCodeAt(token.end) === 46) this.add(T.periodAfter, 0);
    const keys = info.keys;
    if (this.count + keys.length > this.keys.length) this.grow(this.count + keys.length);
    this.keys.set(keys, this.count);
    this.count += keys.length;
  }

  private wordInfo(text: string): WordInfo {
    let info = this.wordCache.get(text);
    if (info !== undefined) return info;
    const gazetteer =
      (this.gazetteer.isCityWord(text) ? GAZ.cityWord : 0) |
      (text.length === 5 && this.gazetteer.isZip(text) ? GAZ.zip : 0);
    const bits = lexicalBits(text) | (wordClasses(text) << 8) | (gazetteer << 24);
    const hash = hashString(text);
    const keys = [
      featureKey(T.word, hash),
      featureKey(T.shape, shapeHash(text, false)),
      featureKey(T.collapsedShape, shapeHash(text, true)),
      featureKey(T.length, Math.min(text.length, 10)),
    ];
    for (let bit = 0; bit < 26; bit++) {
      if ((bits & (1 << bit)) === 0) continue;
      keys.push(featureKey(bit < 8 ? T.lexical : bit < 24 ? T.wordClass : T.gazetteer, bit));
    }
    if (text.length >= 4 && (bits & LEX.letters) !== 0 && !this.common.has(text)) {
      keys.push(
        featureKey(T.prefix3, hashString(text.slice(0, 3))),
        featureKey(T.suffix3, hashString(text.slice(-3))),
      );
      keys.push(
        featureKey(T.prefix2, hashString(text.slice(0, 2))),
        featureKey(T.suffix2, hashString(text.slice(-2))),
      );
    }
    info = { hash, bits, keys: Uint32Array.from(keys) };
    if (this.wordCache.size >= WORD_CACHE_SIZE) this.wordCache.clear();
    this.wordCache.set(text, info);
    return info;
  }

  /** Features of the token's place in the line and of its neighbours. */
  private contextFeatures(
    tokens: readonly Token[],
    t: number,
    segment: number,
    segmentsAfter: number,
    numberSeen: number,
  ): void {
    const n = tokens.length;
    const boundaryBefore = t > 0 && (tokens[t] as Token).boundaryBefore;
    const boundaryAfter = t + 1 < n && (tokens[t + 1] as Token).boundaryBefore;
    const fromEnd = Math.min(n - 1 - t, 4);
    if (boundaryBefore) this.add(T.boundaryBefore, 0);
    if (boundaryAfter) this.add(T.boundaryAfter, 0);
    this.add(T.wordBoundaryAfter, (this.words[t] as number) ^ (boundaryAfter ? 1 : 0));
    this.add(T.fromStart, Math.min(t, 5));
    this.add(T.fromEnd, fromEnd);
    this.add(T.lexicalFromEnd, (fromEnd << 8) | ((this.signatures[t] as number) & 0xff));
    this.add(T.segment, segment);
    this.add(T.segmentsAfter, segmentsAfter);
    this.add(T.numberSeen, numberSeen);
    for (let k = 0; k < OFFSETS.length; k++) {
      const u = t + (OFFSETS[k] as number);
      const inside = u >= 0 && u < n;
      const edge = u < 0 ? BOS : EOS;
      this.add(T.neighbourWord + k, inside ? (this.words[u] as number) : edge);
      this.add(T.neighbourSignature + k, inside ? (this.signatures[u] as number) : edge);
    }
    const word = this.words[t] as number;
    this.add(T.bigramBefore, Math.imul(t > 0 ? (this.words[t - 1] as number) : BOS, 31) ^ word);
    this.add(T.bigramAfter, Math.imul(word, 31) ^ (t + 1 < n ? (this.words[t + 1] as number) : EOS));
  }

  /** Marks the longest known city name starting at each token (begin / inside / end / single). */
  private markCities(tokens: readonly Token[]): void {
    const n = tokens.length;
    const bits = this.gazetteerBits;
    bits.fill(0, 0, n);
    for (let t = 0; t < n; t++)
      bits[t] = (this.wordInfo((tokens[t] as Token).text).bits >>> 24) & (GAZ.cityWord | GAZ.zip);
    for (let t = 0; t < n; t++) {
      if (((bits[t] as number) & GAZ.cityWord) === 0) continue;
      let name = (tokens[t] as Token).text;
      let longest = this.gazetteer.isCityName(name) ? 1 : 0;
      for (let k = 1; k < this.gazetteer.longestCityWords && t + k < n; k++) {
        if (((bits[t + k] as number) & GAZ.cityWord) === 0) break;
        name += " " + (tokens[t + k] as Token).text;
        if (this.gazetteer.isCityName(name)) longest = k + 1;
      }
      if (longest === 1) bits[t] = (bits[t] as number) | GAZ.citySingle;
      if (longest > 1) {
        bits[t] = (bits[t] as number) | GAZ.cityBegin;
        for (let k = 1; k < longest - 1; k++) bits[t + k] = (bits[t + k] as number) | GAZ.cityInside;
        bits[t + longest - 1] = (bits[t + longest - 1] as number) | GAZ.cityEnd;
      }
    }
  }
}

function lexicalBits(text: string): number {
  let digits = 0;
  let letters = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if (c >= 65 && c <= 90) letters++;
    else if (c === 47) bits |= LEX.fraction;
    else if (c === 45) bits |= LEX.hyphen;
    else if (c === 35) bits |= LEX.hash;
    else if (c === 38) bits |= LEX.ampersand;
  }
  if (digits === text.length) bits |= LEX.digits;
  if (digits > 0) bits |= LEX.hasDigit;
  if (letters === text.length) bits |= LEX.letters;
  if (letters === 1 && text.length === 1) bits |= LEX.singleLetter;
  return bits;
}

/**
 * Word shape: digits → 9, letters → A, others kept; at most 8 characters. Collapsed, runs of
 * a class count once (`12345` → `9`, `4B` → `9A`), so shapes generalize across lengths.
 */
function shapeHash(text: string, collapsed: boolean): number {
  let h = 0x811c9dc5;
  let previous = -1;
  const limit = Math.min(text.length, 8);
  for (let i = 0; i < limit; i++) {
    const c = text.charCodeAt(i);
    const cls = c >= 48 && c <= 57 ? 57 : c >= 65 && c <= 90 ? 65 : c;
    if (collapsed && cls === previous) continue;
    previous = cls;
    h = Math.imul(h ^ cls, 0x01000193);
  }
  return (h ^ (collapsed ? 0 : text.length > 8 ? 1 : 0)) >>> 0;
}

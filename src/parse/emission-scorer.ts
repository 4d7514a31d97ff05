import type { CrfWeights } from "./crf/crf.js";
import type { FeatureDictionary } from "./crf/feature-dictionary.js";
import {
  boundaryAfterOf,
  CITY_MATCH_SHIFT,
  edgeWord,
  KeyList,
  LINE_END,
  LINE_START,
  NEIGHBOUR_OFFSETS,
  neighbourKeys,
  bigramKeys,
  boundaryKeys,
  placeKeys,
  ruleKeys,
  signatureKeys,
} from "./feature-keys.js";
import type { FeatureExtractor, WordInfo } from "./features.js";
import type { Token } from "./token.js";

/** Distinct word vectors kept before the table is cleared (a bound on memory, ~8 MB). */
const SHARED_VECTORS = 5_000;
/** Distinct place (or rule) codes kept before the table is cleared (a few thousand occur). */
const CODE_VECTORS = 20_000;

/** City-match bit combinations a word can carry (4 bits from CITY_MATCH_SHIFT). */
const CITY_MATCHES = 16;

/** A line's emission scores, T × L row-major, and their exponentials (reused by the next line). */
export interface Emissions {
  scores: Float64Array;
  exps: Float64Array;
}

/**
 * The emission scores of a line, T × L, without listing its features one by one. Most of a
 * token's features are a function of one small value (src/parse/features.ts "LineAnalysis"):
 * its word, signature and the comma after it, its place code, each neighbour's word and
 * signature. The weights of each group are summed once per value and kept: per word (city-match
 * bits, comma after) a vector for the word's own features and one for each neighbour offset it
 * can be seen from, per place code one vector. A token then costs six vector additions and the
 * dictionary look-ups of its two bigrams, instead of ~30 look-ups and additions. Each kept vector also keeps its
 * exponential, so exp(score), which the forward pass needs, is a product of six cached vectors
 * rather than L calls to Math.exp.
 *
 * The scores equal `emissions(weights, features)` over FeatureExtractor.extract, up to the
 * order of floating-point additions (test/parse/emission-scorer.test.ts).
 */
export class EmissionScorer {
  private readonly L: number;
  private readonly scratch = new KeyList();
  private readonly places = new Map<number, Float64Array>();
  /** Rule-label vectors by rule code (FeatureConfig.ruleLabels). */
  private readonly rules = new Map<number, Float64Array>();
  /** Word vectors by the feature ids they sum (words the model cannot tell apart share one). */
  private readonly shared = new Map<string, Float64Array>();
  /** Neighbours past either end of the line: per offset a vector and its exponential. */
  private readonly edges: Float64Array[];
  /** exp of the state weights of a feature id, filled on first use (bigrams). */
  private readonly expRows: Array<Float64Array | undefined>;
  /** A token's four neighbours (NEIGHBOUR_OFFSETS): their vectors, where their scores and exponentials start. */
  private readonly from: Float64Array[] = [];
  private readonly at = new Int32Array(4);
  private readonly expAt = new Int32Array(4);
  /** Per token of the line, its word's vectors (wordScores). */
  private readonly vectors: Float64Array[] = [];
  private readonly out: Emissions = { scores: new Float64Array(64 * 32), exps: new Float64Array(64 * 32) };

  constructor(
    readonly extractor: FeatureExtractor,
    private readonly dictionary: FeatureDictionary,
    private readonly weights: CrfWeights,
  ) {
    this.L = weights.labelCount;
    this.expRows = new Array<Float64Array | undefined>(weights.featureCount).fill(undefined);
    this.edges = NEIGHBOUR_OFFSETS.map((_, k) => {
      this.scratch.count = 0;
      neighbourKeys(k, edgeWord(k), edgeWord(k), this.scratch);
      return this.vectorOfScratch();
    });
  }

  /** Emission scores of the tokens and their exponentials. */
  score(input: string, tokens: readonly Token[]): Emissions {
    const line = this.extractor.analyze(input, tokens);
    const { length: n, infos, words, signatures, places } = line;
    const L = this.L;
    if (this.out.scores.length < n * L) {
      this.out.scores = new Float64Array(n * L * 2);
      this.out.exps = new Float64Array(n * L * 2);
    }
    const { scores, exps } = this.out;
    const vectors = this.vectors;
    vectors.length = n;
    for (let t = 0; t < n; t++) {
      const info = infos[t] as WordInfo;
      const signature = signatures[t] as number;
      const boundaryAfter = boundaryAfterOf(places[t] as number);
      const slot = (((signature >>> CITY_MATCH_SHIFT) & (CITY_MATCHES - 1)) << 1) | boundaryAfter;
      vectors[t] = info.scores?.[slot] ?? this.wordScores(info, signature, boundaryAfter, slot);
    }
    const { from, at, expAt } = this;
    for (let t = 0; t < n; t++) {
      const row = t * L;
      const own = vectors[t] as Float64Array;
      const place = this.codeScores(this.places, places[t] as number, placeKeys);
      for (let k = 0; k < 4; k++) {
        const u = t + (NEIGHBOUR_OFFSETS[k] as number);
        const inside = u >= 0 && u < n;
        from[k] = inside ? (vectors[u] as Float64Array) : (this.edges[k] as Float64Array);
        at[k] = inside ? (k + 1) * L : 0;
        expAt[k] = inside ? (k + 6) * L : L;
      }
      const [v0, v1, v2, v3] = from as [Float64Array, Float64Array, Float64Array, Float64Array];
      const a0 = at[0] as number;
      const a1 = at[1] as number;
      const a2 = at[2] as number;
      const a3 = at[3] as number;
      const e0 = expAt[0] as number;
      const e1 = expAt[1] as number;
      const e2 = expAt[2] as number;
      const e3 = expAt[3] as number;
      const ownExp = 5 * L;
      for (let y = 0; y < L; y++) {
        scores[row + y] =
          (own[y] as number) +
          (place[y] as number) +
          (v0[a0 + y] as number) +
          (v1[a1 + y] as number) +
          (v2[a2 + y] as number) +
          (v3[a3 + y] as number);
        exps[row + y] =
          (own[ownExp + y] as number) *
          (place[L + y] as number) *
          (v0[e0 + y] as number) *
          (v1[e1 + y] as number) *
          (v2[e2 + y] as number) *
          (v3[e3 + y] as number);
      }
      if (this.extractor.ruleLabels)
        this.addVector(row, this.codeScores(this.rules, line.rules[t] as number, ruleKeys));
      this.scratch.count = 0;
      bigramKeys(
        t > 0 ? (words[t - 1] as number) : LINE_START,
        words[t] as number,
        t + 1 < n ? (words[t + 1] as number) : LINE_END,
        this.scratch,
      );
      this.addPairs(row);
    }
    return this.out;
  }

  /**
   * A word's vectors under its signature: [0, L) its own and signature features, then for each
   * neighbour offset k, [(k+1)L, (k+2)L) what it gives the token it neighbours; then the
   * exponentials of these five, in the same order, from 5L.
   */
  private wordScores(info: WordInfo, signature: number, boundaryAfter: number, slot: number): Float64Array {
    const L = this.L;
    const groups: number[][] = [];
    this.scratch.count = 0;
    this.scratch.addAll(info.keys);
    signatureKeys(signature, this.scratch);
    boundaryKeys(info.hash, boundaryAfter, this.scratch);
    groups.push(this.keptIds());
    for (let k = 0; k < NEIGHBOUR_OFFSETS.length; k++) {
      this.scratch.count = 0;
      neighbourKeys(k, info.hash, signature, this.scratch);
      groups.push(this.keptIds());
    }
    // Words whose features in the model are the same share one vector: most house numbers,
    // ZIPs and rare names differ only by features the model does not have.
    const key = groups.map((ids) => ids.join(",")).join("|");
    let vectors = this.shared.get(key);
    if (vectors === undefined) {
      vectors = new Float64Array(2 * groups.length * L);
      groups.forEach((ids, g) => this.sumRows(ids, vectors as Float64Array, g * L));
      const half = groups.length * L;
      for (let i = 0; i < half; i++) vectors[half + i] = Math.exp(vectors[i] as number);
      if (this.shared.size >= SHARED_VECTORS) this.shared.clear();
      this.shared.set(key, vectors);
    }
    info.scores ??= new Array<Float64Array | undefined>(2 * CITY_MATCHES).fill(undefined);
    info.scores[slot] = vectors;
    return vectors;
  }

  /** The dictionary ids of the scratch list's keys (unknown keys left out). */
  private keptIds(): number[] {
    const ids: number[] = [];
    for (let i = 0; i < this.scratch.count; i++) {
      const id = this.dictionary.get(this.scratch.keys[i] as number);
      if (id >= 0) ids.push(id);
    }
    return ids;
  }

  /** Adds the state weights of feature ids to out[at .. at+L). */
  private sumRows(ids: readonly number[], out: Float64Array, at: number): void {
    const state = this.weights.state;
    const L = this.L;
    for (const id of ids) {
      const base = id * L;
      for (let y = 0; y < L; y++) out[at + y] = (out[at + y] as number) + (state[base + y] as number);
    }
  }

  /** Adds a vector of vectorOfScratch to a token's scores and multiplies its exponentials in. */
  private addVector(row: number, vector: Float64Array): void {
    const { scores, exps } = this.out;
    const L = this.L;
    for (let y = 0; y < L; y++) {
      scores[row + y] = (scores[row + y] as number) + (vector[y] as number);
      exps[row + y] = (exps[row + y] as number) * (vector[L + y] as number);
    }
  }

  /** The vector of a code (place or rule labels) from its table, summed on first use. */
  private codeScores(
    table: Map<number, Float64Array>,
    code: number,
    keysOf: (code: number, out: KeyList) => void,
  ): Float64Array {
    let vector = table.get(code);
    if (vector !== undefined) return vector;
    this.scratch.count = 0;
    keysOf(code, this.scratch);
    vector = this.vectorOfScratch();
    if (table.size >= CODE_VECTORS) table.clear();
    table.set(code, vector);
    return vector;
  }

  /** The scratch keys' weights summed, [0, L), and their exponentials, [L, 2L). */
  private vectorOfScratch(): Float64Array {
    const L = this.L;
    const vector = new Float64Array(2 * L);
    this.sumRows(this.keptIds(), vector, 0);
    for (let y = 0; y < L; y++) vector[L + y] = Math.exp(vector[y] as number);
    return vector;
  }

  /** Adds the scratch list's bigram features to a token's scores and multiplies their exponentials in. */
  private addPairs(row: number): void {
    const { keys, count } = this.scratch;
    const { scores, exps } = this.out;
    const state = this.weights.state;
    const L = this.L;
    for (let i = 0; i < count; i++) {
      const id = this.dictionary.get(keys[i] as number);
      if (id < 0) continue;
      const base = id * L;
      const expRow = this.expRows[id] ?? this.expRow(id);
      for (let y = 0; y < L; y++) {
        scores[row + y] = (scores[row + y] as number) + (state[base + y] as number);
        exps[row + y] = (exps[row + y] as number) * (expRow[y] as number);
      }
    }
  }

  private expRow(id: number): Float64Array {
    const L = this.L;
    const row = Float64Array.from(this.weights.state.subarray(id * L, id * L + L), (w) => Math.exp(w));
    this.expRows[id] = row;
    return row;
  }
}

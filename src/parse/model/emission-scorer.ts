import type { CrfWeights } from "../crf/crf.js";
import type { FeatureDictionary } from "../crf/feature-dictionary.js";
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
import type { FeatureExtractor, LineAnalysis, WordInfo } from "./features.js";
import type { Token } from "../token.js";

/** Distinct word vectors kept before the table is cleared (a bound on memory, ~6 MB). */
const SHARED_VECTORS = 5_000;
/** Distinct place (or rule) codes kept before the table is cleared (a few thousand occur). */
const CODE_VECTORS = 20_000;

/** City-match bit combinations a word can carry (4 bits from CITY_MATCH_SHIFT). */
const CITY_MATCHES = 16;

/**
 * The emission scores of a line, T × L, as their exponentials (what Decoder.decodeExp reads),
 * without listing its features one by one. Most of a token's features are a function of one
 * small value (src/parse/model/features.ts "LineAnalysis"): its word, signature and the comma after
 * it, its place code, each neighbour's word and signature. The weights of each group are summed
 * once per value and kept with their exponentials: per word (city-match bits, comma after) a
 * vector for the word's own features and one for each neighbour offset it can be seen from, per
 * place code one vector. exp(score) of a token is then a product of six cached vectors and the
 * exponentiated weights of its two bigrams, instead of ~30 look-ups and additions and L calls
 * to Math.exp.
 *
 * A word's exponentials are kept as 32-bit floats, apart from their logs: a line reads them for
 * every token it holds, and half the bytes keep twice as many words in the processor's cache.
 * Their rounding (a relative 6e-8 a factor) is far below what tells two labellings apart. A
 * score outside ±F32_EXP_RANGE, whose exponential a 32-bit float holds imprecisely or not at all
 * (the shipped model's lie between -7 and 9), is kept as NaN: the products of its line turn NaN,
 * Decoder.decodeExp gives up on them, and the line is decoded from its log-space scores.
 *
 * `logScores` sums the same vectors; both equal `emissions(weights, features)` over
 * FeatureExtractor.extract (and its exponential), up to rounding
 * (test/parse/emission-scorer.test.ts).
 */
export class EmissionScorer {
  private readonly L: number;
  private readonly scratch = new KeyList();
  private readonly places = new Map<number, Float64Array>();
  /** Rule-label vectors by rule code (FeatureConfig.ruleLabels). */
  private readonly rules = new Map<number, Float64Array>();
  /** Word vectors by the feature ids they sum (words the model cannot tell apart share one). */
  private readonly shared = new Map<string, Float32Array>();
  /** Neighbours past either end of the line: per offset the exponentials of what they give. */
  private readonly edges: Float32Array[];
  /** The same, as log-space scores (logScores). */
  private readonly edgeLogs: Float64Array[];
  /** The log-space scores of each word vector (its exponentials are the key), for logScores. */
  private readonly logsOf = new WeakMap<Float32Array, Float64Array>();
  /** exp of the state weights of a feature id, filled on first use (bigrams). */
  private readonly expRows: Array<Float64Array | undefined>;
  /** A token's four neighbours (NEIGHBOUR_OFFSETS): their vectors, and where the exponentials they give start. */
  private readonly from: Float32Array[] = [];
  private readonly at = new Int32Array(4);
  /** Per token of the line, its word's exponentials (wordScores). */
  private readonly vectors: Float32Array[] = [];
  /** The line last scored (the extractor's analysis, reused by its next line). */
  private line!: LineAnalysis;
  private exps = new Float64Array(64 * 32);

  constructor(
    readonly extractor: FeatureExtractor,
    private readonly dictionary: FeatureDictionary,
    private readonly weights: CrfWeights,
  ) {
    this.L = weights.labelCount;
    this.expRows = new Array<Float64Array | undefined>(weights.featureCount).fill(undefined);
    this.edgeLogs = NEIGHBOUR_OFFSETS.map((_, k) => {
      this.scratch.count = 0;
      neighbourKeys(k, edgeWord(k), edgeWord(k), this.scratch);
      const logs = new Float64Array(this.L);
      this.sumRows(this.keptIds(), logs, 0);
      return logs;
    });
    this.edges = this.edgeLogs.map(exponentials);
  }

  /**
   * exp(emission score) of each token and label, T × L row-major: a product of cached
   * exponentials, with no log-space sum (Decoder.decodeExp works on these). The array is reused
   * by the next line.
   */
  score(input: string, tokens: readonly Token[]): Float64Array {
    const n = this.analyze(input, tokens);
    const L = this.L;
    const { exps } = this;
    const { words } = this.line;
    for (let t = 0; t < n; t++) {
      const row = t * L;
      const own = this.vectors[t] as Float32Array;
      const place = this.placeVector(t);
      this.locateNeighbours(t, n);
      const { from, at } = this;
      const v0 = from[0] as Float32Array;
      const v1 = from[1] as Float32Array;
      const v2 = from[2] as Float32Array;
      const v3 = from[3] as Float32Array;
      const e0 = at[0] as number;
      const e1 = at[1] as number;
      const e2 = at[2] as number;
      const e3 = at[3] as number;
      for (let y = 0; y < L; y++) {
        exps[row + y] =
          (own[y] as number) *
          (place[L + y] as number) *
          (v0[e0 + y] as number) *
          (v1[e1 + y] as number) *
          (v2[e2 + y] as number) *
          (v3[e3 + y] as number);
      }
      if (this.extractor.ruleLabels) {
        const rule = this.ruleVector(t);
        for (let y = 0; y < L; y++) exps[row + y] = (exps[row + y] as number) * (rule[L + y] as number);
      }
      this.pairKeys(t, n, words);
      const { keys, count } = this.scratch;
      for (let i = 0; i < count; i++) {
        const id = this.dictionary.get(keys[i] as number);
        if (id < 0) continue;
        const expRow = this.expRows[id] ?? this.expRow(id);
        for (let y = 0; y < L; y++) exps[row + y] = (exps[row + y] as number) * (expRow[y] as number);
      }
    }
    return exps;
  }

  /**
   * The log-space emission scores of the line `score` read last, T × L: the same vectors
   * summed. For lines whose exponentials a double cannot hold (Decoder.decode), and tests.
   */
  logScores(): Float64Array {
    const n = this.line.length;
    const L = this.L;
    const scores = new Float64Array(n * L);
    const add = (row: number, vector: Float64Array | Float32Array, from: number) => {
      for (let y = 0; y < L; y++)
        scores[row + y] = (scores[row + y] as number) + (vector[from + y] as number);
    };
    const state = this.weights.state;
    for (let t = 0; t < n; t++) {
      const row = t * L;
      add(row, this.logsOfToken(t), 0);
      add(row, this.placeVector(t), 0);
      for (let k = 0; k < 4; k++) {
        const u = t + (NEIGHBOUR_OFFSETS[k] as number);
        if (u >= 0 && u < n) add(row, this.logsOfToken(u), (k + 1) * L);
        else add(row, this.edgeLogs[k] as Float64Array, 0);
      }
      if (this.extractor.ruleLabels) add(row, this.ruleVector(t), 0);
      this.pairKeys(t, n, this.line.words);
      for (let i = 0; i < this.scratch.count; i++) {
        const id = this.dictionary.get(this.scratch.keys[i] as number);
        if (id >= 0) add(row, state, id * L);
      }
    }
    return scores;
  }

  private logsOfToken(t: number): Float64Array {
    return this.logsOf.get(this.vectors[t] as Float32Array) as Float64Array;
  }

  /** Analyses the line and finds each token's word vectors; returns the token count. */
  private analyze(input: string, tokens: readonly Token[]): number {
    const line = this.extractor.analyze(input, tokens);
    this.line = line;
    const { length: n, infos, signatures, places } = line;
    if (this.exps.length < n * this.L) this.exps = new Float64Array(n * this.L * 2);
    const vectors = this.vectors;
    vectors.length = n;
    for (let t = 0; t < n; t++) {
      const info = infos[t] as WordInfo;
      const signature = signatures[t] as number;
      const boundaryAfter = boundaryAfterOf(places[t] as number);
      const slot = (((signature >>> CITY_MATCH_SHIFT) & (CITY_MATCHES - 1)) << 1) | boundaryAfter;
      vectors[t] = info.scores?.[slot] ?? this.wordScores(info, signature, boundaryAfter, slot);
    }
    return n;
  }

  /**
   * The four neighbours of token t (NEIGHBOUR_OFFSETS) into `from` (their word exponentials)
   * and `at` (where the exponentials of what each gives token t start).
   */
  private locateNeighbours(t: number, n: number): void {
    const { from, at, L } = this;
    for (let k = 0; k < 4; k++) {
      const u = t + (NEIGHBOUR_OFFSETS[k] as number);
      const inside = u >= 0 && u < n;
      from[k] = inside ? (this.vectors[u] as Float32Array) : (this.edges[k] as Float32Array);
      at[k] = inside ? (k + 1) * L : 0;
    }
  }

  private placeVector(t: number): Float64Array {
    return this.codeScores(this.places, this.line.places[t] as number, placeKeys);
  }

  private ruleVector(t: number): Float64Array {
    return this.codeScores(this.rules, this.line.rules[t] as number, ruleKeys);
  }

  /** Token t's bigram feature keys into the scratch list. */
  private pairKeys(t: number, n: number, words: Int32Array): void {
    this.scratch.count = 0;
    bigramKeys(
      t > 0 ? (words[t - 1] as number) : LINE_START,
      words[t] as number,
      t + 1 < n ? (words[t + 1] as number) : LINE_END,
      this.scratch,
    );
  }

  /**
   * A word's exponentials under its signature: [0, L) of its own and signature features, then
   * for each neighbour offset k, [(k+1)L, (k+2)L) of what it gives the token it neighbours. The
   * scores themselves, in the same order, are kept in `logsOf`.
   */
  private wordScores(info: WordInfo, signature: number, boundaryAfter: number, slot: number): Float32Array {
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
      const logs = new Float64Array(groups.length * L);
      groups.forEach((ids, g) => this.sumRows(ids, logs, g * L));
      vectors = exponentials(logs);
      this.logsOf.set(vectors, logs);
      if (this.shared.size >= SHARED_VECTORS) this.shared.clear();
      this.shared.set(key, vectors);
    }
    info.scores ??= new Array<Float32Array | undefined>(2 * CITY_MATCHES).fill(undefined);
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

  private expRow(id: number): Float64Array {
    const L = this.L;
    const row = Float64Array.from(this.weights.state.subarray(id * L, id * L + L), (w) => Math.exp(w));
    this.expRows[id] = row;
    return row;
  }
}

/**
 * Scores beyond this give exponentials a 32-bit float holds imprecisely (below e^-87 it loses
 * digits, below e^-103 it holds 0) or not at all (above e^88).
 */
const F32_EXP_RANGE = 80;

/** exp of each score as 32-bit floats, NaN where the score leaves ±F32_EXP_RANGE (see EmissionScorer). */
export function exponentials(scores: Float64Array): Float32Array {
  return Float32Array.from(scores, (w) => (Math.abs(w) < F32_EXP_RANGE ? Math.exp(w) : NaN));
}

import type { CrfWeights } from "./crf.js";

export interface Decoded {
  path: Int32Array;
  /** Score of the best path, and log Z: P(path | x) = exp(score - logZ). */
  score: number;
  logZ: number;
}

/**
 * The inference path of a loaded model: Viterbi (max-product) and the forward pass
 * (sum-product) in one sweep over the lattice. The forward pass is the scaled one (Rabiner 1989
 * §V.A): α is kept in linear space and divided by its sum wherever that sum strays far from 1,
 * the logs of the divisors summed into log Z; with exp(transition) computed once per model, and
 * exp(emission) given by the caller (EmissionScorer) or computed here, a position costs no
 * exponential and seldom a logarithm. Transitions are stored transposed (to-label major) so
 * the inner loops walk memory in order.
 *
 * Viterbi skips previous labels that cannot be the best predecessor of any label: p is
 * dominated by q when best[p] + max_y (trans[p][y] - trans[q][y]) < best[q], since then
 * best[p] + trans[p][y] < best[q] + trans[q][y] for every y. Testing every p against the best
 * q leaves 1-2 candidates a position on address lines instead of L, and the path is the one
 * the full maximization finds, ties included (a skipped label never attains the maximum).
 * Exact: tests hold it to ViterbiDecoder and ForwardBackward.
 *
 * The forward pass's matrix-vector product is most of a position's cost. It runs over the
 * labels in blocks of FORWARD_BLOCK: each α value of the previous column is loaded once per
 * block and multiplied into that many sums, with exp(transition) laid out block by block in
 * the order the loop reads it. This takes about a third off the decoder's time against one dot
 * product per label.
 */
export class Decoder {
  private readonly L: number;
  private readonly transT: Float64Array;
  private readonly expTransT: Float64Array;
  /** exp(transition) for the blocked product: per block of labels, per previous label, the block's row. */
  private readonly expTransBlocked: Float64Array;
  /** Labels covered by whole blocks (the rest, fewer than FORWARD_BLOCK, take one dot each). */
  private readonly blockedLabels: number;
  /** dominance[p * L + q] = max over y of trans[p][y] - trans[q][y]. */
  private readonly dominance: Float64Array;
  private readonly candidates: Int32Array;
  private best = new Float64Array(0);
  private alpha = new Float64Array(0);
  private back = new Int32Array(0);
  private readonly expStart: Float64Array;
  private readonly expEnd: Float64Array;

  constructor(private readonly weights: CrfWeights) {
    const L = weights.labelCount;
    this.L = L;
    this.transT = new Float64Array(L * L);
    for (let p = 0; p < L; p++)
      for (let y = 0; y < L; y++) this.transT[y * L + p] = weights.transition[p * L + y] as number;
    this.expTransT = this.transT.map((w) => Math.exp(w));
    this.blockedLabels = L - (L % FORWARD_BLOCK);
    this.expTransBlocked = new Float64Array(this.blockedLabels * L);
    let i = 0;
    for (let block = 0; block < this.blockedLabels; block += FORWARD_BLOCK)
      for (let p = 0; p < L; p++)
        for (let j = 0; j < FORWARD_BLOCK; j++)
          this.expTransBlocked[i++] = this.expTransT[(block + j) * L + p] as number;
    this.expStart = Float64Array.from(weights.start, (w) => Math.exp(w));
    this.expEnd = Float64Array.from(weights.end, (w) => Math.exp(w));
    this.dominance = new Float64Array(L * L);
    for (let p = 0; p < L; p++)
      for (let q = 0; q < L; q++) {
        let most = -Infinity;
        for (let y = 0; y < L; y++)
          most = Math.max(most, (this.transT[y * L + p] as number) - (this.transT[y * L + q] as number));
        this.dominance[p * L + q] = most;
      }
    this.candidates = new Int32Array(L);
  }

  /**
   * The best path of a line's emission scores (T × L), its score and log Z. `expEmit`, when
   * given, holds exp(emit) (EmissionScorer multiplies cached exponentials rather than calling
   * Math.exp, the forward pass's main cost); a column whose product under- or overflows is
   * recomputed from `emit` with the usual shift.
   */
  decode(emit: Float64Array, n: number, expEmit?: Float64Array): Decoded {
    const L = this.L;
    const path = new Int32Array(n);
    if (n === 0) return { path, score: 0, logZ: 0 };
    if (this.best.length < n * L) {
      this.best = new Float64Array(n * L * 2);
      this.alpha = new Float64Array(n * L * 2);
      this.back = new Int32Array(n * L * 2);
    }
    const { best, alpha, weights } = this;
    let top = 0;
    for (let y = 0; y < L; y++) {
      best[y] = (weights.start[y] as number) + (emit[y] as number);
      alpha[y] = this.expStart[y] as number;
      if ((best[y] as number) > (best[top] as number)) top = y;
    }
    let logZ = this.weigh(emit, expEmit, 0);
    for (let t = 1; t < n; t++) {
      top = this.step(emit, t, top);
      logZ += this.weigh(emit, expEmit, t * L);
    }
    const last = (n - 1) * L;
    let bestAt = 0;
    let score = -Infinity;
    let sum = 0;
    for (let y = 0; y < L; y++) {
      const s = (best[last + y] as number) + (weights.end[y] as number);
      if (s > score) {
        score = s;
        bestAt = y;
      }
      sum += (alpha[last + y] as number) * (this.expEnd[y] as number);
    }
    for (let t = n - 1; t >= 0; t--) {
      path[t] = bestAt;
      bestAt = this.back[t * L + bestAt] as number;
    }
    return { path, score, logZ: logZ + Math.log(sum) };
  }

  /**
   * Multiplies the α column at `at` (the transition sums) by the exponentiated emissions;
   * returns the log of what was divided out of it. With exp(emit) given, the column is divided
   * by its sum only when that sum leaves [1/ALPHA_RANGE, ALPHA_RANGE] (scaling is exact in any
   * case; it only keeps α far from overflow and underflow), which spares most positions the
   * division and the logarithm.
   */
  private weigh(emit: Float64Array, expEmit: Float64Array | undefined, at: number): number {
    const L = this.L;
    const alpha = this.alpha;
    if (expEmit !== undefined) {
      let total = 0;
      for (let y = 0; y < L; y++) total += (alpha[at + y] as number) * (expEmit[at + y] as number);
      if (total > 0 && total < Infinity) {
        const unscaled = total >= 1 / ALPHA_RANGE && total <= ALPHA_RANGE;
        const scale = unscaled ? 1 : 1 / total;
        for (let y = 0; y < L; y++)
          alpha[at + y] = (alpha[at + y] as number) * (expEmit[at + y] as number) * scale;
        return unscaled ? 0 : Math.log(total);
      }
    }
    const shift = maxOf(emit, at, L);
    let total = 0;
    for (let y = 0; y < L; y++) {
      const value = (alpha[at + y] as number) * Math.exp((emit[at + y] as number) - shift);
      alpha[at + y] = value;
      total += value;
    }
    for (let y = 0; y < L; y++) alpha[at + y] = (alpha[at + y] as number) / total;
    return shift + Math.log(total);
  }

  /**
   * Position t: Viterbi's column and back-pointers, α's column before the emissions. `top` is
   * the best label of the previous column; returns the best of this one.
   */
  private step(emit: Float64Array, t: number, top: number): number {
    const L = this.L;
    const { best, back, transT } = this;
    const prev = (t - 1) * L;
    const here = t * L;
    const count = this.viterbiCandidates(prev, top);
    let bestHere = 0;
    const candidates = this.candidates;
    if (count === 1) {
      // The usual case on address lines: one label dominates all others.
      const q = candidates[0] as number;
      const from = best[prev + q] as number;
      for (let y = 0; y < L; y++) {
        const s = from + (transT[y * L + q] as number) + (emit[here + y] as number);
        best[here + y] = s;
        back[here + y] = q;
        if (s > (best[here + bestHere] as number)) bestHere = y;
      }
    } else {
      for (let y = 0; y < L; y++) {
        const row = y * L;
        let most = -Infinity;
        let mostAt = 0;
        for (let i = 0; i < count; i++) {
          const p = candidates[i] as number;
          const s = (best[prev + p] as number) + (transT[row + p] as number);
          if (s > most) {
            most = s;
            mostAt = p;
          }
        }
        best[here + y] = most + (emit[here + y] as number);
        back[here + y] = mostAt;
        if ((best[here + y] as number) > (best[here + bestHere] as number)) bestHere = y;
      }
    }
    this.forward(prev, here);
    return bestHere;
  }

  /** α[here + y] = Σ_p α[prev + p] · exp(trans[p][y]), in blocks of FORWARD_BLOCK labels. */
  private forward(prev: number, here: number): void {
    const L = this.L;
    const { alpha, expTransBlocked: m } = this;
    let at = 0;
    let y = 0;
    for (; y < this.blockedLabels; y += FORWARD_BLOCK) {
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let s4 = 0;
      let s5 = 0;
      let s6 = 0;
      for (let p = 0; p < L; p++, at += FORWARD_BLOCK) {
        const a = alpha[prev + p] as number;
        s0 += a * (m[at] as number);
        s1 += a * (m[at + 1] as number);
        s2 += a * (m[at + 2] as number);
        s3 += a * (m[at + 3] as number);
        s4 += a * (m[at + 4] as number);
        s5 += a * (m[at + 5] as number);
        s6 += a * (m[at + 6] as number);
      }
      alpha[here + y] = s0;
      alpha[here + y + 1] = s1;
      alpha[here + y + 2] = s2;
      alpha[here + y + 3] = s3;
      alpha[here + y + 4] = s4;
      alpha[here + y + 5] = s5;
      alpha[here + y + 6] = s6;
    }
    for (; y < L; y++) alpha[here + y] = dot(alpha, prev, this.expTransT, y * L, L);
  }

  /**
   * The labels of the previous column not dominated by its best label q, in label order;
   * returns their count.
   */
  private viterbiCandidates(prev: number, q: number): number {
    const L = this.L;
    const { best, dominance, candidates } = this;
    const bar = (best[prev + q] as number) - DOMINANCE_MARGIN;
    let count = 0;
    for (let p = 0; p < L; p++) {
      if ((best[prev + p] as number) + (dominance[p * L + q] as number) >= bar) candidates[count++] = p;
    }
    return count;
  }
}

/** Bounds of an α column's sum inside which it is left unscaled (Decoder.weigh). */
const ALPHA_RANGE = 1e100;

/** Labels per block of the forward product (Decoder.forward keeps this many sums). */
const FORWARD_BLOCK = 7;

/** Slack on the dominance test, far above the rounding of sums of a few hundred weights. */
const DOMINANCE_MARGIN = 1e-9;

/** Σ a[i + k] · b[j + k] for k < n, four partial sums (the loop is the decoder's hot spot). */
function dot(a: Float64Array, i: number, b: Float64Array, j: number, n: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let k = 0;
  for (; k + 3 < n; k += 4) {
    s0 += (a[i + k] as number) * (b[j + k] as number);
    s1 += (a[i + k + 1] as number) * (b[j + k + 1] as number);
    s2 += (a[i + k + 2] as number) * (b[j + k + 2] as number);
    s3 += (a[i + k + 3] as number) * (b[j + k + 3] as number);
  }
  for (; k < n; k++) s0 += (a[i + k] as number) * (b[j + k] as number);
  return s0 + s1 + (s2 + s3);
}

function maxOf(values: Float64Array, from: number, count: number): number {
  let max = -Infinity;
  for (let i = from; i < from + count; i++) max = Math.max(max, values[i] as number);
  return max;
}

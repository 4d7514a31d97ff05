import type { CrfWeights } from "./crf.js";

export interface Decoded {
  /** The best label of each position (a plain array: a typed one costs more to allocate than to fill). */
  path: number[];
  /** Score of the best path, and log Z: P(path | x) = exp(score - logZ). */
  score: number;
  logZ: number;
}

/**
 * The inference path of a loaded model: Viterbi (max-product) and the forward pass
 * (sum-product) in one sweep over the lattice.
 *
 * `decodeExp` works in linear space on exp(emission), which EmissionScorer gives as products
 * of cached exponentials, so a position costs no exponential and the scorer no log-space sum:
 * Viterbi's column δ and the forward pass's α (Rabiner 1989 §V.A) are each divided by a
 * scale wherever they stray far from 1, the logs of the scales summed. Where the numbers leave
 * what a double holds (an emission product of 0 or ∞), or an emission is NaN (a score the
 * scorer's 32-bit exponentials cannot hold), it gives up, and `decode` answers from the
 * log-space scores instead: Viterbi on sums, α from exp(emission − column max).
 *
 * Viterbi skips previous labels that cannot be the best predecessor of any label: p is
 * dominated by q when best[p] + max_y (trans[p][y] - trans[q][y]) < best[q] (in linear space
 * δ[p] · max_y (T[p][y] / T[q][y]) < δ[q]), since then p's path into every y is worse than
 * q's. Testing every p against the best q leaves 1-2 candidates a position on address lines
 * instead of L; a skipped label never attains the maximum. Tests hold both decoders to
 * ViterbiDecoder and ForwardBackward. In linear space, products of exponentials round unlike
 * sums of logs, so labellings whose scores tie exactly may be broken either way there.
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
  /** exp(transition), from-label major: the single-candidate Viterbi step reads one row. */
  private readonly expTrans: Float64Array;
  /** exp(transition) for the blocked product: per block of labels, per previous label, the block's row. */
  private readonly expTransBlocked: Float64Array;
  /** Labels covered by whole blocks (the rest, fewer than FORWARD_BLOCK, take one dot each). */
  private readonly blockedLabels: number;
  /** dominance[p * L + q] = max over y of trans[p][y] - trans[q][y]; expDominance its exp. */
  private readonly dominance: Float64Array;
  private readonly expDominance: Float64Array;
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
    this.expTrans = Float64Array.from(weights.transition, (w) => Math.exp(w));
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
    this.expDominance = this.dominance.map((d) => Math.exp(d));
    this.candidates = new Int32Array(L);
  }

  /**
   * The best path of a line from exp(emission), T × L, its score and log Z; undefined when a
   * column's numbers leave what a double holds (then `decode` on the log-space scores answers).
   */
  decodeExp(expEmit: Float64Array, n: number): Decoded | undefined {
    const L = this.L;
    const path = new Array<number>(n);
    if (n === 0) return { path, score: 0, logZ: 0 };
    this.reserve(n);
    const { best, alpha, expStart } = this;
    let top = 0;
    for (let y = 0; y < L; y++) {
      best[y] = (expStart[y] as number) * (expEmit[y] as number);
      alpha[y] = expStart[y] as number;
      if ((best[y] as number) > (best[top] as number)) top = y;
    }
    let logBest = 0;
    let logZ = 0;
    for (let t = 0; t < n; t++) {
      const here = t * L;
      if (t > 0) {
        top = this.stepExp(expEmit, t, top);
        this.forward(here - L, here);
      }
      const scaled = this.weighExp(expEmit, here);
      const most = best[here + top] as number;
      if (Number.isNaN(scaled) || !(most > 0 && most < Infinity)) return undefined;
      logZ += scaled;
      if (most < 1 / SCALE_RANGE || most > SCALE_RANGE) {
        for (let y = 0; y < L; y++) best[here + y] = (best[here + y] as number) / most;
        logBest += Math.log(most);
      }
    }
    const last = (n - 1) * L;
    let bestAt = 0;
    let most = -Infinity;
    let sum = 0;
    for (let y = 0; y < L; y++) {
      const s = (best[last + y] as number) * (this.expEnd[y] as number);
      if (s > most) {
        most = s;
        bestAt = y;
      }
      sum += (alpha[last + y] as number) * (this.expEnd[y] as number);
    }
    this.trace(path, bestAt);
    return { path, score: logBest + Math.log(most), logZ: logZ + Math.log(sum) };
  }

  /** The best path of a line's log-space emission scores (T × L), its score and log Z. */
  decode(emit: Float64Array, n: number): Decoded {
    const L = this.L;
    const path = new Array<number>(n);
    if (n === 0) return { path, score: 0, logZ: 0 };
    this.reserve(n);
    const { best, alpha, weights } = this;
    let top = 0;
    for (let y = 0; y < L; y++) {
      best[y] = (weights.start[y] as number) + (emit[y] as number);
      alpha[y] = this.expStart[y] as number;
      if ((best[y] as number) > (best[top] as number)) top = y;
    }
    let logZ = this.weigh(emit, 0);
    for (let t = 1; t < n; t++) {
      top = this.step(emit, t, top);
      this.forward((t - 1) * L, t * L);
      logZ += this.weigh(emit, t * L);
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
    this.trace(path, bestAt);
    return { path, score, logZ: logZ + Math.log(sum) };
  }

  private reserve(n: number): void {
    const size = n * this.L;
    if (this.best.length >= size) return;
    this.best = new Float64Array(size * 2);
    this.alpha = new Float64Array(size * 2);
    this.back = new Int32Array(size * 2);
  }

  /** Follows the back-pointers from the last position's best label. */
  private trace(path: number[], last: number): void {
    const L = this.L;
    let at = last;
    for (let t = path.length - 1; t >= 0; t--) {
      path[t] = at;
      at = this.back[t * L + at] as number;
    }
  }

  /**
   * Multiplies the α column at `at` (the transition sums) by exp(emission); returns the log of
   * what was divided out of it, or NaN when the column's sum is 0 or not finite. The column is
   * divided by its sum only when that sum leaves [1/SCALE_RANGE, SCALE_RANGE] (scaling is exact
   * in any case; it only keeps α from overflow and underflow), which spares most positions
   * the division and the logarithm.
   */
  private weighExp(expEmit: Float64Array, at: number): number {
    const L = this.L;
    const alpha = this.alpha;
    let total = 0;
    for (let y = 0; y < L; y++) {
      const value = (alpha[at + y] as number) * (expEmit[at + y] as number);
      alpha[at + y] = value;
      total += value;
    }
    if (!(total > 0 && total < Infinity)) return NaN;
    if (total >= 1 / SCALE_RANGE && total <= SCALE_RANGE) return 0;
    for (let y = 0; y < L; y++) alpha[at + y] = (alpha[at + y] as number) / total;
    return Math.log(total);
  }

  /** As weighExp from log-space scores: exp(emission − the column's max), then divided by the sum. */
  private weigh(emit: Float64Array, at: number): number {
    const L = this.L;
    const alpha = this.alpha;
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
   * Viterbi's column t and back-pointers in linear space. `top` is the best label of the
   * previous column; returns the best of this one.
   */
  private stepExp(expEmit: Float64Array, t: number, top: number): number {
    const L = this.L;
    const { best, back, candidates } = this;
    const prev = (t - 1) * L;
    const here = t * L;
    const count = this.viterbiCandidatesExp(prev, top);
    let bestHere = 0;
    if (count === 1) {
      // The usual case on address lines: one label dominates all others.
      const q = candidates[0] as number;
      const from = best[prev + q] as number;
      const row = q * L;
      const expTrans = this.expTrans;
      for (let y = 0; y < L; y++) {
        const s = from * (expTrans[row + y] as number) * (expEmit[here + y] as number);
        best[here + y] = s;
        back[here + y] = q;
        if (s > (best[here + bestHere] as number)) bestHere = y;
      }
      return bestHere;
    }
    const expTransT = this.expTransT;
    for (let y = 0; y < L; y++) {
      const row = y * L;
      let most = -1;
      let mostAt = 0;
      for (let i = 0; i < count; i++) {
        const p = candidates[i] as number;
        const s = (best[prev + p] as number) * (expTransT[row + p] as number);
        if (s > most) {
          most = s;
          mostAt = p;
        }
      }
      best[here + y] = most * (expEmit[here + y] as number);
      back[here + y] = mostAt;
      if ((best[here + y] as number) > (best[here + bestHere] as number)) bestHere = y;
    }
    return bestHere;
  }

  /** Viterbi's column t and back-pointers from log-space scores; as stepExp. */
  private step(emit: Float64Array, t: number, top: number): number {
    const L = this.L;
    const { best, back, transT, candidates } = this;
    const prev = (t - 1) * L;
    const here = t * L;
    const count = this.viterbiCandidates(prev, top);
    let bestHere = 0;
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

  /** As viterbiCandidates on the linear-space column: δ[p] · exp(dominance[p][q]) against δ[q]. */
  private viterbiCandidatesExp(prev: number, q: number): number {
    const L = this.L;
    const { best, expDominance, candidates } = this;
    const bar = (best[prev + q] as number) * (1 - DOMINANCE_MARGIN);
    let count = 0;
    for (let p = 0; p < L; p++) {
      if ((best[prev + p] as number) * (expDominance[p * L + q] as number) >= bar) candidates[count++] = p;
    }
    return count;
  }
}

/** Bounds inside which a linear-space column (δ's best, α's sum) is left unscaled. */
const SCALE_RANGE = 1e100;

/** Labels per block of the forward product (Decoder.forward keeps this many sums). */
const FORWARD_BLOCK = 7;

/**
 * Slack on the dominance test (additive in log space, relative in linear space), far above the
 * rounding of sums or products of a few hundred weights.
 */
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

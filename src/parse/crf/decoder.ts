import type { CrfWeights } from "./crf.js";

export interface Decoded {
  path: Int32Array;
  /** Score of the best path, and log Z: P(path | x) = exp(score - logZ). */
  score: number;
  logZ: number;
}

/**
 * The inference path of a loaded model: Viterbi (max-product) and the forward pass
 * (sum-product) fused into one sweep over the lattice, so each transition weight is read once
 * for both. The forward pass is the scaled one (Rabiner 1989 §V.A): α is kept in linear space,
 * normalized to sum 1 at every position, the logs of the normalizers summed into log Z; with
 * exp(transition) computed once per model a position costs L exponentials and one logarithm
 * (the log-space version costs L of each, and they dominate at L = 21). Transitions are stored
 * transposed (to-label major) so the inner loops walk memory in order. Exact: tests hold it to
 * ViterbiDecoder and ForwardBackward.
 */
export class Decoder {
  private readonly L: number;
  private readonly transT: Float64Array;
  private readonly expTransT: Float64Array;
  private best = new Float64Array(0);
  private alpha = new Float64Array(0);
  private back = new Int32Array(0);
  private readonly expEnd: Float64Array;

  constructor(private readonly weights: CrfWeights) {
    const L = weights.labelCount;
    this.L = L;
    this.transT = new Float64Array(L * L);
    for (let p = 0; p < L; p++)
      for (let y = 0; y < L; y++) this.transT[y * L + p] = weights.transition[p * L + y] as number;
    this.expTransT = this.transT.map((w) => Math.exp(w));
    this.expEnd = Float64Array.from(weights.end, (w) => Math.exp(w));
  }

  decode(emit: Float64Array, n: number): Decoded {
    const L = this.L;
    const path = new Int32Array(n);
    if (n === 0) return { path, score: 0, logZ: 0 };
    if (this.best.length < n * L) {
      this.best = new Float64Array(n * L * 2);
      this.alpha = new Float64Array(n * L * 2);
      this.back = new Int32Array(n * L * 2);
    }
    const { best, alpha, weights } = this;
    for (let y = 0; y < L; y++) alpha[y] = best[y] = (weights.start[y] as number) + (emit[y] as number);
    let logZ = this.normalize(0, maxOf(alpha, 0, L), true);
    for (let t = 1; t < n; t++) logZ += this.step(emit, t);
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
   * Column t of α: raw values (log space when `fromLog`, else linear scaled by exp(-shift))
   * become linear and normalized; returns the log of what was divided out.
   */
  private normalize(t: number, shift: number, fromLog: boolean): number {
    const L = this.L;
    const alpha = this.alpha;
    let sum = 0;
    for (let y = 0; y < L; y++) {
      const value = fromLog ? Math.exp((alpha[t * L + y] as number) - shift) : (alpha[t * L + y] as number);
      alpha[t * L + y] = value;
      sum += value;
    }
    for (let y = 0; y < L; y++) alpha[t * L + y] = (alpha[t * L + y] as number) / sum;
    return shift + Math.log(sum);
  }

  /** Position t; returns the log normalizer of α's column. */
  private step(emit: Float64Array, t: number): number {
    const L = this.L;
    const { best, alpha, back, transT, expTransT } = this;
    const prev = (t - 1) * L;
    const here = t * L;
    const shift = maxOf(emit, here, L);
    for (let y = 0; y < L; y++) {
      const row = y * L;
      let top = -Infinity;
      let topAt = 0;
      for (let p = 0; p < L; p++) {
        const s = (best[prev + p] as number) + (transT[row + p] as number);
        if (s > top) {
          top = s;
          topAt = p;
        }
      }
      let sum = 0;
      for (let p = 0; p < L; p++) sum += (alpha[prev + p] as number) * (expTransT[row + p] as number);
      const e = emit[here + y] as number;
      best[here + y] = top + e;
      back[here + y] = topAt;
      alpha[here + y] = sum * Math.exp(e - shift);
    }
    return this.normalize(t, shift, false);
  }
}

function maxOf(values: Float64Array, from: number, count: number): number {
  let max = -Infinity;
  for (let i = from; i < from + count; i++) max = Math.max(max, values[i] as number);
  return max;
}

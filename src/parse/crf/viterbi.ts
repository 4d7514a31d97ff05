import type { CrfWeights } from "./crf.js";

/**
 * Viterbi decoding (Viterbi 1967; Rabiner 1989 §III.B): the highest-scoring labelling given
 * emission scores `emit` (T × L). `scratch` buffers are reused across calls to keep the
 * per-parse cost allocation-free apart from the answer.
 */
export class ViterbiDecoder {
  private score = new Float64Array(0);
  private back = new Int32Array(0);

  decode(weights: CrfWeights, emit: Float64Array, length: number): Int32Array {
    const L = weights.labelCount;
    const path = new Int32Array(length);
    if (length === 0) return path;
    if (this.score.length < length * L) {
      this.score = new Float64Array(length * L * 2);
      this.back = new Int32Array(length * L * 2);
    }
    const { score, back } = this;
    for (let y = 0; y < L; y++) score[y] = (weights.start[y] as number) + (emit[y] as number);
    for (let t = 1; t < length; t++) this.step(weights, emit, t);
    let best = 0;
    let bestScore = -Infinity;
    const last = (length - 1) * L;
    for (let y = 0; y < L; y++) {
      const s = (score[last + y] as number) + (weights.end[y] as number);
      if (s > bestScore) {
        best = y;
        bestScore = s;
      }
    }
    for (let t = length - 1; t >= 0; t--) {
      path[t] = best;
      best = back[t * L + best] as number;
    }
    return path;
  }

  private step(weights: CrfWeights, emit: Float64Array, t: number): void {
    const L = weights.labelCount;
    const { score, back } = this;
    const prev = (t - 1) * L;
    const trans = weights.transition;
    for (let y = 0; y < L; y++) {
      let best = 0;
      let bestScore = -Infinity;
      for (let p = 0; p < L; p++) {
        const s = (score[prev + p] as number) + (trans[p * L + y] as number);
        if (s > bestScore) {
          best = p;
          bestScore = s;
        }
      }
      score[t * L + y] = bestScore + (emit[t * L + y] as number);
      back[t * L + y] = best;
    }
  }
}

import type { CrfWeights } from "./crf.js";

/**
 * Forward-backward for a linear-chain CRF (Rabiner 1989 §III.A; Sutton & McCallum 2012 §4.1),
 * with α and β kept in log space. Each step factors out the previous column's maximum m:
 *   α[t][y] = emit[t][y] + m + log Σp exp(α[t-1][p] - m) · E[p][y],  E = exp(transition)
 * so a step costs L exponentials and L logarithms instead of L², while staying as stable as a
 * log-sum-exp (the terms exp(α - m) are ≤ 1, and E stays finite because L2-regularized
 * transition weights are small).
 */
export class ForwardBackward {
  alpha = new Float64Array(0);
  beta = new Float64Array(0);
  logZ = 0;
  private expTrans = new Float64Array(0);
  private column = new Float64Array(0);

  /** Caches exp(transition); call whenever the weights change. */
  prepare(weights: CrfWeights): void {
    const size = weights.labelCount * weights.labelCount;
    if (this.expTrans.length !== size) this.expTrans = new Float64Array(size);
    for (let i = 0; i < size; i++) this.expTrans[i] = Math.exp(weights.transition[i] as number);
    if (this.column.length !== weights.labelCount) this.column = new Float64Array(weights.labelCount);
  }

  private ensure(size: number): void {
    if (this.alpha.length >= size) return;
    this.alpha = new Float64Array(size * 2);
    this.beta = new Float64Array(size * 2);
  }

  /** Fills α and sets logZ, the log partition function. */
  forward(weights: CrfWeights, emit: Float64Array, length: number): number {
    const L = weights.labelCount;
    this.ensure(length * L);
    const { alpha, expTrans, column } = this;
    for (let y = 0; y < L; y++) alpha[y] = (weights.start[y] as number) + (emit[y] as number);
    for (let t = 1; t < length; t++) {
      const prev = (t - 1) * L;
      const m = expColumn(alpha, prev, L, column);
      for (let y = 0; y < L; y++) {
        let sum = 0;
        for (let p = 0; p < L; p++) sum += (column[p] as number) * (expTrans[p * L + y] as number);
        alpha[t * L + y] = (emit[t * L + y] as number) + m + Math.log(sum);
      }
    }
    let max = -Infinity;
    const last = (length - 1) * L;
    for (let y = 0; y < L; y++) max = Math.max(max, (alpha[last + y] as number) + (weights.end[y] as number));
    let sum = 0;
    for (let y = 0; y < L; y++)
      sum += Math.exp((alpha[last + y] as number) + (weights.end[y] as number) - max);
    this.logZ = length === 0 ? 0 : max + Math.log(sum);
    return this.logZ;
  }

  /** Fills β (call after forward). */
  backward(weights: CrfWeights, emit: Float64Array, length: number): void {
    const L = weights.labelCount;
    const { beta, expTrans, column } = this;
    const last = (length - 1) * L;
    for (let y = 0; y < L; y++) beta[last + y] = weights.end[y] as number;
    for (let t = length - 2; t >= 0; t--) {
      const next = (t + 1) * L;
      let m = -Infinity;
      for (let n = 0; n < L; n++) m = Math.max(m, (emit[next + n] as number) + (beta[next + n] as number));
      for (let n = 0; n < L; n++)
        column[n] = Math.exp((emit[next + n] as number) + (beta[next + n] as number) - m);
      for (let y = 0; y < L; y++) {
        let sum = 0;
        for (let n = 0; n < L; n++) sum += (expTrans[y * L + n] as number) * (column[n] as number);
        beta[t * L + y] = m + Math.log(sum);
      }
    }
  }

  /** P(y_t = y | x), T × L (call after forward and backward). */
  marginals(labelCount: number, length: number, out?: Float64Array): Float64Array {
    const size = length * labelCount;
    const result = out !== undefined && out.length >= size ? out : new Float64Array(size);
    for (let i = 0; i < size; i++) {
      result[i] = Math.exp((this.alpha[i] as number) + (this.beta[i] as number) - this.logZ);
    }
    return result;
  }

  /**
   * Adds P(y_(t-1) = p, y_t = y | x) · scale for every t ≥ 1 into `out` (L × L), the expected
   * transition counts the gradient needs.
   */
  addPairMarginals(
    labelCount: number,
    emit: Float64Array,
    length: number,
    scale: number,
    out: Float64Array,
  ): void {
    const L = labelCount;
    const { alpha, beta, expTrans, column } = this;
    const right = new Float64Array(L);
    for (let t = 1; t < length; t++) {
      const ma = expColumn(alpha, (t - 1) * L, L, column);
      let mb = -Infinity;
      for (let y = 0; y < L; y++)
        mb = Math.max(mb, (emit[t * L + y] as number) + (beta[t * L + y] as number));
      for (let y = 0; y < L; y++)
        right[y] = Math.exp((emit[t * L + y] as number) + (beta[t * L + y] as number) - mb);
      const factor = Math.exp(ma + mb - this.logZ) * scale;
      for (let p = 0; p < L; p++) {
        const a = (column[p] as number) * factor;
        for (let y = 0; y < L; y++) {
          out[p * L + y] =
            (out[p * L + y] as number) + a * (expTrans[p * L + y] as number) * (right[y] as number);
        }
      }
    }
  }
}

/** column[i] = exp(values[offset + i] - max); returns max. */
function expColumn(values: Float64Array, offset: number, L: number, column: Float64Array): number {
  let max = -Infinity;
  for (let i = 0; i < L; i++) max = Math.max(max, values[offset + i] as number);
  for (let i = 0; i < L; i++) column[i] = Math.exp((values[offset + i] as number) - max);
  return max;
}

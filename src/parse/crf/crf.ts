/**
 * A linear-chain conditional random field (Lafferty, McCallum & Pereira 2001), generic over
 * label indices 0..L-1 and feature ids 0..F-1. The score of a labelling y of a sequence x is
 *   start[y0] + Σt emit(t, yt) + Σt trans[y(t-1), yt] + end[y(T-1)],
 * where emit(t, y) sums stateWeights[f * L + y] over the features f active at position t.
 */
export interface CrfWeights {
  readonly labelCount: number;
  readonly featureCount: number;
  /** featureCount × labelCount, row-major by feature. */
  readonly state: Float64Array | Float32Array;
  /** labelCount × labelCount, row-major by previous label. */
  readonly transition: Float64Array | Float32Array;
  readonly start: Float64Array | Float32Array;
  readonly end: Float64Array | Float32Array;
}

/**
 * One sequence's features: position t has the feature ids
 * `features[offsets[t]] .. features[offsets[t + 1] - 1]`.
 */
export interface FeatureSequence {
  readonly length: number;
  readonly offsets: Int32Array;
  readonly features: Int32Array;
}

/** Packs per-position feature id lists into a FeatureSequence. */
export function featureSequence(positions: ReadonlyArray<ArrayLike<number>>): FeatureSequence {
  const offsets = new Int32Array(positions.length + 1);
  let total = 0;
  positions.forEach((ids, t) => {
    offsets[t] = total;
    total += ids.length;
  });
  offsets[positions.length] = total;
  const features = new Int32Array(total);
  positions.forEach((ids, t) => features.set(Array.from(ids), offsets[t] ?? 0));
  return { length: positions.length, offsets, features };
}

/** Emission scores, T × L row-major; written into `out` when it is large enough (no allocation). */
export function emissions(weights: CrfWeights, sequence: FeatureSequence, out?: Float64Array): Float64Array {
  const L = weights.labelCount;
  const size = sequence.length * L;
  const scores = out !== undefined && out.length >= size ? out : new Float64Array(size);
  scores.fill(0, 0, size);
  const { offsets, features } = sequence;
  const state = weights.state;
  for (let t = 0; t < sequence.length; t++) {
    const row = t * L;
    for (let k = offsets[t] as number; k < (offsets[t + 1] as number); k++) {
      const base = (features[k] as number) * L;
      for (let y = 0; y < L; y++) scores[row + y] = (scores[row + y] as number) + (state[base + y] as number);
    }
  }
  return scores;
}

/** The unnormalized score of one labelling (used by tests and the gradient check). */
export function sequenceScore(weights: CrfWeights, emit: Float64Array, labels: ArrayLike<number>): number {
  const L = weights.labelCount;
  const T = labels.length;
  if (T === 0) return 0;
  let score =
    (weights.start[labels[0] as number] as number) + (weights.end[labels[T - 1] as number] as number);
  for (let t = 0; t < T; t++) {
    const y = labels[t] as number;
    score += emit[t * L + y] as number;
    if (t > 0) score += weights.transition[(labels[t - 1] as number) * L + y] as number;
  }
  return score;
}

import { emissions, sequenceScore, type CrfWeights, type FeatureSequence } from "./crf.js";
import { ForwardBackward } from "./forward-backward.js";

/** A labelled training sequence; `weight` scales its term in the likelihood (1 by default). */
export interface TrainingSequence {
  readonly features: FeatureSequence;
  readonly labels: Int32Array;
  readonly weight?: number;
}

/**
 * The parameters as one flat vector θ = [state | transition | start | end], and CrfWeights
 * views onto it, so the optimizer sees a plain vector and the model code sees named parts.
 */
export function weightsView(theta: Float64Array, labelCount: number, featureCount: number): CrfWeights {
  const L = labelCount;
  const stateEnd = featureCount * L;
  const transEnd = stateEnd + L * L;
  return {
    labelCount,
    featureCount,
    state: theta.subarray(0, stateEnd),
    transition: theta.subarray(stateEnd, transEnd),
    start: theta.subarray(transEnd, transEnd + L),
    end: theta.subarray(transEnd + L, transEnd + 2 * L),
  };
}

export function parameterCount(labelCount: number, featureCount: number): number {
  return featureCount * labelCount + labelCount * labelCount + 2 * labelCount;
}

/**
 * The L2-regularized negative conditional log-likelihood (Sutton & McCallum 2012 §5.1):
 *   f(θ) = Σi wi (log Z(xi) - score(xi, yi)) + (λ/2)‖θ‖²
 * and its gradient, expected minus observed feature counts plus λθ, written into `gradient`.
 */
export function negativeLogLikelihood(
  theta: Float64Array,
  gradient: Float64Array,
  data: readonly TrainingSequence[],
  labelCount: number,
  featureCount: number,
  l2: number,
): number {
  const weights = weightsView(theta, labelCount, featureCount);
  const grad = weightsView(gradient, labelCount, featureCount);
  let value = 0;
  for (let i = 0; i < theta.length; i++) {
    const w = theta[i] as number;
    value += 0.5 * l2 * w * w;
    gradient[i] = l2 * w;
  }
  const lattice = new ForwardBackward();
  lattice.prepare(weights);
  let emit: Float64Array = new Float64Array(64);
  let marginals: Float64Array = new Float64Array(64);
  for (const sequence of data) {
    const T = sequence.labels.length;
    if (T === 0) continue;
    const scale = sequence.weight ?? 1;
    emit = emissions(weights, sequence.features, emit.length >= T * labelCount ? emit : undefined);
    value += scale * (lattice.forward(weights, emit, T) - sequenceScore(weights, emit, sequence.labels));
    lattice.backward(weights, emit, T);
    marginals = lattice.marginals(labelCount, T, marginals.length >= T * labelCount ? marginals : undefined);
    addStateGradient(grad, sequence, marginals, scale);
    lattice.addPairMarginals(labelCount, emit, T, scale, grad.transition as Float64Array);
    addObservedCounts(grad, sequence, marginals, scale);
  }
  return value;
}

function addStateGradient(
  grad: CrfWeights,
  sequence: TrainingSequence,
  marginals: Float64Array,
  scale: number,
): void {
  const L = grad.labelCount;
  const state = grad.state as Float64Array;
  const { offsets, features } = sequence.features;
  for (let t = 0; t < sequence.labels.length; t++) {
    const gold = sequence.labels[t] as number;
    for (let k = offsets[t] as number; k < (offsets[t + 1] as number); k++) {
      const base = (features[k] as number) * L;
      for (let y = 0; y < L; y++)
        state[base + y] = (state[base + y] as number) + scale * (marginals[t * L + y] as number);
      state[base + gold] = (state[base + gold] as number) - scale;
    }
  }
}

/** Start/end expectations and the observed transition, start and end counts. */
function addObservedCounts(
  grad: CrfWeights,
  sequence: TrainingSequence,
  marginals: Float64Array,
  scale: number,
): void {
  const L = grad.labelCount;
  const labels = sequence.labels;
  const T = labels.length;
  const start = grad.start as Float64Array;
  const end = grad.end as Float64Array;
  const transition = grad.transition as Float64Array;
  for (let y = 0; y < L; y++) {
    start[y] = (start[y] as number) + scale * (marginals[y] as number);
    end[y] = (end[y] as number) + scale * (marginals[(T - 1) * L + y] as number);
  }
  start[labels[0] as number] = (start[labels[0] as number] as number) - scale;
  end[labels[T - 1] as number] = (end[labels[T - 1] as number] as number) - scale;
  for (let t = 1; t < T; t++) {
    const index = (labels[t - 1] as number) * L + (labels[t] as number);
    transition[index] = (transition[index] as number) - scale;
  }
}

import { featureSequence } from "../../src/parse/crf/crf.js";
import { minimize } from "../../src/parse/crf/lbfgs.js";
import type { StoredModel } from "../../src/parse/crf/model-file.js";
import {
  parameterCount,
  negativeLogLikelihood,
  weightsView,
  type TrainingSequence,
} from "../../src/parse/crf/objective.js";
import type { Calibration } from "../../src/parse/crf/model-file.js";
import { FeatureExtractor, TEMPLATES_VERSION, type FeatureConfig } from "../../src/parse/model/features.js";
import { LABEL_INDEX, LABELS } from "../../src/parse/labels.js";
import type { LabelledLine } from "./labelled-corpus.js";

export const MODEL_NAME = "situs-crf";
export const MODEL_VERSION = "0.3.0";
/**
 * confidence = P(labels)^exponent, or P(labels)^agreementExponent where the model is unsure and
 * the rules read the line alike, or P(labels)^backOffExponent for a back-off answer that raises
 * no warning (model-parser.ts): the powers `npm run eval:parser -- --cv 5` fits on held-out
 * lines (docs/parser-model.md "Calibration"), written into the model header; refit when
 * training changes.
 */
export const CALIBRATION: Calibration = { exponent: 1.3, agreementExponent: 0.3, backOffExponent: 0.5 };

export interface TrainingOptions {
  /** λ of the L2 penalty (λ/2)‖θ‖². */
  l2: number;
  maxIterations: number;
  /** Feature keys seen fewer times are left out of the dictionary. */
  minFeatureCount: number;
  /** Words seen this often are "common" (no character n-grams). */
  commonWordCount: number;
  /** The rule-based labeller's labels as features (FeatureConfig.ruleLabels). */
  ruleLabels: boolean;
  log?: (message: string) => void;
}

export const DEFAULT_TRAINING: TrainingOptions = {
  l2: 0.1,
  maxIterations: 250,
  minFeatureCount: 2,
  commonWordCount: 5,
  ruleLabels: false,
};

export interface WeightedLine {
  line: LabelledLine;
  weight: number;
}

/** Trains a CRF on labelled lines; deterministic for the same lines in the same order. */
export function trainModel(
  data: readonly WeightedLine[],
  options: TrainingOptions,
  summary: Record<string, unknown>,
): StoredModel {
  const config: FeatureConfig = {
    // Version 1 when the version 2 templates are not used, so such a model loads where 1 does.
    templatesVersion: options.ruleLabels ? TEMPLATES_VERSION : 1,
    commonWords: commonWords(data, options.commonWordCount),
    ...(options.ruleLabels ? { ruleLabels: true } : {}),
  };
  const extractor = new FeatureExtractor(config);
  const keyed = data.map(({ line }) => {
    const features = extractor.extract(line.input, line.tokens);
    return Array.from({ length: features.length }, (_, t) =>
      features.keys.slice(features.offsets[t], features.offsets[t + 1]),
    );
  });
  const counts = new Map<number, number>();
  for (const positions of keyed)
    for (const keys of positions) for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  const kept = [...counts].filter(([, count]) => count >= options.minFeatureCount).map(([key]) => key);
  const featureKeys = Uint32Array.from(kept.sort((a, b) => a - b));
  const idOf = new Map(Array.from(featureKeys, (key, id) => [key, id]));
  const sequences: TrainingSequence[] = keyed.map((positions, i) => ({
    features: featureSequence(
      positions.map((keys) => Array.from(keys, (key) => idOf.get(key) ?? -1).filter((id) => id >= 0)),
    ),
    labels: Int32Array.from(data[i]!.line.labels, (label) => LABEL_INDEX.get(label) ?? 0),
    weight: data[i]!.weight,
  }));
  const L = LABELS.length;
  const F = featureKeys.length;
  const theta = new Float64Array(parameterCount(L, F));
  const result = minimize((x, g) => negativeLogLikelihood(x, g, sequences, L, F, options.l2), theta, {
    maxIterations: options.maxIterations,
    tolerance: 1e-6,
    onIteration: (iteration, value) => {
      if (iteration % 25 === 0) options.log?.(`  iteration ${iteration}: objective ${value.toFixed(2)}`);
    },
  });
  const view = weightsView(theta, L, F);
  return {
    header: {
      formatVersion: 1,
      name: MODEL_NAME,
      version: MODEL_VERSION,
      labels: [...LABELS],
      featureCount: F,
      bodySha256: "",
      features: config as unknown as Record<string, unknown>,
      training: {
        ...summary,
        sequences: data.length,
        features: F,
        trainer: "L-BFGS (m=10), L2-regularized conditional log-likelihood",
        l2: options.l2,
        minFeatureCount: options.minFeatureCount,
        iterations: result.iterations,
        evaluations: result.evaluations,
        objective: Number(result.value.toFixed(4)),
      },
    },
    featureKeys,
    weights: {
      labelCount: L,
      featureCount: F,
      state: Float32Array.from(view.state),
      transition: Float32Array.from(view.transition),
      start: Float32Array.from(view.start),
      end: Float32Array.from(view.end),
    },
  };
}

function commonWords(data: readonly WeightedLine[], threshold: number): string[] {
  const counts = new Map<string, number>();
  for (const { line } of data)
    for (const token of line.tokens) counts.set(token.text, (counts.get(token.text) ?? 0) + 1);
  return [...counts]
    .filter(([, count]) => count >= threshold)
    .map(([word]) => word)
    .sort();
}

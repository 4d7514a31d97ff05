import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { emissions, featureSequence } from "../../src/parse/crf/crf.js";
import { FeatureDictionary } from "../../src/parse/crf/feature-dictionary.js";
import { decodeModel, type StoredModel } from "../../src/parse/crf/model-file.js";
import { EmissionScorer } from "../../src/parse/emission-scorer.js";
import { FeatureExtractor, type FeatureConfig } from "../../src/parse/features.js";
import { DEFAULT_MODEL_FILE } from "../../src/parse/model-parser.js";
import { tokenize } from "../../src/parse/tokenize.js";
import { generateLines, worstCaseLines } from "../../tools/address-lines.js";
import { generateSynthetic } from "../../tools/synthetic-addresses.js";
import { trainModel } from "../../tools/model-training.js";
import { tinyModel } from "../support/tiny-model.js";

/** The naive oracle: every feature key listed, looked up, its weights added one by one. */
function naiveEmissions(model: StoredModel, extractor: FeatureExtractor, line: string): Float64Array {
  const dictionary = new FeatureDictionary(model.featureKeys);
  const features = extractor.extract(line, tokenize(line));
  const positions = Array.from({ length: features.length }, (_, t) =>
    Array.from(features.keys.subarray(features.offsets[t], features.offsets[t + 1]))
      .map((key) => dictionary.get(key))
      .filter((id) => id >= 0),
  );
  return emissions(model.weights, featureSequence(positions));
}

const lines = [
  ...generateSynthetic(300, 5).map((line) => line.input),
  ...generateLines(300, 3),
  ...worstCaseLines().slice(0, 20),
  "NEW YORK MILLS NEW YORK NEW YORK 10001",
  "1 FIRST ST, E SAN JOSE",
  "PO BOX 12, SAN JUAN, PR 00901",
];

const withRuleLabels = trainModel(
  generateSynthetic(150, 8).map((line) => ({ line, weight: 1 })),
  { l2: 1, maxIterations: 15, minFeatureCount: 1, commonWordCount: 3, ruleLabels: true },
  { purpose: "tests" },
);

for (const [name, model] of [
  ["a tiny model", tinyModel()],
  ["a tiny model with rule-label features", withRuleLabels],
  ["the shipped model", decodeModel(readFileSync(DEFAULT_MODEL_FILE))],
] as const) {
  test(`the emission scorer equals the naive sum over listed features, with ${name}`, () => {
    const config = model.header.features as unknown as FeatureConfig;
    const oracle = new FeatureExtractor(config);
    const scorer = new EmissionScorer(
      new FeatureExtractor(config),
      new FeatureDictionary(model.featureKeys),
      model.weights,
    );
    // Twice over: the second pass reads the cached vectors.
    for (const pass of [1, 2])
      for (const line of lines) {
        const expected = naiveEmissions(model, oracle, line);
        const { scores, exps } = scorer.score(line, tokenize(line));
        for (let i = 0; i < expected.length; i++) {
          const want = expected[i] as number;
          assert.ok(Math.abs((scores[i] as number) - want) < 1e-9, `pass ${pass}, ${line}: score ${i}`);
          const relative = Math.abs((exps[i] as number) / Math.exp(want) - 1);
          assert.ok(relative < 1e-12, `pass ${pass}, ${line}: exp ${i}`);
        }
      }
  });
}

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { AddressTagger } from "../../src/parse/model/address-tagger.js";
import { emissions, featureSequence } from "../../src/parse/crf/crf.js";
import { FeatureDictionary } from "../../src/parse/crf/feature-dictionary.js";
import { decodeModel, type StoredModel } from "../../src/parse/crf/model-file.js";
import { EmissionScorer, exponentials } from "../../src/parse/model/emission-scorer.js";
import { FeatureExtractor, type FeatureConfig } from "../../src/parse/model/features.js";
import { nationalGazetteer } from "../../src/places/gazetteer.js";
import { KnownWords } from "../../src/parse/model/known-words.js";
import { DEFAULT_MODEL_FILE } from "../../src/parse/model/model-parser.js";
import { tokenize } from "../../src/parse/tokenize.js";
import { ViterbiDecoder } from "../../src/parse/crf/viterbi.js";
import { generateLines, worstCaseLines } from "../../tools/parser/address-lines.js";
import { generateSynthetic } from "../../tools/parser/synthetic-addresses.js";
import { trainModel } from "../../tools/parser/model-training.js";
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
  "115 115 ST 1990 60601 00000 1234567890123",
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
    // As the tagger builds it: numbers the model does not know by name share a description.
    const scorer = new EmissionScorer(
      new FeatureExtractor(config, nationalGazetteer().placeWords(), new KnownWords(model.featureKeys)),
      new FeatureDictionary(model.featureKeys),
      model.weights,
    );
    // Twice over: the second pass reads the cached vectors.
    for (const pass of [1, 2])
      for (const line of lines) {
        const expected = naiveEmissions(model, oracle, line);
        const exps = scorer.score(line, tokenize(line));
        const scores = scorer.logScores();
        for (let i = 0; i < expected.length; i++) {
          const want = expected[i] as number;
          assert.ok(Math.abs((scores[i] as number) - want) < 1e-9, `pass ${pass}, ${line}: score ${i}`);
          // Products of six exponentials kept as 32-bit floats (a relative 6e-8 each).
          const relative = Math.abs((exps[i] as number) / Math.exp(want) - 1);
          assert.ok(relative < 1e-6, `pass ${pass}, ${line}: exp ${i}`);
        }
      }
  });
}

test("the tagger decodes from log-space scores a line whose exponentials a double cannot hold", () => {
  // The tiny model with its state weights a thousand times larger: its emission products
  // overflow (or underflow) on every line, so the tagger must take the log-space path.
  const tiny = tinyModel();
  const huge: StoredModel = {
    ...tiny,
    weights: { ...tiny.weights, state: Float64Array.from(tiny.weights.state, (w) => w * 1000) },
  };
  const tagger = new AddressTagger(huge);
  const oracle = new FeatureExtractor(huge.header.features as unknown as FeatureConfig);
  const viterbi = new ViterbiDecoder();
  for (const line of lines.slice(0, 40)) {
    const tokens = tokenize(line);
    if (tokens.length === 0) continue;
    const exps = tagger.scorer.score(line, tokens);
    assert.equal(tagger.decoder.decodeExp(exps, tokens.length), undefined, line);
    const expected = viterbi.decode(huge.weights, naiveEmissions(huge, oracle, line), tokens.length);
    const tagged = tagger.tag(line, tokens);
    assert.deepEqual(
      tagged.labels,
      Array.from(expected, (y) => huge.header.labels[y]),
      line,
    );
    assert.ok(tagged.sequenceProbability >= 0 && tagged.sequenceProbability <= 1, line);
  }
});

test("a score past ±80 is kept as NaN among a word's 32-bit exponentials", () => {
  const kept = exponentials(Float64Array.from([0, 2, -79, 79, 81, -81, 100, -200]));
  assert.equal(kept[0], 1);
  assert.ok(Math.abs((kept[1] as number) / Math.exp(2) - 1) < 1e-7);
  assert.ok(Math.abs((kept[2] as number) / Math.exp(-79) - 1) < 1e-6);
  assert.ok(Math.abs((kept[3] as number) / Math.exp(79) - 1) < 1e-7);
  assert.ok(Array.from(kept.subarray(4)).every(Number.isNaN));
});

test("scores whose exponentials a 32-bit float cannot hold, though a double can, decode from log-space scores", () => {
  // Weights scaled so the largest is 120: word vectors then hold scores past ±80 (kept as NaN
  // among the 32-bit exponentials), while the emission products would fit a double.
  const tiny = tinyModel();
  let largest = 0;
  for (const w of tiny.weights.state) largest = Math.max(largest, Math.abs(w));
  const scaled: StoredModel = {
    ...tiny,
    weights: { ...tiny.weights, state: Float64Array.from(tiny.weights.state, (w) => (w * 120) / largest) },
  };
  const tagger = new AddressTagger(scaled);
  const oracle = new FeatureExtractor(scaled.header.features as unknown as FeatureConfig);
  const viterbi = new ViterbiDecoder();
  const L = scaled.weights.labelCount;
  let kept = 0;
  for (const line of lines.slice(0, 60)) {
    const tokens = tokenize(line);
    if (tokens.length === 0) continue;
    const exps = tagger.scorer.score(line, tokens).subarray(0, tokens.length * L);
    if (exps.some(Number.isNaN)) {
      kept++;
      assert.equal(tagger.decoder.decodeExp(exps, tokens.length), undefined, line);
    }
    const emit = naiveEmissions(scaled, oracle, line);
    const expected = viterbi.decode(scaled.weights, emit, tokens.length);
    const tagged = tagger.tag(line, tokens);
    assert.deepEqual(
      tagged.labels,
      Array.from(expected, (y) => scaled.header.labels[y]),
      line,
    );
    const exact = tagger.decoder.decode(emit, tokens.length);
    const probability = Math.min(1, Math.exp(exact.score - exact.logZ));
    assert.ok(Math.abs(tagged.sequenceProbability - probability) < 1e-9, line);
  }
  assert.ok(kept > 0, "no line held a score past the 32-bit range");
});

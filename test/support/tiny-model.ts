import type { StoredModel } from "../../src/parse/crf/model-file.js";
import { trainModel } from "../../tools/parser/model-training.js";
import { generateSynthetic } from "../../tools/parser/synthetic-addresses.js";

let cached: StoredModel | undefined;

/** A small CRF trained on synthetic lines in well under a second: for tests, never shipped. */
export function tinyModel(): StoredModel {
  cached ??= trainModel(
    generateSynthetic(150, 7).map((line) => ({ line, weight: 1 })),
    { l2: 1, maxIterations: 25, minFeatureCount: 1, commonWordCount: 3, ruleLabels: false },
    { purpose: "tests" },
  );
  return cached;
}

import assert from "node:assert/strict";
import { test } from "node:test";
import { FeatureDictionary } from "../../src/parse/crf/feature-dictionary.js";
import { featureKey } from "../../src/parse/feature-keys.js";
import { FeatureExtractor, TEMPLATES_VERSION } from "../../src/parse/features.js";
import { tokenize } from "../../src/parse/tokenize.js";
import { WORD_CLASS, wordClasses } from "../../src/parse/word-classes.js";
import { generateSynthetic } from "../../tools/synthetic-addresses.js";

test("the feature dictionary maps every stored key to its id and unknown keys to -1", () => {
  const keys = Array.from({ length: 5000 }, (_, i) => featureKey(7, i));
  const dictionary = new FeatureDictionary(keys);
  keys.forEach((key, id) => assert.equal(dictionary.get(key), id));
  assert.equal(dictionary.get(featureKey(8, 1)), -1);
  assert.ok(keys.every((key) => key !== 0));
});

test("feature extraction is deterministic and sees a word's neighbours", () => {
  const extractor = new FeatureExtractor({ templatesVersion: TEMPLATES_VERSION, commonWords: [] });
  const keysOf = (line: string) => {
    const features = extractor.extract(line, tokenize(line));
    return Array.from({ length: features.length }, (_, t) =>
      Array.from(features.keys.slice(features.offsets[t], features.offsets[t + 1])),
    );
  };
  const line = "123 N Main St, Springfield, IL 62701";
  assert.deepEqual(keysOf(line), keysOf(line));
  const [number] = keysOf(line);
  const [other] = keysOf("123 S Main St, Springfield, IL 62701");
  assert.notDeepEqual(number, other, "the next word's identity is a feature of 123");
  assert.throws(() => new FeatureExtractor({ templatesVersion: 999, commonWords: [] }), /not supported/);
  assert.throws(
    () => new FeatureExtractor({ templatesVersion: 1, commonWords: [], ruleLabels: true }),
    /need templates version 2/,
  );
  assert.deepEqual(
    keysOf(line),
    (() => {
      const v1 = new FeatureExtractor({ templatesVersion: 1, commonWords: [] });
      const features = v1.extract(line, tokenize(line));
      return Array.from({ length: features.length }, (_, t) =>
        Array.from(features.keys.slice(features.offsets[t], features.offsets[t + 1])),
      );
    })(),
    "version 2 without rule labels lists what version 1 lists",
  );
  const stacked = new FeatureExtractor({ templatesVersion: 2, commonWords: [], ruleLabels: true });
  const features = stacked.extract(line, tokenize(line));
  assert.ok(features.offsets[1]! - features.offsets[0]! > number!.length, "rule labels add features");
});

test("word classes come from the Publication 28 tables", () => {
  assert.ok(wordClasses("AVENUE") & WORD_CLASS.suffix);
  assert.ok(wordClasses("AVE") & WORD_CLASS.standardSuffix);
  assert.ok(wordClasses("NORTHWEST") & WORD_CLASS.directional);
  assert.ok(wordClasses("APARTMENT") & WORD_CLASS.unitDesignator);
  assert.ok(wordClasses("CALIFORNIA") & WORD_CLASS.state);
  assert.ok(wordClasses("CALLE") & WORD_CLASS.spanishPrefix);
  assert.ok(wordClasses("22ND") & WORD_CLASS.ordinal);
  assert.equal(wordClasses("SPRINGFIELD") & WORD_CLASS.suffix, 0);
});

test("the synthetic generator is deterministic and renders every address type", () => {
  const lines = generateSynthetic(400, 11);
  assert.deepEqual(
    generateSynthetic(50, 11).map((line) => line.input),
    lines.slice(0, 50).map((line) => line.input),
  );
  const labels = new Set(lines.flatMap((line) => line.labels));
  for (const label of [
    "poBoxType",
    "ruralRouteType",
    "generalDelivery",
    "urbanization",
    "intersection",
    "firm",
    "occupancyId",
    "zip4",
  ] as const) {
    assert.ok(labels.has(label), `no ${label} in 400 synthetic lines`);
  }
  for (const line of lines) assert.equal(line.labels.length, line.tokens.length);
});

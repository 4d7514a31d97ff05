import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { FeatureDictionary } from "../../src/parse/crf/feature-dictionary.js";
import { decodeModel } from "../../src/parse/crf/model-file.js";
import { featureKey, featureValues, hashString, TEMPLATE } from "../../src/parse/model/feature-keys.js";
import { FeatureExtractor, TEMPLATES_VERSION, type FeatureConfig } from "../../src/parse/model/features.js";
import { nationalGazetteer } from "../../src/places/gazetteer.js";
import { KnownWords } from "../../src/parse/model/known-words.js";
import { DEFAULT_MODEL_FILE } from "../../src/parse/model/model-parser.js";
import { SeededRandom } from "../../tools/seeded-random.js";
import { tokenize } from "../../src/parse/tokenize.js";
import { WORD_CLASS, wordClasses } from "../../src/parse/vocabulary/word-classes.js";
import { generateSynthetic } from "../../tools/parser/synthetic-addresses.js";

test("the feature dictionary maps every stored key to its id and unknown keys to -1", () => {
  const keys = Array.from({ length: 5000 }, (_, i) => featureKey(7, i));
  const dictionary = new FeatureDictionary(keys);
  keys.forEach((key, id) => assert.equal(dictionary.get(key), id));
  assert.equal(dictionary.get(featureKey(8, 1)), -1);
  assert.ok(keys.every((key) => key !== 0));
});

test("a key's values under its template are found again from the key (featureValues)", () => {
  const random = new SeededRandom(4);
  const values = [
    0,
    1,
    0xffffffff,
    hashString("MAIN"),
    ...Array.from({ length: 500 }, () => random.int(0, 2 ** 32 - 1)),
  ];
  for (const template of Object.values(TEMPLATE))
    for (const value of values) {
      const key = featureKey(template, value);
      assert.ok(featureValues(template, key).includes(value >>> 0), `template ${template}, value ${value}`);
    }
  // The one mix featureKey maps to 1 instead of 0: key 1 stands for it too.
  const zeroMix = Math.imul(TEMPLATE.word, 0x9e3779b1) >>> 0;
  assert.equal(featureKey(TEMPLATE.word, zeroMix), 1);
  assert.ok(featureValues(TEMPLATE.word, 1).includes(zeroMix));
});

test("KnownWords may know every word a feature names, and knows few others", () => {
  const words = ["MAIN", "1", "100", "SPRINGFIELD", "60601"];
  const named = (template: number, word: string) => featureKey(template, hashString(word));
  const keys = [
    named(TEMPLATE.word, "MAIN"),
    featureKey(TEMPLATE.wordBoundaryAfter, hashString("1") ^ 1),
    named(TEMPLATE.neighbourWord + 3, "100"),
    named(TEMPLATE.neighbourWord, "SPRINGFIELD"),
    named(TEMPLATE.neighbourWord + 1, "60601"),
    featureKey(TEMPLATE.shape, 12345),
  ];
  const known = new KnownWords(keys);
  for (const word of words) assert.ok(known.mayKnow(hashString(word)), word);
  const others = Array.from({ length: 2000 }, (_, i) => String(10_000 + i));
  const alarms = others.filter((word) => known.mayKnow(hashString(word))).length;
  assert.ok(alarms < 20, `${alarms} of 2,000 unnamed numbers may be known`);
});

test("no word class holds a bare number, and the gazetteer knows its number city words and ZIPs", () => {
  // FeatureExtractor's shared descriptions rest on this: no word class holds a bare number,
  // only the few city words the gazetteer lists hold one, and ZIPs are told apart.
  for (let length = 1; length <= 5; length++)
    for (let value = 0; value < 10 ** length; value++)
      assert.equal(wordClasses(String(value).padStart(length, "0")), 0);
  const gazetteer = nationalGazetteer().placeWords();
  assert.ok(gazetteer.numberCityWords.has("115"));
  assert.ok([...gazetteer.numberCityWords].every((word) => /^[0-9]+$/.test(word)));
  assert.ok(gazetteer.isZip("60601") && gazetteer.isZip("00501"));
  assert.ok(!gazetteer.isZip("00000") && !gazetteer.isZip("6060") && !gazetteer.isZip("6060A"));
  assert.ok(!gazetteer.isZip("606011") && !gazetteer.isZip(""));
});

test("numbers the model does not know by name share one description and keep their own hash", () => {
  const model = decodeModel(readFileSync(DEFAULT_MODEL_FILE));
  const config = model.header.features as unknown as FeatureConfig;
  const gazetteer = nationalGazetteer().placeWords();
  const known = new KnownWords(model.featureKeys);
  const unnamed = (from: number, length: number, zip: boolean) => {
    const found: string[] = [];
    for (let value = from; found.length < 2; value++) {
      const text = String(value).padStart(length, "0");
      if (gazetteer.isZip(text) === zip && !known.mayKnow(hashString(text))) found.push(text);
    }
    return found as [string, string];
  };
  const [a, b] = unnamed(10_000, 5, false);
  const [zip] = unnamed(60_601, 5, true);
  const [c, d] = unnamed(100, 3, false);
  const line = `${a} ${b} ${zip} ${c} ${d} 1 MAIN ST`;
  const tokens = tokenize(line);
  const shared = new FeatureExtractor(config, gazetteer, known).analyze(line, tokens);
  const infos = shared.infos.slice(0, 6);
  assert.equal(infos[0], infos[1], `${a} and ${b}`);
  assert.equal(infos[3], infos[4], `${c} and ${d}`);
  assert.notEqual(infos[0], infos[2], "a ZIP has a description of its own");
  assert.notEqual(infos[0], infos[3], "so has each length");
  assert.ok(known.mayKnow(hashString("1")));
  assert.equal(infos[5]?.text, "1", "a number the model may know keeps its own");
  const words = Array.from(shared.words.subarray(0, 6));
  assert.deepEqual(
    words,
    [a, b, zip, c, d, "1"].map((text) => hashString(text) | 0),
  );
  const own = new FeatureExtractor(config, gazetteer).analyze(line, tokens);
  assert.notEqual(own.infos[0], own.infos[1], "without KnownWords every word has its own");
});

test("the gazetteer's trie of city names walks a name word by word", () => {
  const gazetteer = nationalGazetteer().placeWords();
  const york = gazetteer.namesStartingWith("NEW")?.next?.get("YORK");
  assert.equal(gazetteer.namesStartingWith("NEW")?.isName, false);
  assert.equal(york?.isName, true);
  assert.equal(york?.next?.get("MILLS")?.isName, true);
  assert.equal(gazetteer.namesStartingWith("QQXZY"), undefined);
  assert.ok(gazetteer.isCityName("NEW YORK MILLS") && !gazetteer.isCityName("NEW"));
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

import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { AddressTagger } from "../../src/parse/model/address-tagger.js";
import { encodeModel } from "../../src/parse/crf/model-file.js";
import { loadModelFile, ModelParser, type Tagger } from "../../src/parse/model/model-parser.js";
import { RuleParser } from "../../src/parse/rule-parser.js";
import { tokenize } from "../../src/parse/tokenize.js";
import { tinyModel } from "../support/tiny-model.js";

const rules = new RuleParser();
const LINE = "123 Main St, Springfield, IL 62701";
const directory = mkdtempSync(join(tmpdir(), "situs-model-"));

function modelFile(name: string, bytes: Buffer): string {
  const path = join(directory, name);
  writeFileSync(path, bytes);
  return path;
}

function codes(answer: { warnings: Array<{ code: string }> }): string[] {
  return answer.warnings.map((warning) => warning.code);
}

test("with a model file the model answers: backend model, name situs-crf, version 0.3.0", () => {
  const parser = new ModelParser(rules, loadModelFile(modelFile("good.bin", encodeModel(tinyModel()))));
  const answer = parser.parse(LINE);
  assert.deepEqual(answer.model, { name: "situs-crf", version: "0.3.0", backend: "model" });
  assert.equal(answer.components.addressNumber, "123");
  assert.equal(answer.components.zip5, "62701");
  assert.ok(answer.confidence > 0 && answer.confidence <= 1);
  assert.ok(!codes(answer).includes("model_unavailable"));
});

for (const [fault, bytes] of [
  ["missing", undefined],
  [
    "of an unknown format version",
    (() => {
      const b = encodeModel(tinyModel());
      b.writeUInt32LE(99, 8);
      return b;
    })(),
  ],
  [
    "corrupt",
    (() => {
      const b = encodeModel(tinyModel());
      b[b.length - 1] = (b[b.length - 1] ?? 0) ^ 0x55;
      return b;
    })(),
  ],
] as const) {
  test(`a model file that is ${fault}: the rules answer with backend heuristic and model_unavailable`, () => {
    const path = bytes === undefined ? join(directory, "absent.bin") : modelFile(`${fault}.bin`, bytes);
    const parser = new ModelParser(rules, loadModelFile(path));
    assert.ok(parser.unavailableReason !== undefined);
    const answer = parser.parse(LINE);
    assert.equal(answer.model.backend, "heuristic");
    assert.ok(codes(answer).includes("model_unavailable"));
    assert.deepEqual(answer.components, rules.parse(LINE).components);
  });
}

function fakeTagger(tag: Tagger["tag"], calibration?: Tagger["info"]["calibration"]): () => Tagger {
  return () => ({
    info: { name: "situs-crf", version: "0.1.0", ...(calibration ? { calibration } : {}) },
    tag,
  });
}

test("inference that throws: the rules answer with model_unavailable", () => {
  const parser = new ModelParser(
    rules,
    fakeTagger(() => {
      throw new Error("injected");
    }),
  );
  const answer = parser.parse(LINE);
  assert.equal(answer.model.backend, "heuristic");
  assert.ok(codes(answer).includes("model_unavailable"));
});

test("labels that make no consistent address: the rules' parse with model_output_invalid", () => {
  const parser = new ModelParser(
    rules,
    fakeTagger((_, tokens) => ({
      labels: tokens.map(() => "addressNumber" as const).map((l, i) => (i === 1 ? "streetName" : l)),
      sequenceProbability: 0.9,
    })),
  );
  const answer = parser.parse(LINE);
  assert.equal(answer.model.backend, "heuristic");
  assert.ok(codes(answer).includes("model_output_invalid"));
  assert.deepEqual(answer.components, rules.parse(LINE).components);
  // However sure the rules are of the line, a line the model could not read is a hard one.
  assert.ok(rules.parse(LINE).confidence >= 0.9);
  assert.equal(answer.confidence, 0.5);
  assert.ok(codes(answer).includes("low_confidence"));
});

test("the tagger labels every token and its sequence probability is a probability", () => {
  const tagger = new AddressTagger(tinyModel());
  const tokens = tokenize(LINE);
  const tagged = tagger.tag(LINE, tokens);
  assert.equal(tagged.labels.length, tokens.length);
  assert.ok(tagged.sequenceProbability > 0 && tagged.sequenceProbability <= 1);
  assert.deepEqual(tagger.tag("", []), { labels: [], sequenceProbability: 1 });
});

/** A tagger that gives the rules' labels with the probability asked for. */
function taggerSure(probability: number, calibration?: Tagger["info"]["calibration"]): () => Tagger {
  return fakeTagger(
    (_, tokens) => ({ labels: rules.label([...tokens]).labels, sequenceProbability: probability }),
    calibration,
  );
}

/** A tagger that labels the street suffix `other`, with the probability asked for. */
function taggerOther(probability: number, calibration?: Tagger["info"]["calibration"]): () => Tagger {
  return fakeTagger(
    (_, tokens) => ({
      labels: rules.label([...tokens]).labels.map((label) => (label === "streetSuffix" ? "other" : label)),
      sequenceProbability: probability,
    }),
    calibration,
  );
}

test("back-off: a model unsure of its labels gives way to rules that are sure of other labels, with the model's doubt", () => {
  const ruled = rules.parse(LINE);
  assert.ok(ruled.confidence >= 0.9, "the rules are sure of the test line");
  const unsure = new ModelParser(rules, taggerOther(0.5)).parse(LINE);
  assert.deepEqual(unsure.components, ruled.components);
  assert.deepEqual(unsure.lines, ruled.lines);
  assert.equal(unsure.model.backend, "heuristic");
  assert.equal(unsure.confidence, 0.5);
  assert.deepEqual(codes(unsure), [...codes(ruled), "low_confidence"]);
  const sure = new ModelParser(rules, taggerOther(0.85)).parse(LINE);
  assert.equal(sure.model.backend, "model");
  assert.equal(sure.components.streetSuffix, undefined);
  assert.equal(sure.components.other, "ST");
  assert.equal(sure.confidence, 0.85);
});

test("back-off: an answer of the rules that raises no warning takes the back-off exponent", () => {
  const calibration = { exponent: 2, agreementExponent: 0.3, backOffExponent: 0.5 };
  const clean = new ModelParser(rules, taggerOther(0.49, calibration)).parse(LINE);
  assert.equal(clean.model.backend, "heuristic");
  assert.deepEqual(clean.components, rules.parse(LINE).components);
  assert.equal(clean.confidence, 0.7);
  assert.deepEqual(codes(clean), []);
  // An answer with a warning (no ZIP) keeps the model's plain doubt: such answers are right less often.
  const line = "123 Main St Springfield IL";
  assert.deepEqual(codes(rules.parse(line)), ["missing_zip"]);
  const warned = new ModelParser(rules, taggerOther(0.49, calibration)).parse(line);
  assert.equal(warned.model.backend, "heuristic");
  assert.equal(warned.confidence, 0.24);
  assert.deepEqual(codes(warned), ["missing_zip", "low_confidence"]);
});

test("agreement: an unsure model whose labels the rules share answers with the agreement exponent", () => {
  const calibration = { exponent: 2, agreementExponent: 0.5 };
  const agreed = new ModelParser(rules, taggerSure(0.49, calibration)).parse(LINE);
  assert.equal(agreed.model.backend, "model");
  assert.equal(agreed.confidence, 0.7);
  assert.ok(!codes(agreed).includes("low_confidence"));
  // Sure lines are not compared with the rules: the plain exponent, agreeing or not.
  const sure = new ModelParser(rules, taggerSure(0.9, calibration)).parse(LINE);
  assert.equal(sure.confidence, 0.81);
  // Without back-off the rules are not asked.
  const alone = new ModelParser(rules, taggerSure(0.49, calibration), { backOff: false }).parse(LINE);
  assert.equal(alone.confidence, 0.24); // 0.49² to the answer's three decimals
  assert.ok(codes(alone).includes("low_confidence"));
  // A model file without an agreement exponent keeps its plain calibration.
  const plain = new ModelParser(rules, taggerSure(0.49, { exponent: 2 })).parse(LINE);
  assert.equal(plain.confidence, 0.24);
});

test("agreement: labels that differ but read as the same address are agreement, not back-off", () => {
  // `MAIN ST` labelled all street name reads as name and suffix (street-labels.ts), as the rules label it.
  const named = fakeTagger(
    (_, tokens) => ({
      labels: rules
        .label([...tokens])
        .labels.map((label) => (label === "streetSuffix" ? "streetName" : label)),
      sequenceProbability: 0.49,
    }),
    { exponent: 2, agreementExponent: 0.5 },
  );
  const answer = new ModelParser(rules, named).parse(LINE);
  assert.equal(answer.model.backend, "model");
  assert.deepEqual(answer.components, rules.parse(LINE).components);
  assert.equal(answer.confidence, 0.7);
  assert.ok(!codes(answer).includes("low_confidence"));
});

test("back-off: where the rules are unsure too, the model answers, its confidence capped at 0.5", () => {
  const line = "157 Maple FALLS Anytown CA 90210";
  assert.ok(rules.parse(line).confidence < 0.9, "the rules are unsure of this line");
  const answer = new ModelParser(rules, taggerOther(0.4)).parse(line);
  assert.equal(answer.model.backend, "model");
  assert.equal(answer.components.other, "FALLS");
  assert.equal(answer.confidence, 0.4);
  assert.ok(codes(answer).includes("low_confidence"));
  // Just short of sure, the model alone would claim 0.79: two readings, neither sure, say less.
  const nearlySure = new ModelParser(rules, taggerOther(0.79)).parse(line);
  assert.equal(nearlySure.model.backend, "model");
  assert.equal(nearlySure.confidence, 0.5);
  assert.ok(codes(nearlySure).includes("low_confidence"));
});

test("a foreign line is the rules' to answer, however sure the model is", () => {
  const line = "10 Downing St, London SW1A 2AA, United Kingdom";
  const answer = new ModelParser(rules, taggerSure(0.99)).parse(line);
  assert.deepEqual(answer, rules.parse(line));
  assert.ok(codes(answer).includes("possibly_foreign"));
});

test("a foreign line goes to the rules before its labels are checked: no model_output_invalid", () => {
  const line = "221B Baker Street London NW1 6XE UK";
  const inconsistent = fakeTagger((_, tokens) => ({
    labels: tokens.map((_, i) => (i % 2 === 0 ? "addressNumber" : "zip5")),
    sequenceProbability: 0.9,
  }));
  const answer = new ModelParser(rules, inconsistent).parse(line);
  assert.deepEqual(answer, rules.parse(line));
  assert.ok(!codes(answer).includes("model_output_invalid"));
});

test("the gazetteer settles the model's directional between street and city", () => {
  const line = "123 Main St North Springfield IL";
  const cityFirst = fakeTagger(() => ({
    labels: ["addressNumber", "streetName", "streetSuffix", "city", "city", "state"],
    sequenceProbability: 0.99,
  }));
  const answer = new ModelParser(rules, cityFirst).parse(line);
  assert.equal(answer.model.backend, "model");
  assert.equal(answer.components.postdirectional, "N");
  assert.equal(answer.components.city, "SPRINGFIELD");
  assert.deepEqual(answer.lines, ["123 MAIN ST N", "SPRINGFIELD IL"]);
});

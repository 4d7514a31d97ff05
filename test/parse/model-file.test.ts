import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { decodeModel, encodeModel, ModelFileError } from "../../src/parse/crf/model-file.js";
import { DEFAULT_MODEL_FILE } from "../../src/parse/model/model-parser.js";
import { CALIBRATION } from "../../tools/parser/model-training.js";
import { tinyModel } from "../support/tiny-model.js";

test("a model survives encode and decode: header, dictionary and float32 weights", () => {
  const model = tinyModel();
  const decoded = decodeModel(encodeModel(model));
  assert.equal(decoded.header.formatVersion, 1);
  assert.equal(decoded.header.name, "situs-crf");
  assert.deepEqual(decoded.header.labels, model.header.labels);
  assert.deepEqual(decoded.header.features, model.header.features);
  assert.deepEqual(Array.from(decoded.featureKeys), Array.from(model.featureKeys));
  assert.deepEqual(Array.from(decoded.weights.state), Array.from(model.weights.state));
  assert.deepEqual(Array.from(decoded.weights.transition), Array.from(model.weights.transition));
});

test("the shipped model carries the calibration the cross-validation fitted: all three powers", () => {
  const { header } = decodeModel(readFileSync(DEFAULT_MODEL_FILE));
  assert.deepEqual(header.calibration, CALIBRATION);
});

test("encoding is deterministic: the same model gives the same bytes", () => {
  assert.ok(encodeModel(tinyModel()).equals(encodeModel(tinyModel())));
});

test("the loader refuses a wrong magic, an unknown format version, a corrupt body and a truncated file", () => {
  const bytes = encodeModel(tinyModel());
  const badMagic = Buffer.from(bytes);
  badMagic.write("NOTAMODL", 0, "latin1");
  assert.throws(() => decodeModel(badMagic), ModelFileError);
  const future = Buffer.from(bytes);
  future.writeUInt32LE(2, 8);
  assert.throws(() => decodeModel(future), /format version 2 is not supported/);
  const corrupt = Buffer.from(bytes);
  const last = corrupt.length - 3;
  corrupt[last] = (corrupt[last] ?? 0) ^ 0xff;
  assert.throws(() => decodeModel(corrupt), /checksum/);
  assert.throws(() => decodeModel(bytes.subarray(0, bytes.length - 8)), /wrong size/);
  assert.throws(() => decodeModel(Buffer.alloc(4)), ModelFileError);
});

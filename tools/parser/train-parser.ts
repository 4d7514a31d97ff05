import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { encodeModel } from "../../src/parse/crf/model-file.js";
import { DEFAULT_MODEL_FILE } from "../../src/parse/model/model-parser.js";
import { CALIBRATION, DEFAULT_TRAINING, trainModel, type WeightedLine } from "./model-training.js";
import { generateSynthetic } from "./synthetic-addresses.js";
import {
  CORPUS_DIR,
  EXTRA_CORPORA,
  MAIN_CORPUS,
  OSM_CORPUS,
  corpusAvailable,
  lineKey,
  readMainCorpus,
  readTrainingExtras,
} from "./training-data.js";

/**
 * `npm run train`: rebuilds data/model/situs-crf.bin from the hand-labelled corpora and the
 * synthetic generator. Deterministic: same inputs, same seed, same bytes.
 */
export const TRAINING_SEED = 42;
export const SYNTHETIC_LINES = 4000;

function main(): void {
  if (!corpusAvailable()) {
    process.stderr.write(`train: needs ${CORPUS_DIR} (absent)\n`);
    process.exit(2);
  }
  const corpus = readMainCorpus();
  const { handLabelled: extras, openStreetMap: osm } = readTrainingExtras(new Set(corpus.map(lineKey)));
  const synthetic = generateSynthetic(SYNTHETIC_LINES, TRAINING_SEED);
  const data: WeightedLine[] = [...corpus, ...extras, ...osm, ...synthetic].map((line) => ({
    line,
    weight: 1,
  }));
  const log = (message: string) => process.stderr.write(`${message}\n`);
  log(
    `training on ${corpus.length} + ${extras.length} hand-labelled, ${osm.length} OpenStreetMap and ${synthetic.length} synthetic lines`,
  );
  const started = Date.now();
  const model = trainModel(
    data,
    { ...DEFAULT_TRAINING, log },
    {
      handLabelled: { [MAIN_CORPUS]: corpus.length, [EXTRA_CORPORA.join(" + ")]: extras.length },
      openStreetMap: { [OSM_CORPUS]: osm.length },
      synthetic: {
        lines: synthetic.length,
        seed: TRAINING_SEED,
        generator: "tools/parser/synthetic-addresses.ts",
      },
      gazetteer: "zipcodes 8.0.0 (npm)",
    },
  );
  const bytes = encodeModel({
    ...model,
    header: { ...model.header, calibration: CALIBRATION },
  });
  mkdirSync(dirname(DEFAULT_MODEL_FILE), { recursive: true });
  writeFileSync(DEFAULT_MODEL_FILE, bytes);
  log(
    `wrote ${DEFAULT_MODEL_FILE}: ${(bytes.length / 1e6).toFixed(2)} MB, ${model.weights.featureCount} features, ${String(model.header.training.iterations)} iterations, ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}

main();

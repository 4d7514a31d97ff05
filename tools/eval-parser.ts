import { parseArgs } from "node:util";
import { AddressTagger } from "../src/parse/address-tagger.js";
import { DEFAULT_TRAINING, trainModel, type WeightedLine } from "./model-training.js";
import { formatReport, Scoreboard } from "./parser-evaluation.js";
import { assignFolds, corpusAvailable, lineKey, readExtraCorpora, readMainCorpus } from "./training-data.js";
import { describeError } from "./parser-evaluation.js";
import { generateSynthetic } from "./synthetic-addresses.js";

/**
 * `npm run eval:parser -- --cv 5`: k-fold cross-validation on labeled.xml, parsing the raw
 * strings end to end (our tokenizer), scored on our labels (docs/parser-model.md, "Protocol").
 */
const { values } = parseArgs({
  options: {
    cv: { type: "string", default: "5" },
    seed: { type: "string", default: "42" },
    synthetic: { type: "string", default: "6000" },
    iterations: { type: "string", default: String(DEFAULT_TRAINING.maxIterations) },
    l2: { type: "string", default: String(DEFAULT_TRAINING.l2) },
    folds: { type: "string" },
    errors: { type: "boolean", default: false },
  },
});

if (!corpusAvailable()) {
  process.stderr.write("eval:parser needs ../shared/data/usaddress/training (absent)\n");
  process.exit(2);
}
const k = Number(values.cv);
const seed = Number(values.seed);
const corpus = readMainCorpus();
const folds = assignFolds(corpus.length, k, seed);
const testKeys = new Set(corpus.map(lineKey));
const extras = readExtraCorpora().filter((line) => !testKeys.has(lineKey(line)));
const synthetic = generateSynthetic(Number(values.synthetic), seed);
const options = { ...DEFAULT_TRAINING, maxIterations: Number(values.iterations), l2: Number(values.l2) };
const model = new Scoreboard();
const runFolds = values.folds === undefined ? k : Number(values.folds);
process.stderr.write(
  `${corpus.length} unique lines, ${k} folds; +${extras.length} extra hand-labelled, +${synthetic.length} synthetic in training folds\n`,
);
for (let fold = 0; fold < runFolds; fold++) {
  const training: WeightedLine[] = [
    ...corpus.filter((_, i) => folds[i] !== fold).map((line) => ({ line, weight: 1 })),
    ...extras.map((line) => ({ line, weight: 1 })),
    ...synthetic.map((line) => ({ line, weight: 1 })),
  ];
  const started = Date.now();
  const stored = trainModel(training, options, {});
  const tagger = new AddressTagger(stored);
  const before = model.linesRight;
  let tested = 0;
  corpus.forEach((line, i) => {
    if (folds[i] !== fold) return;
    tested++;
    const tagged = tagger.tag(line.input, line.tokens);
    const right = model.add(line, { labels: tagged.labels, confidence: tagged.sequenceProbability });
    if (!right && values.errors) process.stderr.write(`${describeError(line, tagged.labels)}\n`);
  });
  process.stderr.write(
    `fold ${fold + 1}/${k}: trained in ${((Date.now() - started) / 1000).toFixed(0)} s (${stored.header.training.iterations} iterations, ${stored.weights.featureCount} features); ${model.linesRight - before}/${tested} right\n`,
  );
}
process.stdout.write(`${formatReport([["model", model]])}\n`);

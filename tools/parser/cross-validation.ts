import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { AddressTagger } from "../../src/parse/model/address-tagger.js";
import { assembledLabels, assemble } from "../../src/parse/assemble.js";
import {
  MODEL_UNSURE,
  ModelParser,
  modelReading,
  raisesNoWarning,
  sameComponents,
  sameLabels,
} from "../../src/parse/model/model-parser.js";
import { decodeModel, encodeModel } from "../../src/parse/crf/model-file.js";
import type { StoredModel } from "../../src/parse/crf/model-file.js";
import { RuleParser } from "../../src/parse/rule-parser.js";
import type { LabelledLine } from "./labelled-corpus.js";
import {
  CALIBRATION,
  DEFAULT_TRAINING,
  trainModel,
  type TrainingOptions,
  type WeightedLine,
} from "./model-training.js";
import {
  describeComponentDifferences,
  brierScore,
  describeError,
  entirelyRight,
  fitCalibrationExponent,
  formatReport,
  reliabilityTable,
  Scoreboard,
} from "./parser-evaluation.js";
import { generateSynthetic } from "./synthetic-addresses.js";
import { assignFolds, lineKey, readMainCorpus, readTrainingExtras } from "./training-data.js";

export interface CrossValidationOptions {
  k: number;
  seed: number;
  synthetic: number;
  syntheticWeight: number;
  /** Weight of each OpenStreetMap line in training (the hand-labelled ones weigh 1). */
  osmWeight: number;
  training: TrainingOptions;
  /** Run only the first n folds (quick experiments); all k by default. */
  folds?: number;
  /** Run only this fold (1-based), e.g. to train folds in parallel processes into `modelsDir`. */
  onlyFold?: number;
  /**
   * Fold models are read from this directory when there, trained and written there when not: a
   * change to assembly, back-off or the rules is then measured in seconds. A change to the
   * features, the training lines or the options needs an empty directory.
   */
  modelsDir?: string;
  showErrors?: boolean;
  log: (message: string) => void;
}

/**
 * k-fold cross-validation of the model backend on labeled.xml, the rule-based backend scored on
 * the same held-out lines (docs/parser-model.md "Protocol"). Synthetic, OpenStreetMap and extra
 * hand-labelled lines are added to every training fold, never to a test fold.
 */
export function crossValidate(options: CrossValidationOptions): string {
  const corpus = readMainCorpus();
  const folds = assignFolds(corpus.length, options.k, options.seed);
  const { handLabelled, openStreetMap } = readTrainingExtras(new Set(corpus.map(lineKey)));
  const extras = [
    ...handLabelled.map((line) => ({ line, weight: 1 })),
    ...openStreetMap.map((line) => ({ line, weight: options.osmWeight })),
  ];
  const synthetic = generateSynthetic(options.synthetic, options.seed);
  options.log(
    `${corpus.length} unique lines in ${options.k} folds; training folds add ${extras.length} extra labelled (hand-labelled and OpenStreetMap) and ${synthetic.length} synthetic lines`,
  );
  const rules = new RuleParser();
  const samples: CalibrationSample[] = [];
  const backOff: BackOffSample[] = [];
  const readings: Readings = { own: 0, either: 0, tagsRight: 0 };
  const boards: Array<[string, Scoreboard]> = [
    ["model (situs-crf)", new Scoreboard()],
    ["rules (situs-rules)", new Scoreboard()],
  ];
  const foldsRun =
    options.onlyFold !== undefined
      ? [options.onlyFold - 1]
      : Array.from({ length: options.folds ?? options.k }, (_, fold) => fold);
  for (const fold of foldsRun) {
    const started = Date.now();
    const stored = foldModel(fold, options, () => [
      ...corpus.filter((_, i) => folds[i] !== fold).map((line) => ({ line, weight: 1 })),
      ...extras,
      ...synthetic.map((line) => ({ line, weight: options.syntheticWeight })),
    ]);
    const tagger = new AddressTagger(stored);
    const parser = new ModelParser(rules, () => ({
      info: { name: "situs-crf", version: "cv", calibration: CALIBRATION },
      tag: (i, t) => tagger.tag(i, t),
    }));
    const held = corpus.filter((_, i) => folds[i] === fold);
    const before = boards[0]![1].linesRight;
    for (const line of held)
      scoreLine(
        line,
        parser,
        tagger,
        rules,
        boards,
        options.showErrors === true ? options.log : undefined,
        samples,
        backOff,
        readings,
      );
    options.log(
      `fold ${fold + 1}/${options.k}: ${stored.weights.featureCount} features, ${String(stored.header.training.iterations)} iterations, ${((Date.now() - started) / 1000).toFixed(0)} s; model ${boards[0]![1].linesRight - before}/${held.length} lines right`,
    );
  }
  const plain = samples.filter((sample) => !sample.agreed).map((s): [number, boolean] => [s.p, s.right]);
  const agreed = samples.filter((sample) => sample.agreed).map((s): [number, boolean] => [s.p, s.right]);
  const fit = fitCalibrationExponent(plain);
  const agreementFit = fitCalibrationExponent(agreed);
  const clean = backOff.filter((sample) => sample.clean).map((s): [number, boolean] => [s.p, s.right]);
  const backOffFit = fitCalibrationExponent(clean);
  const calibrated = samples.map((s): [number, boolean] => [
    s.p ** (s.agreed ? agreementFit.exponent : fit.exponent),
    s.right,
  ]);
  const rulesBoard = boards[1]![1];
  return [
    formatReport(boards),
    `answered by the rules instead of the model (foreign lines, back-off, invalid labels): ${backOff.length} lines, ${backOff.filter((s) => s.right).length} entirely right; raising no warning: ${clean.length} lines, ${clean.filter(([, right]) => right).length} entirely right`,
    `entirely right by the model's own labels (no fallback): ${readings.own}; by the rules: ${rulesBoard.linesRight}; by either: ${readings.either} of ${rulesBoard.lines} (${((100 * readings.either) / Math.max(1, rulesBoard.lines)).toFixed(1)}%, the most any choice between the two backends per line could reach)`,
    `the tagger's raw labels, before assembly's readings and any fallback, equal gold's on ${readings.tagsRight} of ${rulesBoard.tokens} tokens (${((100 * readings.tagsRight) / Math.max(1, rulesBoard.tokens)).toFixed(1)}%)`,
    "",
    reliabilityTable(
      "model, raw P(labels) before the type cap",
      samples.map((s) => [s.p, s.right]),
    ),
    reliabilityTable(
      `model unsure (P(labels) < ${MODEL_UNSURE}) and the rules reading it alike (labels or components), raw P(labels)`,
      agreed,
    ),
    "",
    `calibration: confidence = P(labels)^a, fitted a = ${fit.exponent} on ${plain.length} lines (Brier score ${fit.rawBrier.toFixed(4)} raw, ${fit.brier.toFixed(4)} calibrated)`,
    `  and P(labels)^b where the rules read alike, fitted b = ${agreementFit.exponent} on ${agreed.length} lines (Brier score ${agreementFit.rawBrier.toFixed(4)} raw, ${agreementFit.brier.toFixed(4)} calibrated)`,
    `  and P(labels)^c for answers of the rules raising no warning, fitted c = ${backOffFit.exponent} on ${clean.length} lines (Brier score ${backOffFit.rawBrier.toFixed(4)} raw, ${backOffFit.brier.toFixed(4)} calibrated)`,
    shippedPowers([plain, agreed, clean]),
    reliabilityTable(`model, P(labels)^${fit.exponent} or ^${agreementFit.exponent}`, calibrated),
  ].join("\n");
}

/** The Brier scores of the powers the model file carries (CALIBRATION), on the same lines as the fits. */
function shippedPowers([plain, agreed, clean]: ReadonlyArray<ReadonlyArray<[number, boolean]>>): string {
  const a = CALIBRATION.exponent;
  const b = CALIBRATION.agreementExponent ?? a;
  const c = CALIBRATION.backOffExponent ?? a;
  const score = (samples: ReadonlyArray<[number, boolean]>, power: number) =>
    brierScore(samples, power).toFixed(4);
  return `  the model file's powers a = ${a}, b = ${b}, c = ${c}: Brier scores ${score(plain!, a)}, ${score(agreed!, b)}, ${score(clean!, c)}`;
}

/** The model of one fold: trained on `training()`, or read from (and written to) `modelsDir`. */
function foldModel(
  fold: number,
  options: CrossValidationOptions,
  training: () => WeightedLine[],
): StoredModel {
  const file =
    options.modelsDir === undefined
      ? undefined
      : join(options.modelsDir, `fold-${fold + 1}-of-${options.k}.bin`);
  if (file !== undefined && existsSync(file)) {
    options.log(`fold ${fold + 1}/${options.k}: model read from ${file}, not trained`);
    return decodeModel(readFileSync(file));
  }
  // Scored as a model file holds it (32-bit weights), so a model read back scores the same.
  const bytes = encodeModel(trainModel(training(), options.training, {}));
  if (file !== undefined) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, bytes);
  }
  return decodeModel(bytes);
}

/**
 * Held-out lines entirely right by the model's labels assembled as they are, and by them or the
 * rules; tokens the tagger labelled as gold does.
 */
interface Readings {
  own: number;
  either: number;
  /** Tokens whose raw tag (before any reading or fallback) is the gold label. */
  tagsRight: number;
}

/** A held-out line the rules answered: P(labels), whether it was right, whether it raised no warning. */
interface BackOffSample {
  p: number;
  right: boolean;
  clean: boolean;
}

/** A model answer on a held-out line: P(labels), whether the rules confirmed it, whether it was right. */
interface CalibrationSample {
  p: number;
  agreed: boolean;
  right: boolean;
}

function scoreLine(
  line: LabelledLine,
  parser: ModelParser,
  tagger: AddressTagger,
  rules: RuleParser,
  boards: ReadonlyArray<[string, Scoreboard]>,
  log: ((message: string) => void) | undefined,
  samples: CalibrationSample[],
  backOff: BackOffSample[],
  readings: Readings,
): void {
  const gold = assemble({
    input: line.input,
    tokens: line.tokens,
    labels: line.labels,
    confidence: 1,
    model: rules.model,
  }).components;
  const answer = parser.parse(line.input);
  const tagged = tagger.tag(line.input, line.tokens);
  const modelLabels = modelReading(line.tokens, tagged.labels);
  const labelled = rules.label(line.tokens);
  const ruleLabels = labelled.labels;
  // Tokens are scored end to end: each token's component in the answer given (the model's, or
  // the rules' where they answered) against its component in the gold answer.
  const goldTokens = assembledLabels(line.tokens, line.labels);
  const answerLabels = answer.model.backend === "model" ? modelLabels : ruleLabels;
  const right = boards[0]![1].add(gold, goldTokens, {
    components: answer.components,
    labels: assembledLabels(line.tokens, answerLabels),
    confidence: answer.confidence,
  });
  line.labels.forEach((label, t) => {
    if (label === tagged.labels[t]) readings.tagsRight++;
  });
  if (!right && log) {
    log(describeError(line.input, line.tokens, line.labels, modelLabels));
    log(`    ${answer.model.backend}: ${describeComponentDifferences(gold, answer.components)}`);
  }
  const ruled = rules.answer(line.input, line.tokens, labelled);
  // Calibration is of the model's own answers; a back-off answer carries the rules' confidence.
  const p = tagged.sequenceProbability;
  if (answer.model.backend === "model")
    samples.push({
      p,
      agreed:
        p < MODEL_UNSURE &&
        (sameLabels(ruleLabels, modelLabels) || sameComponents(ruled.components, answer.components)),
      right,
    });
  else backOff.push({ p, right, clean: raisesNoWarning(answer) });
  const rulesRight = boards[1]![1].add(gold, goldTokens, {
    components: ruled.components,
    labels: assembledLabels(line.tokens, ruleLabels),
    confidence: ruled.confidence,
  });
  const own = assemble({
    input: line.input,
    tokens: line.tokens,
    labels: modelLabels,
    confidence: 1,
    model: rules.model,
  });
  const ownRight = entirelyRight(gold, own.components);
  if (ownRight) readings.own++;
  if (ownRight || rulesRight) readings.either++;
}

export const CV_DEFAULTS = {
  k: 5,
  seed: 42,
  synthetic: 4000,
  syntheticWeight: 1,
  osmWeight: 1,
  training: DEFAULT_TRAINING,
};

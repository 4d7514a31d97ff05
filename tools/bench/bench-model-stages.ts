/**
 * Where a model parse's time goes: each stage of ModelParser.parse timed alone over the 10,000
 * varied lines of `npm run bench:parser` (tools/parser/address-lines.ts), in µs of CPU a line, the
 * best of seven rounds. Each stage runs on inputs prepared beforehand (tokens, emissions,
 * labels). The tagger's figure includes the emission scores and the decoder, and the scores'
 * the line analysis; tokenizer, tagger, checks and assembly add up to about a parse without
 * back-off, which adds the rules' labelling (and assemblies) on the lines the model doubts.
 * Run: `npm run bench:model-stages`.
 */
import { readFileSync } from "node:fs";
import { assemble, labelProblem } from "../../src/parse/assemble.js";
import { foreignSpan } from "../../src/parse/assembly/foreign-signals.js";
import { decodeModel } from "../../src/parse/crf/model-file.js";
import { AddressTagger } from "../../src/parse/model/address-tagger.js";
import { DEFAULT_MODEL_FILE, MODEL_UNSURE } from "../../src/parse/model/model-parser.js";
import { RuleParser } from "../../src/parse/rule-parser.js";
import { tokenize } from "../../src/parse/tokenize.js";
import { generateLines } from "../parser/address-lines.js";

const stored = decodeModel(readFileSync(DEFAULT_MODEL_FILE));
const tagger = new AddressTagger(stored);
const { scorer, decoder } = tagger;
const extractor = scorer.extractor;
const rules = new RuleParser();

const lines = generateLines(10_000);
const tokens = lines.map((line) => tokenize(line));
const L = stored.weights.labelCount;
const emissions = lines.map((line, i) => scorer.score(line, tokens[i]!).slice(0, tokens[i]!.length * L));
const tagged = lines.map((line, i) => tagger.tag(line, tokens[i]!));
const model = { name: stored.header.name, version: stored.header.version, backend: "model" as const };

/** µs of CPU a line for one stage: best of seven rounds after three to warm up. */
function time(stage: (i: number) => unknown): number {
  const round = () => {
    const start = process.cpuUsage();
    for (let i = 0; i < lines.length; i++) stage(i);
    const used = process.cpuUsage(start);
    return (used.user + used.system) / lines.length;
  };
  for (let r = 0; r < 3; r++) round();
  return Math.min(...Array.from({ length: 7 }, round));
}

const unsure = tagged.filter((tags) => tags.sequenceProbability < MODEL_UNSURE).length;
const tokensPerLine = tokens.reduce((sum, line) => sum + line.length, 0) / lines.length;
const stages: Array<[string, (i: number) => unknown]> = [
  ["tokenize", (i) => tokenize(lines[i]!)],
  ["line analysis (words, cities, places)", (i) => extractor.analyze(lines[i]!, tokens[i]!)],
  ["emission scores (analysis included)", (i) => scorer.score(lines[i]!, tokens[i]!)],
  ["decoder (Viterbi and forward pass)", (i) => decoder.decodeExp(emissions[i]!, tokens[i]!.length)],
  ["tagger (scores, decoder, labels)", (i) => tagger.tag(lines[i]!, tokens[i]!)],
  ["foreign check", (i) => foreignSpan(tokens[i]!, tagged[i]!.labels)],
  ["label check", (i) => labelProblem(tokens[i]!, tagged[i]!.labels)],
  [
    "assembly",
    (i) =>
      assemble({ input: lines[i]!, tokens: tokens[i]!, labels: tagged[i]!.labels, confidence: 0.9, model }),
  ],
  ["rules' labelling (back-off)", (i) => rules.label(tokens[i]!)],
];
const report = [
  `node ${process.version}, one core, ${lines.length} varied lines, ${tokensPerLine.toFixed(1)} tokens a line; ` +
    `${((100 * unsure) / lines.length).toFixed(1)}% of them below P = ${MODEL_UNSURE} (back-off asks the rules)`,
  "µs of CPU a line, best of 7 rounds:",
  ...stages.map(([name, stage]) => `  ${name.padEnd(40)} ${time(stage).toFixed(2)}`),
];
process.stdout.write(`${report.join("\n")}\n`);

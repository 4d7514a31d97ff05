/**
 * Scores the rule-based parser against a hand-labelled corpus in the usaddress XML format
 * (default: ../shared/data/usaddress/training/labeled.xml). Gold components are the corpus
 * labels (mapped as ../shared/data/README.md says) run through the same assembly as the parser,
 * so both sides are standardized alike. Prints the share of addresses with every component right,
 * per-component precision and recall, token label accuracy and the worst confusions.
 *
 * Run: `npm run eval:parser [-- FILE] [--show N]`; `-- --parcels FILE` scores county situs files
 * instead (tools/parser/eval-parcel-addresses.ts).
 * With `--cv K`: K-fold cross-validation of the model backend beside the rules
 * (tools/parser/cross-validation.ts, docs/parser-model.md "Evaluation protocol").
 */
import { existsSync } from "node:fs";
import { assembledLabels, assemble } from "../../src/parse/assemble.js";
import { readLabelledCorpus } from "../../src/parse/corpus/read-labelled-corpus.js";
import type { LabelledAddress } from "../../src/parse/corpus/read-labelled-corpus.js";
import { alignLabels, toServiceLabels } from "../../src/parse/corpus/usaddress-labels.js";
import type { Components, StringComponent } from "../../src/parse/parse-answer.js";
import { RuleParser } from "../../src/parse/rule-parser.js";
import { tokenize } from "../../src/parse/tokenize.js";
import { projectPath } from "../../src/paths.js";
import { crossValidate, CV_DEFAULTS } from "./cross-validation.js";
import { evaluateParcels } from "./eval-parcel-addresses.js";
import { SCORED } from "./parser-evaluation.js";
import { corpusAvailable } from "./training-data.js";

interface Tally {
  predicted: number;
  gold: number;
  right: number;
}

export interface Evaluation {
  addresses: number;
  exact: number;
  tokens: number;
  tokensRight: number;
  perComponent: Map<StringComponent, Tally>;
  confusions: Map<string, number>;
  /** Per confidence band (lower bound): addresses, and how many had every component right. */
  bands: Map<number, { addresses: number; exact: number }>;
  failures: Array<{ raw: string; gold: Components; predicted: Components }>;
}

export function evaluate(path: string): Evaluation {
  const parser = new RuleParser();
  const result: Evaluation = {
    addresses: 0,
    exact: 0,
    tokens: 0,
    tokensRight: 0,
    perComponent: new Map(SCORED.map((name) => [name, { predicted: 0, gold: 0, right: 0 }])),
    confusions: new Map(),
    bands: new Map(BANDS.map((band) => [band, { addresses: 0, exact: 0 }])),
    failures: [],
  };
  for (const address of readLabelledCorpus(path)) score(parser, address, result);
  return result;
}

/** Scores one corpus address: its components, its confidence band and its token labels. */
function score(parser: RuleParser, address: LabelledAddress, result: Evaluation): void {
  const tokens = tokenize(address.raw);
  const goldLabels = toServiceLabels(alignLabels(tokens, address.tokens));
  const input = address.raw;
  const gold = assemble({ input, tokens, labels: goldLabels, confidence: 1, model: parser.model }).components;
  const answer = parser.parse(input);
  const mine = answer.components;
  result.addresses++;
  let allRight = true;
  for (const name of SCORED) {
    const tally = result.perComponent.get(name)!;
    if (gold[name] !== undefined) tally.gold++;
    if (mine[name] !== undefined) tally.predicted++;
    if (gold[name] !== undefined && gold[name] === mine[name]) tally.right++;
    if (gold[name] !== mine[name]) allRight = false;
  }
  const band = result.bands.get(BANDS.find((lower) => answer.confidence >= lower)!)!;
  band.addresses++;
  if (allRight) band.exact++;
  if (allRight) result.exact++;
  else result.failures.push({ raw: input, gold, predicted: mine });
  // Each token's component in the answer against its component in the gold answer (both as
  // assembly reads the labels), as the cross-validation scores tokens.
  const predicted = assembledLabels(tokens, parser.label(tokens).labels);
  assembledLabels(tokens, goldLabels).forEach((label, i) => {
    result.tokens++;
    if (predicted[i] === label) result.tokensRight++;
    const pair = `${label} -> ${predicted[i]}`;
    if (predicted[i] !== label) result.confusions.set(pair, (result.confusions.get(pair) ?? 0) + 1);
  });
}

const BANDS = [1, 0.9, 0.8, 0.6, 0];

function percent(part: number, whole: number): string {
  return whole === 0 ? "   -  " : `${((100 * part) / whole).toFixed(1).padStart(5)}%`;
}

function report(evaluation: Evaluation, show: number): string {
  const lines = [
    `addresses: ${evaluation.addresses}`,
    `every component right: ${percent(evaluation.exact, evaluation.addresses)} (${evaluation.exact})`,
    `tokens right (component):${percent(evaluation.tokensRight, evaluation.tokens)} of ${evaluation.tokens}`,
    "",
    "component              precision  recall   gold",
  ];
  for (const [name, tally] of evaluation.perComponent) {
    if (tally.gold === 0 && tally.predicted === 0) continue;
    lines.push(
      `${name.padEnd(22)} ${percent(tally.right, tally.predicted)}    ${percent(tally.right, tally.gold)}  ${String(tally.gold).padStart(5)}`,
    );
  }
  lines.push("", "confidence    addresses  every component right");
  for (const [lower, band] of evaluation.bands) {
    lines.push(
      `>= ${lower.toFixed(1)}       ${String(band.addresses).padStart(6)}     ${percent(band.exact, band.addresses)}`,
    );
  }
  lines.push("", "worst confusions (gold -> predicted, tokens):");
  const worst = [...evaluation.confusions].sort((a, b) => b[1] - a[1]).slice(0, 12);
  for (const [pair, count] of worst) lines.push(`  ${String(count).padStart(4)}  ${pair}`);
  for (const failure of evaluation.failures.slice(0, show)) {
    lines.push(
      "",
      failure.raw,
      `  gold: ${JSON.stringify(failure.gold)}`,
      `  mine: ${JSON.stringify(failure.predicted)}`,
    );
  }
  return lines.join("\n") + "\n";
}

/**
 * `--cv K [--folds N | --fold N] [--models DIR] [--synthetic N] [--synthetic-weight W]
 * [--osm-weight W] [--l2 X] [--rule-labels on|off] [--errors]`: cross-validation.
 */
function crossValidationRun(args: string[]): void {
  const option = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const number = (name: string, fallback: number) => Number(option(name) ?? fallback);
  const report = crossValidate({
    ...CV_DEFAULTS,
    k: number("--cv", CV_DEFAULTS.k),
    seed: number("--seed", CV_DEFAULTS.seed),
    synthetic: number("--synthetic", CV_DEFAULTS.synthetic),
    syntheticWeight: number("--synthetic-weight", CV_DEFAULTS.syntheticWeight),
    osmWeight: number("--osm-weight", CV_DEFAULTS.osmWeight),
    training: {
      ...CV_DEFAULTS.training,
      l2: number("--l2", CV_DEFAULTS.training.l2),
      ruleLabels: (option("--rule-labels") ?? (CV_DEFAULTS.training.ruleLabels ? "on" : "off")) === "on",
    },
    folds: option("--folds") === undefined ? undefined : number("--folds", 0),
    onlyFold: option("--fold") === undefined ? undefined : number("--fold", 0),
    modelsDir: option("--models"),
    showErrors: args.includes("--errors"),
    log: (message) => process.stderr.write(`${message}\n`),
  });
  process.stdout.write(`${report}\n`);
}

const invokedDirectly = process.argv[1]?.endsWith("eval-parser.js") ?? false;
if (invokedDirectly && process.argv.includes("--cv")) {
  if (!corpusAvailable()) {
    process.stderr.write("eval:parser --cv needs ../shared/data/usaddress/training (absent)\n");
    process.exit(2);
  }
  crossValidationRun(process.argv.slice(2));
} else if (invokedDirectly) {
  const args = process.argv.slice(2);
  const parcelsAt = args.indexOf("--parcels");
  if (parcelsAt >= 0) {
    const parcels = await evaluateParcels(args[parcelsAt + 1]!);
    process.stdout.write(
      `situs addresses: ${parcels.addresses}\nevery component right: ${percent(parcels.right, parcels.addresses)} (${parcels.right})\n` +
        parcels.failures.slice(0, 20).join("\n") +
        "\n",
    );
    process.exit(0);
  }
  const showAt = args.indexOf("--show");
  const show = showAt >= 0 ? Number(args[showAt + 1]) : 0;
  const file = args.find((arg, i) => !arg.startsWith("--") && i !== showAt + 1 - (showAt >= 0 ? 0 : 1));
  const path = file ?? projectPath("..", "shared", "data", "usaddress", "training", "labeled.xml");
  if (!existsSync(path)) {
    process.stderr.write(`eval:parser: ${path} not found (needs ../shared/data)\n`);
    process.exit(2);
  }
  process.stdout.write(report(evaluate(path), show));
}

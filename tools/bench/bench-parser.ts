/**
 * The parser's speed on one core, beside `parse-address` (a set of regular expressions, the
 * fastest Node parser people install) on the same lines in the same run, in alternating rounds.
 * Run: `npm run bench:parser`.
 *
 * Line sets: usaddress's hand-labelled lines (labeled.xml, needs ../shared/data), the golden
 * corpus (test/golden/parser-golden.jsonl), and 10,000 generated lines
 * (tools/parser/address-lines.ts). Targets (README "Quality and speed"): the model backend at
 * >= 100,000 parses per CPU-second and >= 2x parse-address on the real lines (labelled and
 * golden); no 256-character line slower than 1 ms. "CRF labelling alone" (tokenizer and the
 * model's labels, nothing else) is the model backend's floor, measured beside it.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import { createRequire } from "node:module";
import { DEFAULT_MODEL_FILE, loadModelFile, ModelParser } from "../../src/parse/model/model-parser.js";
import { readLabelledCorpus } from "../../src/parse/corpus/read-labelled-corpus.js";
import { RuleParser } from "../../src/parse/rule-parser.js";
import { tokenize } from "../../src/parse/tokenize.js";
import { projectPath } from "../../src/paths.js";
import { generateLines, worstCaseLines } from "../parser/address-lines.js";
import { median } from "./bench-support.js";

/** One parser under measurement: a name and a function of one line. */
interface Contender {
  name: string;
  parse: (line: string) => unknown;
}

const ROUNDS = 7;
const ROUND_SECONDS = 0.6;

/**
 * Parses per second of this process's CPU time (user + system): on a shared machine wall time
 * counts other processes' turns too, CPU time only ours, so this is the one-core figure.
 */
function perCpuSecond(contender: Contender, lines: readonly string[], seconds: number): number {
  let parses = 0;
  const cpuStart = process.cpuUsage();
  const deadline = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
  do {
    for (const line of lines) contender.parse(line);
    parses += lines.length;
  } while (process.hrtime.bigint() < deadline);
  const cpu = process.cpuUsage(cpuStart);
  return parses / ((cpu.user + cpu.system) / 1e6);
}

/**
 * Each contender's median over alternating rounds, and the median of the per-round ratio of each
 * to the last contender (the baseline): alternating keeps whatever the machine does meanwhile
 * from favouring one of them.
 */
function sideBySide(
  contenders: readonly Contender[],
  lines: readonly string[],
): Map<string, { perSecond: number; ratio: number }> {
  for (const contender of contenders) perCpuSecond(contender, lines, 0.5); // warm-up: let the JIT settle
  const rounds = contenders.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    contenders.forEach((contender, i) => rounds[i]!.push(perCpuSecond(contender, lines, ROUND_SECONDS)));
  }
  const baseline = rounds[rounds.length - 1]!;
  return new Map(
    contenders.map((contender, i) => [
      contender.name,
      {
        perSecond: median(rounds[i]!),
        ratio: median(rounds[i]!.map((value, round) => value / baseline[round]!)),
      },
    ]),
  );
}

/** The slowest line, each timed as the median of 21 runs (single runs are noisy on a shared machine). */
function slowest(contender: Contender, lines: readonly string[]): { micros: number; line: string } {
  let worst = { micros: 0, line: "" };
  for (const line of lines) {
    const runs: number[] = [];
    for (let r = 0; r < 21; r++) {
      const start = process.hrtime.bigint();
      contender.parse(line);
      runs.push(Number(process.hrtime.bigint() - start) / 1000);
    }
    const micros = median(runs);
    if (micros > worst.micros) worst = { micros, line };
  }
  return worst;
}

/** The line sets, the real ones first; labeled.xml only where ../shared/data is present. */
function lineSets(): Array<{ name: string; lines: string[] }> {
  const labelled = projectPath("..", "shared", "data", "usaddress", "training", "labeled.xml");
  const golden = readFileSync(projectPath("test", "golden", "parser-golden.jsonl"), "utf8")
    .split("\n")
    .filter((row) => row.trim() !== "")
    .map((row) => (JSON.parse(row) as { line: string }).line);
  const sets = [{ name: "golden corpus", lines: golden }];
  if (existsSync(labelled))
    sets.unshift({ name: "labeled.xml", lines: readLabelledCorpus(labelled).map((a) => a.raw) });
  else process.stdout.write(`labeled.xml: skipped (${labelled} absent)\n`);
  sets.push({ name: "generated", lines: generateLines(10_000) });
  return sets;
}

const format = (value: number): string => Math.round(value).toLocaleString("en-US");

const rules = new RuleParser();
const loadStart = process.hrtime.bigint();
const model = new ModelParser(rules, loadModelFile(DEFAULT_MODEL_FILE));
const loadMs = Number(process.hrtime.bigint() - loadStart) / 1e6;
if (model.unavailableReason !== undefined) {
  process.stdout.write(`model backend: unavailable (${model.unavailableReason})\n`);
  process.exit(1);
}
const parseAddress = createRequire(import.meta.url)("parse-address") as {
  parseLocation: (line: string) => unknown;
};
// The model backend's floor: its tokenizer and CRF labelling alone, with no assembly, checks
// or back-off; no parse of the model backend can be faster than this.
const tagger = loadModelFile(DEFAULT_MODEL_FILE)();
const contenders: Contender[] = [
  { name: "model", parse: (line) => model.parse(line) },
  { name: "rules", parse: (line) => rules.parse(line) },
  { name: "CRF labelling alone", parse: (line) => tagger.tag(line, tokenize(line)) },
  { name: "parse-address", parse: (line) => parseAddress.parseLocation(line) },
];

process.stdout.write(
  `node ${process.version}, one core, median of ${ROUNDS} alternating rounds (machine load ${os.loadavg()[0]!.toFixed(1)})\n` +
    `model ${model.model.name} ${model.model.version}: ${(statSync(DEFAULT_MODEL_FILE).size / 1e6).toFixed(2)} MB, loaded in ${loadMs.toFixed(0)} ms\n`,
);
for (const set of lineSets()) {
  const figures = sideBySide(contenders, set.lines);
  const row = contenders
    .map(
      ({ name }) =>
        `${name} ${format(figures.get(name)!.perSecond)}` +
        (name === "parse-address" ? "" : ` (${figures.get(name)!.ratio.toFixed(2)}x)`),
    )
    .join(", ");
  process.stdout.write(`${set.name} (${set.lines.length} lines), parses per CPU-second: ${row}\n`);
}
const long = [
  ...worstCaseLines(),
  ...generateLines(2_000, 99).map((line) => (line + " " + line).padEnd(256, " X").slice(0, 256)),
];
for (const contender of contenders.slice(0, 2)) {
  const worst = slowest(contender, long);
  process.stdout.write(
    `${contender.name}, slowest of ${long.length} 256-character lines: ${worst.micros.toFixed(1)} µs (target < 1,000 µs) ${JSON.stringify(worst.line.slice(0, 50))}…\n`,
  );
}
process.stdout.write(
  "targets: model >= 100,000 per CPU-second and >= 2x parse-address on labeled.xml and golden\n",
);

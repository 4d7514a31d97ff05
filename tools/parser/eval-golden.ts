import { isDeepStrictEqual } from "node:util";
import { readFileSync } from "node:fs";
import { DEFAULT_MODEL_FILE, loadModelFile, ModelParser } from "../../src/parse/model/model-parser.js";
import type { AddressType, Components, WarningCode } from "../../src/parse/parse-answer.js";
import type { Parser } from "../../src/parse/parser.js";
import { RuleParser } from "../../src/parse/rule-parser.js";
import { projectPath } from "../../src/paths.js";

/**
 * `npm run eval:golden`: the parser's golden corpus (test/golden/parser-golden.jsonl)
 * scored against both backends. A case is right when type, components, lines and warning codes
 * all equal the golden ones (as test/parse/golden.test.ts checks the rules); "parse right"
 * leaves warnings out. Cases that give labels instead of a line test assembly, not a backend,
 * and are skipped.
 */
interface GoldenCase {
  line: string;
  type: AddressType;
  components?: Components;
  lines?: string[];
  warnings: WarningCode[];
  labels?: unknown;
}

const cases = readFileSync(projectPath("test", "golden", "parser-golden.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as GoldenCase)
  .filter((golden) => golden.labels === undefined);

function score(name: string, parser: Parser, show: number): string {
  let right = 0;
  let parseRight = 0;
  const misses: string[] = [];
  for (const golden of cases) {
    const answer = parser.parse(golden.line);
    const parse =
      answer.type === golden.type &&
      (golden.components === undefined || isDeepStrictEqual(answer.components, golden.components)) &&
      (golden.lines === undefined || isDeepStrictEqual(answer.lines, golden.lines));
    const warnings = isDeepStrictEqual(
      answer.warnings.map((warning) => warning.code),
      golden.warnings,
    );
    if (parse) parseRight++;
    if (parse && warnings) right++;
    else if (misses.length < show)
      misses.push(
        `  ${JSON.stringify(golden.line)}: ${JSON.stringify(answer.components)} ${answer.warnings.map((w) => w.code).join(",")}`,
      );
  }
  const pct = (n: number) => `${((100 * n) / cases.length).toFixed(1)}%`;
  return [
    `${name}: ${pct(right)} right (${right}/${cases.length}), ${pct(parseRight)} parse right (warnings aside)`,
    ...misses,
  ].join("\n");
}

const args = process.argv.slice(2);
const show = args.includes("--show") ? Number(args[args.indexOf("--show") + 1]) : 0;
const rules = new RuleParser();
const model = new ModelParser(rules, loadModelFile(DEFAULT_MODEL_FILE));
if (model.unavailableReason !== undefined)
  process.stderr.write(`model unavailable: ${model.unavailableReason}\n`);
process.stdout.write(`${score("model", model, show)}\n${score("rules", rules, 0)}\n`);

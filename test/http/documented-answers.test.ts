import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { projectPath } from "../../src/paths.js";
import { DEFAULT_MODEL_FILE, loadModelFile, ModelParser } from "../../src/parse/model/model-parser.js";
import type { Parser } from "../../src/parse/parser.js";
import { RuleParser } from "../../src/parse/rule-parser.js";
import { documentedOnly } from "../support/documented-answers.js";

const goldenLines = readFileSync(projectPath("test", "golden", "parser-golden.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => (JSON.parse(line) as { line: string }).line);

const rules = new RuleParser();
const backends: Array<[string, Parser]> = [
  ["rules", rules],
  ["model", new ModelParser(rules, loadModelFile(DEFAULT_MODEL_FILE))],
];

for (const [name, parser] of backends) {
  test(`parse answers (${name}) have exactly the fields docs/openapi.json documents`, () => {
    const check = documentedOnly("ParseAnswer");
    for (const line of goldenLines) check(parser.parse(line));
  });
}

test("a field the document lacks is caught", () => {
  const check = documentedOnly("ParseAnswer");
  const answer = rules.parse("123 Main St, Springfield, IL 62701");
  assert.throws(() => check({ ...answer, extra: 1 }), assert.AssertionError);
  assert.throws(() => check({ ...answer, components: { ...answer.components, county: "X" } }));
});

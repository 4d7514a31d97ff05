import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { assemble } from "../../src/parse/assemble.js";
import type { Label } from "../../src/parse/labels.js";
import type { AddressType, Components, ParseAnswer, WarningCode } from "../../src/parse/parse-answer.js";
import { WARNING_CODES, ADDRESS_TYPES } from "../../src/parse/parse-answer.js";
import { RuleParser } from "../../src/parse/rule-parser.js";
import { tokenize } from "../../src/parse/tokenize.js";
import { projectPath } from "../../src/paths.js";
import { C2_UNIT_DESIGNATORS, F_HIGHWAY_EXAMPLES } from "../../src/usps/generated-tables.js";

/**
 * The golden corpus (test/golden/parser-golden.jsonl): one hand-checked case a line. Each case
 * holds the expected type and warning codes, and (unless it is a robustness case) components
 * and lines. Cases of section "assembly" give labels instead of relying on the rules: they hold
 * the shared assembly to what a model's labels must give.
 */
interface GoldenCase {
  section: string;
  line: string;
  type: AddressType;
  components?: Components;
  lines?: string[];
  warnings: WarningCode[];
  labels?: Label[];
  extraWarnings?: WarningCode[];
}

const cases: GoldenCase[] = readFileSync(projectPath("test", "golden", "parser-golden.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as GoldenCase);

const parser = new RuleParser();

function answerOf(golden: GoldenCase): ParseAnswer {
  if (golden.labels === undefined) return parser.parse(golden.line);
  return assemble({
    input: golden.line,
    tokens: tokenize(golden.line),
    labels: golden.labels,
    confidence: 0.9,
    model: parser.model,
    extraWarnings: (golden.extraWarnings ?? []).map((code) => ({ code, message: code })),
  });
}

test(`the golden corpus passes completely (${cases.length} cases)`, () => {
  const failures: string[] = [];
  for (const golden of cases) {
    const answer = answerOf(golden);
    const actual = {
      type: answer.type,
      components: golden.components === undefined ? undefined : answer.components,
      lines: golden.lines === undefined ? undefined : answer.lines,
      warnings: answer.warnings.map((warning) => warning.code),
    };
    const expected = {
      type: golden.type,
      components: golden.components,
      lines: golden.lines,
      warnings: golden.warnings,
    };
    try {
      assert.deepEqual(actual, expected);
    } catch {
      failures.push(
        `${JSON.stringify(golden.line)}\n  want ${JSON.stringify(expected)}\n  got  ${JSON.stringify(actual)}`,
      );
    }
  }
  assert.equal(
    failures.length,
    0,
    `${failures.length} golden cases fail:\n${failures.slice(0, 20).join("\n")}`,
  );
});

test("every warning that points at the input has a span inside it", () => {
  for (const golden of cases) {
    for (const warning of answerOf(golden).warnings) {
      if (warning.start === undefined) continue;
      assert.ok(warning.end !== undefined && warning.start >= 0 && warning.start < warning.end, golden.line);
      assert.ok(warning.end <= golden.line.length, golden.line);
    }
  }
});

test("the corpus covers every type, every warning code, every C2 designator, 100+ C1 suffixes, Appendix F", () => {
  const types = new Set(cases.map((golden) => golden.type));
  assert.deepEqual(
    [...ADDRESS_TYPES].filter((type) => !types.has(type)),
    [],
  );
  const codes = new Set(cases.flatMap((golden) => golden.warnings));
  assert.deepEqual(
    WARNING_CODES.filter((code) => !codes.has(code)),
    [],
  );
  const units = new Set(cases.map((golden) => golden.components?.occupancyType));
  assert.deepEqual(
    C2_UNIT_DESIGNATORS.map((row) => row[1]!).filter((designator) => !units.has(designator)),
    [],
  );
  const suffixes = new Set(cases.map((golden) => golden.components?.streetSuffix).filter(Boolean));
  assert.ok(suffixes.size >= 100, `${suffixes.size} suffixes`);
  const lines = new Set(cases.map((golden) => golden.line.toUpperCase()));
  for (const [inUse] of F_HIGHWAY_EXAMPLES) {
    assert.ok(
      [...lines].some((line) => line.includes(` ${inUse!},`)),
      inUse,
    );
  }
  assert.ok(cases.length >= 400, `${cases.length} cases`);
});

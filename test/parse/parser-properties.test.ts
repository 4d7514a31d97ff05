import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";
import fc from "fast-check";
import { LOW_CONFIDENCE } from "../../src/parse/assemble.js";
import { ADDRESS_TYPES, MAX_LINE_LENGTH, WARNING_CODES } from "../../src/parse/parse-answer.js";
import type { ParseAnswer } from "../../src/parse/parse-answer.js";
import { RuleParser } from "../../src/parse/rule-parser.js";
import { tokenize } from "../../src/parse/tokenize.js";
import { projectPath } from "../../src/paths.js";
import { generateLines } from "../../tools/parser/address-lines.js";

const parser = new RuleParser();

/** What every answer must satisfy, whatever the line (SPEC "Parse answer", DECISIONS.md). */
function assertWellFormed(line: string, answer: ParseAnswer): void {
  assert.equal(answer.input, line);
  assert.ok(ADDRESS_TYPES.includes(answer.type));
  assert.ok(answer.confidence >= 0 && answer.confidence <= 1);
  const codes = answer.warnings.map((warning) => warning.code);
  for (const warning of answer.warnings) {
    assert.ok(WARNING_CODES.includes(warning.code));
    assert.equal(typeof warning.message, "string");
    if (warning.start !== undefined) {
      assert.ok(warning.end !== undefined && 0 <= warning.start && warning.start < warning.end);
      assert.ok(warning.end <= line.length);
    }
  }
  // An empty line carries empty_input alone (SPEC "Rules"), though its confidence is 0.
  if (line.trim() !== "") assert.equal(codes.includes("low_confidence"), answer.confidence < LOW_CONFIDENCE);
  assert.equal(codes.includes("empty_input"), line.trim() === "");
  for (const [name, value] of Object.entries(answer.components)) {
    if (typeof value !== "string") continue; // secondaryUnits
    assert.ok(value !== "" && value === value.toUpperCase(), `${name}: ${value}`);
  }
  for (const text of answer.lines)
    assert.ok(text.trim() === text && text !== "", JSON.stringify(answer.lines));
  assert.equal(answer.model.backend, "heuristic");
}

const ADDRESS_WORDS = [
  "123",
  "4B",
  "1/2",
  "N",
  "NORTH",
  "MAIN",
  "ST",
  "STREET",
  "AVE",
  "APT",
  "#",
  "STE",
  "PO",
  "BOX",
  "RR",
  "HC",
  "PSC",
  "UNIT",
  "APO",
  "AE",
  "GENERAL",
  "DELIVERY",
  "&",
  "AND",
  "HWY",
  "I-10",
  "CR",
  "IL",
  "NEW",
  "YORK",
  "62701",
  "62701-1234",
  "00926",
  "URB",
  "CALLE",
  "SPRINGFIELD",
  ",",
  "\n",
  "USA",
  "LOT",
  "REAR",
];

test("random strings up to 256 characters never throw and give well-formed answers", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: MAX_LINE_LENGTH, unit: "binary" }), (line) => {
      assertWellFormed(line, parser.parse(line));
    }),
    { numRuns: 2000, seed: 28 },
  );
});

test("random soups of address words never throw and give well-formed answers", () => {
  const soup = fc.array(fc.constantFrom(...ADDRESS_WORDS), { maxLength: 40 }).map((words) => words.join(" "));
  fc.assert(
    fc.property(soup, (line) => {
      assertWellFormed(line, parser.parse(line));
    }),
    { numRuns: 3000, seed: 28 },
  );
});

test("tokens are non-empty, uppercase, in order and inside the input", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: MAX_LINE_LENGTH, unit: "grapheme" }), (line) => {
      let last = 0;
      for (const token of tokenize(line)) {
        assert.ok(token.text !== "" && token.text === token.text.toUpperCase());
        assert.ok(token.start >= last && token.start < token.end && token.end <= line.length);
        last = token.start;
      }
    }),
    { numRuns: 2000, seed: 28 },
  );
});

test("a clean parse is stable: parsing its standardized lines gives the same lines", () => {
  let checked = 0;
  for (const line of generateLines(3000, 5)) {
    const answer = parser.parse(line);
    if (answer.warnings.length > 0 || answer.type === "ambiguous" || answer.confidence < 1) continue;
    const again = parser.parse(answer.lines.join(", "));
    assert.deepEqual(again.lines, answer.lines, line);
    checked++;
  }
  assert.ok(checked > 500, `${checked} clean lines`);
});

const UNPARSEABLE = projectPath("..", "shared", "data", "usaddress", "training", "unparseable.csv");

test(
  "every line of usaddress's unparseable.csv parses without throwing",
  { skip: existsSync(UNPARSEABLE) ? false : "needs ../shared/data (absent)" },
  () => {
    const lines = readFileSync(UNPARSEABLE, "utf8").split("\n").filter(Boolean);
    assert.ok(lines.length > 1000);
    for (const raw of lines) {
      const line = raw.replace(/^"|"$/g, "").slice(0, MAX_LINE_LENGTH);
      assertWellFormed(line, parser.parse(line));
    }
  },
);

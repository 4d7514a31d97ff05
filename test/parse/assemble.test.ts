import assert from "node:assert/strict";
import { test } from "node:test";
import { assemble, labelProblem } from "../../src/parse/assemble.js";
import type { Label } from "../../src/parse/labels.js";
import { LABELS } from "../../src/parse/labels.js";
import { tokenize } from "../../src/parse/tokenize.js";
import { standardStreetName } from "../../src/parse/assembly/street-components.js";
import { F_HIGHWAY_EXAMPLES } from "../../src/usps/generated-tables.js";
import { assembleLine, TEST_MODEL } from "../support/labelled-lines.js";

const model = TEST_MODEL;

function problem(line: string, labels: Label[]): string | null {
  return labelProblem(tokenize(line), labels);
}

test("labelProblem accepts consistent labels and names what is wrong with the others", () => {
  assert.equal(problem("123 Main St 62701", ["addressNumber", "streetName", "streetSuffix", "zip5"]), null);
  assert.equal(
    problem("Main St & Elm St", ["streetName", "streetSuffix", "intersection", "streetName", "streetSuffix"]),
    null,
  );
  assert.match(problem("123 Main 456", ["addressNumber", "streetName", "addressNumber"])!, /house numbers/);
  assert.match(problem("2 Box 3", ["ruralRouteId", "poBoxType", "poBoxId"])!, /route number/);
  // Seen from the model: "RR 2 Box 3" with RR read as part of the route number, which assembly
  // reads as the route's designator (box-labels.ts).
  assert.equal(problem("RR 2 Box 3", ["ruralRouteId", "ruralRouteId", "poBoxType", "poBoxId"]), null);
  assert.equal(problem("RR 2 Box 3", ["ruralRouteType", "ruralRouteId", "poBoxType", "poBoxId"]), null);
  assert.match(
    problem("123 62701 Main St", ["addressNumber", "zip5", "streetName", "streetSuffix"])!,
    /inside the street/,
  );
  assert.match(
    problem("1 Main Springfield Elm", ["addressNumber", "streetName", "city", "streetName"])!,
    /split/,
  );
  assert.match(problem("1 Main 1234", ["addressNumber", "streetName", "zip4"])!, /ZIP\+4/);
  assert.match(problem("1 Main", ["addressNumber"])!, /labels for/);
});

test("assemble never throws on any labelling of any tokens", () => {
  const tokens = tokenize("RR 2 Box 5 123 N Main St Apt 4 # 5 Springfield IL 62701 1234 USA");
  for (let seed = 0; seed < 2000; seed++) {
    const labels = tokens.map((_, i) => LABELS[(seed * 7 + i * (seed % 13)) % LABELS.length]!);
    const answer = assemble({ input: "x", tokens, labels, confidence: (seed % 11) / 10, model });
    assert.ok(answer.type.length > 0);
  }
});

test("Appendix F: every highway form in use gives its standard form", () => {
  for (const [inUse, standard] of F_HIGHWAY_EXAMPLES) {
    const words = tokenize(inUse!).map((token) => token.text);
    assert.equal(standardStreetName(words), standard, inUse);
  }
});

test("confidence below 0.6 adds low_confidence; extra warnings are kept", () => {
  const line = "123 Main St";
  const labels: Label[] = ["addressNumber", "streetName", "streetSuffix"];
  const low = assemble({ input: line, tokens: tokenize(line), labels, confidence: 0.59, model });
  assert.ok(low.warnings.some((warning) => warning.code === "low_confidence"));
  const high = assemble({
    input: line,
    tokens: tokenize(line),
    labels,
    confidence: 0.6,
    model,
    extraWarnings: [{ code: "model_unavailable", message: "x" }],
  });
  assert.deepEqual(
    high.warnings.map((warning) => warning.code),
    ["missing_city", "missing_state", "missing_zip", "model_unavailable"],
  );
});

test("an answer whose type cannot be told stays below 0.6 however sure its labels; a firm with its place does not", () => {
  const units = assembleLine(
    "APT 4 # 5",
    ["occupancyType", "occupancyId", "occupancyType", "occupancyId"],
    1,
  );
  assert.equal(units.type, "ambiguous");
  assert.equal(units.confidence, 0.5);
  assert.ok(units.warnings.some((warning) => warning.code === "low_confidence"));
  const line = "Budd Insurance Agency Coldwater MI";
  const firm = assembleLine(line, ["firm", "firm", "firm", "city", "state"], 0.95);
  assert.equal(firm.type, "ambiguous");
  assert.equal(firm.confidence, 0.95);
});

test("a state code written twice is that state; two different codes are an invalid state", () => {
  const line = "123 Main St Springfield IL IL 62701";
  const labels: Label[] = ["addressNumber", "streetName", "streetSuffix", "city", "state", "state", "zip5"];
  const twice = assembleLine(line, labels, 1);
  assert.equal(twice.components.state, "IL");
  assert.equal(twice.components.other, undefined);
  assert.deepEqual(twice.warnings, []);
  const mixed = "123 Main St Springfield IL IN 62701";
  const two = assembleLine(mixed, labels, 1);
  assert.equal(two.components.state, undefined);
  assert.equal(two.components.other, "IL IN");
  assert.ok(two.warnings.some((warning) => warning.code === "invalid_state"));
});

test("two ZIPs labelled as one run: the first is the ZIP, the second is kept in other", () => {
  const line = "123 Main St Springfield IL 62701 62702";
  const labels: Label[] = ["addressNumber", "streetName", "streetSuffix", "city", "state", "zip5", "zip5"];
  const answer = assembleLine(line, labels, 1);
  assert.equal(answer.components.zip5, "62701");
  assert.equal(answer.components.other, "62702");
  const unknown = answer.warnings.find((warning) => warning.code === "unknown_tokens");
  assert.deepEqual([unknown?.start, unknown?.end], [line.indexOf("62702"), line.length]);
  const odd = "1 Main St IL 6270 62702";
  const oddLabels: Label[] = ["addressNumber", "streetName", "streetSuffix", "state", "zip5", "zip5"];
  const wrong = assembleLine(odd, oddLabels, 1);
  assert.equal(wrong.components.zip5, undefined);
  assert.ok(wrong.warnings.some((warning) => warning.code === "invalid_zip"));
});

test("a unit number labelled with its designator in it takes that word as the designator", () => {
  const unit = (line: string, labels: Label[]) => {
    const answer = assemble({ input: line, tokens: tokenize(line), labels, confidence: 1, model });
    return {
      type: answer.components.occupancyType,
      id: answer.components.occupancyId,
      warnings: answer.warnings.map((warning) => warning.code).filter((code) => code.startsWith("unit")),
    };
  };
  const street: Label[] = ["addressNumber", "streetName", "streetSuffix"];
  assert.deepEqual(unit("1424 Stonebridge Cir No L2", [...street, "occupancyId", "occupancyId"]), {
    type: "#",
    id: "L2",
    warnings: [],
  });
  assert.deepEqual(unit("303 Peachtree St Ste 5300", [...street, "occupancyId", "occupancyId"]), {
    type: "STE",
    id: "5300",
    warnings: [],
  });
  assert.deepEqual(
    unit("303 Peachtree St Apt # 5", [...street, "occupancyType", "occupancyId", "occupancyId"]),
    {
      type: "APT",
      id: "5",
      warnings: [],
    },
  );
  // A designator that takes no number, labelled alone as the number: the designator, no number.
  for (const [line, type] of [
    ["3800 Louise Ave Frnt", "FRNT"],
    ["1960 18th St Rear", "REAR"],
    ["233 Wacker Dr lobby", "LBBY"],
  ] as const) {
    assert.deepEqual(unit(line, [...street, "occupancyId"]), { type, id: undefined, warnings: [] }, line);
  }
  // One that takes a number is no designator alone: `STE` labelled as the number stays the number.
  assert.deepEqual(unit("303 Peachtree St Ste", [...street, "occupancyId"]), {
    type: "#",
    id: "STE",
    warnings: ["unit_id_without_type"],
  });
  // No designator in the number: `#`, with the warning.
  assert.deepEqual(unit("303 Peachtree St A 5", [...street, "occupancyId", "occupancyId"]), {
    type: "#",
    id: "A 5",
    warnings: ["unit_id_without_type"],
  });
});

test("a number sign labelled as part of a PO box number is no part of it", () => {
  const box = (line: string, labels: Label[]) =>
    assemble({ input: line, tokens: tokenize(line), labels, confidence: 1, model });
  const BOX: Label[] = ["poBoxType", "poBoxType"];
  for (const line of ["PO Box # 123", "PO Box No 123", "PO Box Number 123"]) {
    const answer = box(line, [...BOX, "poBoxId", "poBoxId"]);
    assert.equal(answer.components.poBoxId, "123", line);
    assert.deepEqual(answer.lines, ["PO BOX 123"], line);
  }
  const zeros = box("PO Box # 0012", [...BOX, "poBoxId", "poBoxId"]);
  assert.equal(zeros.components.poBoxId, "12");
  // The warning points at the number as typed, without its sign.
  const zeroWarning = zeros.warnings.find((warning) => warning.code === "leading_zero_removed");
  assert.deepEqual([zeroWarning?.start, zeroWarning?.end], [9, 13]);
  const unsigned = box("PO Box 0012", [...BOX, "poBoxId"]);
  const unsignedWarning = unsigned.warnings.find((warning) => warning.code === "leading_zero_removed");
  assert.deepEqual([unsignedWarning?.start, unsignedWarning?.end], [7, 11]);
  // A sign alone is the whole number given; a box number in two parts is kept joined.
  assert.equal(box("PO Box #", [...BOX, "poBoxId"]).components.poBoxId, "#");
  assert.equal(box("PO Box 12 A", [...BOX, "poBoxId", "poBoxId"]).components.poBoxId, "12A");
});

import assert from "node:assert/strict";
import { test } from "node:test";
import { labelProblem } from "../../src/parse/assemble.js";
import { boxLabels } from "../../src/parse/assembly/box-labels.js";
import type { Label } from "../../src/parse/labels.js";
import { RuleParser } from "../../src/parse/rule-parser.js";
import { tokenize } from "../../src/parse/tokenize.js";
import { assembleLine, relabelLine, SHORT_LABELS } from "../support/labelled-lines.js";

const { BT, BI, RT, RI, C, ST, Z } = SHORT_LABELS;

const relabelled = (line: string, labels: Label[]) => relabelLine(boxLabels, line, labels);
const assembled = (line: string, labels: Label[]) => assembleLine(line, labels, 0.9);

test("a route or military designator labelled as a box type is the route's, its number the route's", () => {
  assert.deepEqual(relabelled("RR 422 Box, Douglassville, PA", [BT, BI, BT, C, ST]), [RT, RI, BT, C, ST]);
  assert.deepEqual(relabelled("cmr 411 box 3568", [BT, BI, BT, BI]), [RT, RI, BT, BI]);
  assert.deepEqual(relabelled("Star Route 3 Box 9", [BT, BT, BI, BT, BI]), [RT, RT, RI, BT, BI]);
});

test("a box designator with no number is numbered by the unit number right after it", () => {
  const U = "occupancyId";
  assert.deepEqual(relabelled("P O Box 88 St Joseph MI", [BT, BT, BT, U, C, C, ST]), [
    BT,
    BT,
    BT,
    BI,
    C,
    C,
    ST,
  ]);
  assert.deepEqual(relabelled("RT 1 BOX 81", [RT, RI, BT, U]), [RT, RI, BT, BI]);
  // A unit number after its own designator, or a box already numbered, is left alone.
  assert.deepEqual(relabelled("PO Box 5 Apt 2", [BT, BT, BI, "occupancyType", U]), [
    BT,
    BT,
    BI,
    "occupancyType",
    U,
  ]);
});

test("a highway labelled as a route is the street", () => {
  assert.deepEqual(relabelled("FM 170 Box 77 Marfa TX", [RT, RI, BT, BI, C, ST]), [
    "streetName",
    "streetName",
    BT,
    BI,
    C,
    ST,
  ]);
  // A rural route's designator stays the route's.
  assert.deepEqual(relabelled("RR 170 Box 77", [RT, RI, BT, BI]), [RT, RI, BT, BI]);
});

test("a route with no box that meets another road is a road", () => {
  const I: Label = "intersection";
  const N: Label = "streetName";
  assert.deepEqual(relabelled("Route 30 & Route 45", [RT, RI, I, N, N]), [N, N, I, N, N]);
  assert.deepEqual(relabelled("Main St & Route 45", [N, "streetSuffix", I, RT, RI]), [
    N,
    "streetSuffix",
    I,
    N,
    N,
  ]);
  // A route with a box on the line stays a route.
  assert.deepEqual(relabelled("Route 30 & Box 5", [RT, RI, I, BT, BI]), [RT, RI, I, BT, BI]);
});

test("a route number that starts with its designator gives the designator up", () => {
  assert.deepEqual(relabelled("RR2 BOX 348", [RI, RI, BT, BI]), [RT, RI, BT, BI]);
});

test("PO boxes, routes already labelled and other box words are returned unchanged", () => {
  const unchanged: Array<[string, Label[]]> = [
    ["PO Box 5", [BT, BT, BI]],
    ["Box 12 Marfa TX", [BT, BI, C, ST]],
    ["Drawer 7", [BT, BI]],
    ["RR 2 Box 152", [RT, RI, BT, BI]],
    ["HC 1 Box 9", [RT, RI, RI, RI]],
  ];
  for (const [line, labels] of unchanged) assert.equal(relabelled(line, labels), labels, line);
});

test("assembly reads such a box group as DECISIONS.md does, as the rules parse it", () => {
  const rules = new RuleParser();
  const cases: Array<[string, Label[]]> = [
    ["RR 2 Box 152, Canton, OH 44730", [BT, BI, BT, BI, C, ST, Z]],
    ["CMR 411 Box 3568 APO AE 09001", [BT, BI, BT, BI, C, ST, Z]],
    ["RR2 BOX 348", [RI, RI, BT, BI]],
  ];
  for (const [line, labels] of cases) {
    const answer = assembled(line, labels);
    assert.deepEqual(answer.components, rules.parse(line).components, line);
    assert.equal(answer.type, rules.parse(line).type, line);
  }
  const military = assembled("cmr 411 box 3568", [BT, BI, BT, BI]);
  assert.equal(military.type, "military");
  assert.deepEqual(military.components, { ruralRouteType: "CMR", ruralRouteId: "411 BOX 3568" });
  assert.deepEqual(assembled("RR 422 Box", [BT, BI, BT]).components, {
    ruralRouteType: "RR",
    ruralRouteId: "422",
  });
});

test("labels are judged as assembly reads them: a route whose designator is labelled a box type is valid", () => {
  const line = "RR2 BOX 348";
  assert.equal(labelProblem(tokenize(line), [RI, RI, BT, BI]), null);
  assert.equal(labelProblem(tokenize("2 BOX 348"), [RI, BT, BI]), "a route number without its designator");
});

test("of two box groups the post office box is kept and the other becomes a unit, its number apart", () => {
  const OT = "occupancyType";
  const OI = "occupancyId";
  assert.deepEqual(relabelled("po box 790322 bin 150003", [BT, BT, BI, BT, BI]), [BT, BT, BI, OT, OI]);
  assert.deepEqual(relabelled("lockbox 9351 po box 8500", [BT, BI, BT, BT, BI]), [OT, OI, BT, BT, BI]);
  assert.deepEqual(relabelled("PO Box # 123 Box 45", [BT, BT, BT, BI, BT, BI]), [BT, BT, BT, BI, OT, OI]);
  // No post office designator: the last group is the box.
  assert.deepEqual(relabelled("Box 12 Drawer 7", [BT, BI, BT, BI]), [OT, OI, BT, BI]);
  const rules = new RuleParser();
  const cases: Array<[string, Label[], string, string]> = [
    ["po box 790322 bin 150003 st louis mo 63179", [BT, BT, BI, BT, BI, C, C, ST, Z], "790322", "BIN 150003"],
    ["PO Box 123 Box 45, Springfield IL 62701", [BT, BT, BI, BT, BI, C, ST, Z], "123", "BOX 45"],
    [
      "lockbox 9351 po box 8500 philadelphia pa 19178",
      [BT, BI, BT, BT, BI, C, ST, Z],
      "8500",
      "LOCKBOX 9351",
    ],
  ];
  for (const [line, labels, box, unit] of cases) {
    const answer = assembled(line, labels);
    assert.equal(answer.components.poBoxId, box, line);
    assert.equal(`${answer.components.occupancyType} ${answer.components.occupancyId}`, unit, line);
    assert.equal(
      answer.warnings.some((w) => w.code === "discontiguous_component"),
      false,
      line,
    );
    assert.deepEqual(rules.parse(line).components, answer.components, `${line}: the rules read it alike`);
  }
});

test("a box with no number labelled is numbered by a ZIP right after its designator", () => {
  assert.deepEqual(relabelled("POB 19060", [BT, Z]), [BT, BI]);
  assert.equal(assembled("POB 19060", [BT, Z]).components.poBoxId, "19060");
  assert.deepEqual(relabelled("PO Box 19060 Springfield IL", [BT, BT, Z, C, ST]), [BT, BT, BI, C, ST]);
  // A box that has its number, or a ZIP after the city, keeps the ZIP.
  assert.deepEqual(relabelled("PO Box 12 62701", [BT, BT, BI, Z]), [BT, BT, BI, Z]);
  assert.deepEqual(relabelled("PO Box Springfield 62701", [BT, BT, C, Z]), [BT, BT, C, Z]);
});

test("the rules read PO BX as a post office box", () => {
  const rules = new RuleParser();
  for (const line of ["PO Bx 433", "P O BX 433", "PO BX 433 Springfield IL 62701"]) {
    const answer = rules.parse(line);
    assert.equal(answer.type, "po_box", line);
    assert.equal(answer.components.poBoxId, "433", line);
    assert.equal(answer.components.streetName, undefined, line);
    assert.equal(answer.components.firm, undefined, line);
  }
});

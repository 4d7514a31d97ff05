import assert from "node:assert/strict";
import { test } from "node:test";
import { assembledLabels } from "../../src/parse/assemble.js";
import { lotAfterStreet, unitLabels } from "../../src/parse/assembly/unit-labels.js";
import type { Label } from "../../src/parse/labels.js";
import { RuleParser } from "../../src/parse/rule-parser.js";
import { tokenize } from "../../src/parse/tokenize.js";
import { assembleLine, relabelLine, SHORT_LABELS } from "../support/labelled-lines.js";

const { A, N, S, P, C, ST, Z } = SHORT_LABELS;
const T: Label = "occupancyType";
const U: Label = "occupancyId";

const relabelled = (line: string, labels: Label[]) => relabelLine(unitLabels, line, labels);
const assembled = (line: string, labels: Label[]) => assembleLine(line, labels, 0.9);

test("a designator labelled as the first word of its number is the unit's designator", () => {
  assert.deepEqual(relabelled("303 Peachtree St Ste 5300", [A, N, S, U, U]), [A, N, S, T, U]);
  assert.deepEqual(relabelled("361 17th Street No 2202", [A, N, S, U, U]), [A, N, S, T, U]);
  assert.deepEqual(relabelled("3245 Latta Rd # 16988", [A, N, S, U, U]), [A, N, S, T, U]);
  // After a designator only a number sign is one: `APT # 5`, but not `APT B 5`.
  assert.deepEqual(relabelled("1 Main St Apt # 5", [A, N, S, T, U, U]), [A, N, S, T, T, U]);
  assert.deepEqual(relabelled("1 Main St Apt B 5", [A, N, S, T, U, U]), [A, N, S, T, U, U]);
});

test("a designator that takes no number, labelled alone as one, is the designator", () => {
  assert.deepEqual(relabelled("233 S Wacker Dr Lobby", [A, "predirectional", N, S, U]), [
    A,
    "predirectional",
    N,
    S,
    T,
  ]);
  // One that needs a number stays a number (with `unit_id_without_type`, as before).
  assert.deepEqual(relabelled("1 Main St Apt", [A, N, S, U]), [A, N, S, U]);
});

test("a designator that needs a number, labelled as another's number, numbers nothing", () => {
  assert.deepEqual(relabelled("APT APT APT", [T, U, T]), [T, T, T]);
  const answer = assembled("APT APT APT", [T, U, T]);
  assert.equal(answer.components.occupancyType, "APT APT APT");
  assert.ok(answer.warnings.some((w) => w.code === "unknown_unit_designator"));
});

test("words that would join another unit's designator are left as they are", () => {
  // A number before its designator (`2 FL` read as the second floor) keeps its words.
  assert.deepEqual(relabelled("1 Main St Rear Fl", [A, N, S, U, T]), [A, N, S, U, T]);
  // A lone word right before another unit's designator.
  assert.deepEqual(relabelled("1 Main St Rear Apt 5", [A, N, S, U, T, U]), [A, N, S, U, T, U]);
});

test("the relabelled units assemble as the labels as given did", () => {
  const asGiven = assembled("303 Peachtree St Ste 5300", [A, N, S, U, U]);
  const asRead = assembled("303 Peachtree St Ste 5300", [A, N, S, T, U]);
  assert.deepEqual(asGiven.components, asRead.components);
  assert.equal(asGiven.components.occupancyType, "STE");
  assert.equal(asGiven.components.occupancyId, "5300");
  const lobby = assembled("233 Wacker Dr Lobby Chicago", [A, N, S, U, C]);
  assert.equal(lobby.components.occupancyType, "LBBY");
  assert.equal(lobby.components.occupancyId, undefined);
});

test("an unknown designator's warning points at its words, not at a number sign after them", () => {
  for (const labels of [
    [T, U, U],
    [T, T, U],
  ] as Label[][]) {
    const answer = assembled("Bin # 150003", labels);
    const warning = answer.warnings.find((w) => w.code === "unknown_unit_designator");
    assert.deepEqual([warning?.start, warning?.end], [0, 3], labels.join(" "));
  }
});

test("assembledLabels gives each token the component assembly puts it in", () => {
  const tokens = tokenize("303 Peachtree St Ste 5300 Atlanta");
  assert.deepEqual(assembledLabels(tokens, [A, N, S, U, U, C]), [A, N, S, T, U, C]);
});

test("LOWER LEVEL is the level LOWER, as 2ND FLOOR is the floor 2ND, whichever way it was labelled", () => {
  assert.deepEqual(relabelled("2610 W 25th Pl Lower Level", [A, "predirectional", N, S, T, U]), [
    A,
    "predirectional",
    N,
    S,
    U,
    T,
  ]);
  const rules = new RuleParser().parse("100 Main St Upper Level Springfield IL 62701");
  assert.equal(rules.components.occupancyType, "LEVEL");
  assert.equal(rules.components.occupancyId, "UPPER");
  assert.equal(rules.components.city, "SPRINGFIELD");
  // LOWER alone is Appendix C2's LOWR.
  assert.equal(
    new RuleParser().parse("171 Main St Lower Springfield IL 62701").components.occupancyType,
    "LOWR",
  );
});

test("a lot designator after a designator that only opens a unit is the unit, with no number", () => {
  // `APT REAR`, `UNIT FRONT`: the designator before says a unit follows; REAR is the unit.
  assert.deepEqual(relabelled("1 Main St Apt Rear", [A, N, S, T, U]), [A, N, S, T, T]);
  for (const [line, labels] of [
    ["5 Elm St Apt Rear", [A, N, S, T, U]],
    ["5 Elm St Unit Rear", [A, N, S, T, T]],
    ["5 Elm St #Rear", [A, N, S, U, T]],
    ["5 Elm St # Rear", [A, N, S, U, U]],
    ["5 Elm St # Rear", [A, N, S, T, U]],
  ] as Array<[string, Label[]]>) {
    const answer = assembled(line, labels);
    assert.equal(answer.components.occupancyType, "REAR", `${line} ${labels.join(" ")}`);
    assert.equal(answer.components.occupancyId, undefined, line);
    assert.deepEqual(
      answer.warnings
        .map((w) => w.code)
        .filter((code) => code.startsWith("unit") || code.startsWith("unknown")),
      [],
      line,
    );
  }
  assert.equal(assembled("5 Elm St Apt Front", [A, N, S, T, U]).components.occupancyType, "FRNT");
  // A floor word keeps its level (`FL UPPER`: the upper floor), and a number stays a number.
  const floor = assembled("1 Main St Fl Upper", [A, N, S, T, U]).components;
  assert.deepEqual([floor.occupancyType, floor.occupancyId], ["FL", "UPPER"]);
  const numbered = assembled("1 Main St Apt 5", [A, N, S, T, U]).components;
  assert.deepEqual([numbered.occupancyType, numbered.occupancyId], ["APT", "5"]);
});

test("a unit's two halves joined by & are one id, the & dropped", () => {
  const answer = assembled("5 Elm St Unit A&B Oakland CA", [A, N, S, T, U, U, U, C, ST]);
  assert.equal(answer.components.occupancyType, "UNIT");
  assert.equal(answer.components.occupancyId, "A B");
  assert.deepEqual(answer.lines, ["5 ELM ST UNIT A B", "OAKLAND CA"]);
  const rules = new RuleParser().parse("5 elm st unit a & b, oakland ca 94612").components;
  assert.deepEqual([rules.occupancyType, rules.occupancyId, rules.firm], ["UNIT", "A B", undefined]);
});

test("RR right after a numbered street is the county's rear-lot designator, however labelled", () => {
  const relabelLot = (line: string, labels: Label[]) => relabelLine(lotAfterStreet, line, labels);
  assert.deepEqual(relabelLot("18 Elm St RR, Oakland CA 94612", [A, N, S, C, C, ST, Z]), [
    A,
    N,
    S,
    T,
    C,
    ST,
    Z,
  ]);
  assert.deepEqual(relabelLot("18 Elm St RR", [A, N, S, P]), [A, N, S, T]);
  assert.deepEqual(relabelLot("12 Elm St N RR", [A, N, S, P, S]), [A, N, S, P, T]);
  const answer = assembled("18 Elm St RR, Oakland CA 94612", [A, N, S, "firm", C, ST, Z]);
  assert.equal(answer.components.occupancyType, "REAR");
  assert.equal(answer.components.firm, undefined);
  assert.deepEqual(answer.lines, ["18 ELM ST REAR", "OAKLAND CA  94612"]);
  // A number after it makes a route (`104 S WALNUT RR 1 BOX 297`), and with no house number
  // before it RR opens a route line.
  const route: Label[] = [A, N, "ruralRouteType", "ruralRouteId", "poBoxType", "poBoxId"];
  assert.deepEqual(relabelLot("104 Walnut RR 1 Box 297", route), route);
  const opening: Label[] = ["ruralRouteType", "ruralRouteId", "poBoxType", "poBoxId"];
  assert.deepEqual(relabelLot("RR 2 Box 5", opening), opening);
  // The rules read it so too.
  const rules = new RuleParser().parse("18 Elm St RR, Oakland CA 94612").components;
  assert.deepEqual([rules.occupancyType, rules.occupancyId, rules.firm], ["REAR", undefined, undefined]);
  assert.equal(new RuleParser().parse("RR 2 Box 5, Oakland CA 94612").components.ruralRouteId, "2 BOX 5");
});

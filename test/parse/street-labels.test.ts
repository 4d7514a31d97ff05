import assert from "node:assert/strict";
import { test } from "node:test";
import { assemble } from "../../src/parse/assemble.js";
import { streetLabels } from "../../src/parse/assembly/street-labels.js";
import type { Label } from "../../src/parse/labels.js";
import { RuleParser } from "../../src/parse/rule-parser.js";
import { tokenize } from "../../src/parse/tokenize.js";
import { assembleLine, relabelLine, TEST_MODEL, SHORT_LABELS } from "../support/labelled-lines.js";

const { A, N, S, C, ST, Z } = SHORT_LABELS;

const relabelled = (line: string, labels: Label[]) => relabelLine(streetLabels, line, labels);

test("a directional after a highway's route number is its postdirectional", () => {
  assert.deepEqual(relabelled("123 US 41 SW Naples FL", [A, N, N, N, C, ST]), [
    A,
    N,
    N,
    "postdirectional",
    C,
    ST,
  ]);
  assert.deepEqual(relabelled("9 State Route 9 North", [A, N, N, N, N]), [A, N, N, N, "postdirectional"]);
  // Two words making one directional.
  assert.deepEqual(relabelled("9 Hwy 6 S W", [A, N, N, N, N]), [
    A,
    N,
    N,
    "postdirectional",
    "postdirectional",
  ]);
});

test("a directional before a highway word is its predirectional", () => {
  assert.deepEqual(relabelled("East Highway 212, Watertown, SD 57201", [N, N, N, C, ST, Z]), [
    "predirectional",
    N,
    N,
    C,
    ST,
    Z,
  ]);
});

test("a FRONTAGE ROAD or BYPASS tail labelled as a suffix joins the highway's name", () => {
  assert.deepEqual(relabelled("123 I-10 Frontage Rd Houston TX", [A, N, N, N, S, C, ST]), [
    A,
    N,
    N,
    N,
    N,
    C,
    ST,
  ]);
  assert.deepEqual(relabelled("5 Hwy 6 Bypass", [A, N, N, S]), [A, N, N, N]);
});

test("a name ending in a street type, on a line with no suffix, ends in that suffix", () => {
  assert.deepEqual(relabelled("2010 N Central Park", [A, "predirectional", N, N]), [
    A,
    "predirectional",
    N,
    S,
  ]);
  assert.deepEqual(relabelled("2020 N Lincoln Park West", [A, "predirectional", N, N, "postdirectional"]), [
    A,
    "predirectional",
    N,
    S,
    "postdirectional",
  ]);
  // As the rules read it: a highway word without a route number is a plain street.
  assert.deepEqual(relabelled("9 County Road", [A, N, N]), [A, N, S]);
});

test("a directional is named by its place: in the name before the suffix, postdirectional after it", () => {
  assert.deepEqual(relabelled("3301 New Mexico NW Av", [A, N, N, "postdirectional", S]), [A, N, N, N, S]);
  assert.deepEqual(relabelled("3301 New Mexico NW Av", [A, N, N, "predirectional", S]), [A, N, N, N, S]);
  assert.deepEqual(relabelled("3304 Peachtree Rd NE Atlanta", [A, N, S, "predirectional", C]), [
    A,
    N,
    S,
    "postdirectional",
    C,
  ]);
  assert.deepEqual(relabelled("2400 10th Street Southwest", [A, N, S, "predirectional"]), [
    A,
    N,
    S,
    "postdirectional",
  ]);
  // The line has a postdirectional already: the second directional is left as labelled.
  assert.deepEqual(relabelled("1 Main St N S", [A, N, S, "predirectional", "postdirectional"]), [
    A,
    N,
    S,
    "predirectional",
    "postdirectional",
  ]);
});

test("labels of other streets, and highways already read so, are returned unchanged", () => {
  const unchanged: Array<[string, Label[]]> = [
    ["123 Main St SW", [A, N, S, "postdirectional"]],
    ["123 West End Ave", [A, N, N, S]],
    // A directional between name and suffix is part of the name (Pub 28 §233.3).
    ["123 Main North Rd", [A, N, N, S]],
    ["123 US 41 SW", [A, N, N, "postdirectional"]],
    ["E Highway 212", ["predirectional", N, N]],
    // The line has its directional already: a second one stays in the name.
    ["123 N US 41 S", [A, "predirectional", N, N, "postdirectional"]],
    ["123 Highway 6 Rd", [A, N, N, S]],
    // A suffix elsewhere on the line, a one-word name, a highway's own ROAD: no suffix added.
    ["123 Park Lane Ave", [A, N, N, S]],
    ["123 Park", [A, N]],
    ["123 I 10 Frontage Rd", [A, N, N, N, N]],
    ["PO Box 5", ["poBoxType", "poBoxType", "poBoxId"]],
  ];
  for (const [line, labels] of unchanged) assert.equal(relabelled(line, labels), labels, line);
});

test("assembly reads a highway the same way whichever labelling it is given", () => {
  const rules = new RuleParser();
  const cases: Array<[string, Label[]]> = [
    ["123 US 41 SW Naples FL 34102", [A, N, N, N, C, ST, Z]],
    ["East Highway 212, Watertown, SD 57201", [N, N, N, C, ST, Z]],
    ["123 I-10 Frontage Rd Houston TX 77001", [A, N, N, N, S, C, ST, Z]],
  ];
  for (const [line, labels] of cases) {
    const answer = assembleLine(line, labels, 0.9);
    assert.deepEqual(answer.components, rules.parse(line).components, line);
  }
  assert.deepEqual(
    assemble({
      input: "123 US 41 SW",
      tokens: tokenize("123 US 41 SW"),
      labels: [A, N, N, N],
      confidence: 1,
      model: TEST_MODEL,
    }).components,
    { addressNumber: "123", streetName: "US HIGHWAY 41", postdirectional: "SW" },
  );
});

test("of two suffix words in a row only the last is the suffix", () => {
  assert.deepEqual(relabelled("5075 Avalon Ridge Parkway Norcross GA", [A, N, S, S, C, ST]), [
    A,
    N,
    N,
    S,
    C,
    ST,
  ]);
  // No name labelled at all: the first suffix word becomes it.
  assert.deepEqual(relabelled("123 Park Place Dr", [A, S, S, S]), [A, N, N, S]);
  // The run's last word is no street type (a city labelled as a suffix): left as labelled.
  assert.deepEqual(relabelled("8225 Troon Circle Austell GA", [A, N, S, S, ST]), [A, N, S, S, ST]);
});

test("a street type and a directional before the last street type are part of the name", () => {
  const { P } = SHORT_LABELS;
  // PARK CIRCLE EAST RD: the last type is the suffix.
  assert.deepEqual(relabelled("100 Park Circle East Rd", [A, N, S, P, S]), [A, N, N, N, S]);
  assert.deepEqual(relabelled("11408 Otter Creek South Blvd Mabelvale AR", [A, N, S, P, S, C, ST]), [
    A,
    N,
    N,
    N,
    S,
    C,
    ST,
  ]);
  // A street type labelled as a name word right after the suffix is the suffix (AVON ST EXT).
  assert.deepEqual(relabelled("1821 Avon St Ext", [A, N, S, N]), [A, N, N, S]);
  // ... but not a word that is no street type, nor a run of them.
  assert.deepEqual(relabelled("1 Main St Rosslyn", [A, N, S, N]), [A, N, S, N]);
});

test("a lone letter after a numeric house number is the number's suffix", () => {
  assert.deepEqual(relabelled("400 A South Boulevard Evanston", [A, A, N, S, C]), [
    A,
    "addressNumberSuffix",
    N,
    S,
    C,
  ]);
  // A number already whole, or one of letters, is left alone.
  assert.deepEqual(relabelled("N6W23001 Main St", [A, N, S]), [A, N, S]);
  assert.deepEqual(relabelled("Mile K Beach Rd", [A, A, N, S]), [A, A, N, S]);
});

test("with no city and no ZIP, a state word right after the street is the street's", () => {
  const { P } = SHORT_LABELS;
  // A directional: the postdirectional, not Nebraska.
  assert.deepEqual(relabelled("1180 Peachtree Street, NE", [A, N, S, ST]), [A, N, S, P]);
  // A street type after the suffix: the suffix, the earlier type joining the name.
  assert.deepEqual(relabelled("4530 6th St. Ct.", [A, N, S, ST]), [A, N, N, S]);
  // With a city or a ZIP the state stands.
  assert.deepEqual(relabelled("1180 Peachtree St Omaha NE", [A, N, S, C, ST]), [A, N, S, C, ST]);
  assert.deepEqual(relabelled("1180 Peachtree St NE 68102", [A, N, S, ST, Z]), [A, N, S, ST, Z]);
});

test("a postdirectional N or S and an E or W after it are one directional", () => {
  const { P } = SHORT_LABELS;
  assert.deepEqual(relabelled("30 5th Street N E 301", [A, N, S, P, "occupancyId", "occupancyId"]), [
    A,
    N,
    S,
    P,
    P,
    "occupancyId",
  ]);
  assert.deepEqual(relabelled("601 Sligh Blvd N E Grand Rapids", [A, N, S, P, "other", C, C]), [
    A,
    N,
    S,
    P,
    P,
    C,
    C,
  ]);
});

test("a number labelled as a unit after a highway's words is the highway's route number", () => {
  assert.deepEqual(relabelled("750 W County Road 1220", [A, "predirectional", N, S, "occupancyId"]), [
    A,
    "predirectional",
    N,
    N,
    N,
  ]);
  // After an ordinary street it stays a unit number.
  assert.deepEqual(relabelled("750 Main Road 1220", [A, N, S, "occupancyId"]), [A, N, S, "occupancyId"]);
});

test("a predirectional that is no directional word is the name's first word", () => {
  assert.deepEqual(relabelled("3970 Flint Hill Road", [A, "predirectional", N, S]), [A, N, N, S]);
  assert.deepEqual(relabelled("3970 N Hill Road", [A, "predirectional", N, S]), [A, "predirectional", N, S]);
});

test("a name and a street type right after a whole street name a building there, a firm", () => {
  const { P } = SHORT_LABELS;
  assert.deepEqual(
    relabelled("1840 Ashbourne Rd Lynnewood Gardens Elkins Park PA", [A, N, S, N, S, C, C, ST]),
    [A, N, S, "firm", "firm", C, C, ST],
  );
  assert.deepEqual(relabelled("3750 Peachtree Rd NE Canterbury Court", [A, N, S, P, N, S]), [
    A,
    N,
    S,
    P,
    "firm",
    "firm",
  ]);
  // With no house number the words are left as labelled.
  assert.deepEqual(relabelled("Ashbourne Rd Lynnewood Gardens", [N, S, N, S]), [N, S, N, S]);
});

test("with no ZIP, an ordinal alone before FL is a floor", () => {
  assert.deepEqual(relabelled("1750 Tysons Blvd Fourth FL", [A, N, S, C, ST]), [
    A,
    N,
    S,
    "occupancyId",
    "occupancyType",
  ]);
  assert.deepEqual(relabelled("1750 Tysons Blvd 4th FL", [A, N, S, C, ST]), [
    A,
    N,
    S,
    "occupancyId",
    "occupancyType",
  ]);
  // A city that is no ordinal, or a ZIP after the state, leaves Florida as it is.
  assert.deepEqual(relabelled("1750 Main St Tampa FL", [A, N, S, C, ST]), [A, N, S, C, ST]);
  assert.deepEqual(relabelled("1750 Main St Fourth FL 33601", [A, N, S, C, ST, Z]), [A, N, S, C, ST, Z]);
});

test("street types labelled as a suffix before the name, with no name before them, start the name", () => {
  assert.deepEqual(relabelled("8483 Al Highway 157 Moulton AL", [A, S, S, N, C, ST]), [A, N, N, N, C, ST]);
  const answer = assembleLine("8483 Al Highway 157 Moulton AL", [A, S, S, N, C, ST], 0.9);
  assert.equal(answer.components.streetSuffix, undefined);
  // A suffix after the name, or a second street after a whole one, is left as labelled.
  assert.deepEqual(relabelled("5191 River Rd Liberty", [A, N, S, N]), [A, N, S, N]);
});

test("a letter before a one-word name that is a street type, the suffix after it, starts the name", () => {
  const NS: Label = "addressNumberSuffix";
  assert.deepEqual(relabelled("4174 C Avenue Ext Alburnett IA", [A, NS, N, S, C, ST]), [A, N, N, S, C, ST]);
  // A name that is no street type keeps the letter as the number's suffix.
  assert.deepEqual(relabelled("4174 C Main St", [A, NS, N, S]), [A, NS, N, S]);
});

test("on a line with no street type, a number ending the name and a letter directional are a unit", () => {
  const { P } = SHORT_LABELS;
  const U: Label = "occupancyId";
  assert.deepEqual(relabelled("1024 Randolph 1 N Oak Park IL", [A, N, N, P, C, C, ST]), [
    A,
    N,
    U,
    U,
    C,
    C,
    ST,
  ]);
  // With a suffix on the line, a number-only name (grid streets), or a spelled directional, not.
  assert.deepEqual(relabelled("1024 Randolph St 1 N", [A, N, S, N, P]), [A, N, S, N, P]);
  assert.deepEqual(relabelled("842 E 1700 S", [A, "predirectional", N, P]), [A, "predirectional", N, P]);
  assert.deepEqual(relabelled("1024 Randolph 1 North", [A, N, N, P]), [A, N, N, P]);
  // Nor after letters that may abbreviate a road (a county road).
  assert.deepEqual(relabelled("28030 E C R 850 N", [A, "predirectional", N, N, N, P]), [
    A,
    "predirectional",
    N,
    N,
    N,
    P,
  ]);
});

test("a junction word opening the line before a route number or a highway joins two roads", () => {
  const I: Label = "intersection";
  assert.deepEqual(relabelled("Jct 4 & 13", [N, N, I, N]), [I, N, I, N]);
  assert.deepEqual(relabelled("Crsrds Highway 139 A Cadiz KY", [N, S, N, N, C, ST]), [I, N, N, N, C, ST]);
  // A street named Junction is a street.
  assert.deepEqual(relabelled("Junction Rd Madison WI", [N, S, C, ST]), [N, S, C, ST]);
});

test("a NO right after the suffix that numbers nothing is the postdirectional", () => {
  const T: Label = "occupancyType";
  const P: Label = "postdirectional";
  assert.deepEqual(relabelled("14405 21st Ave No Ste 130", [A, N, S, T, T, "occupancyId"]), [
    A,
    N,
    S,
    P,
    T,
    "occupancyId",
  ]);
  assert.deepEqual(relabelled("2422 51st St No St Petersburg FL", [A, N, S, T, C, C, ST]), [
    A,
    N,
    S,
    P,
    C,
    C,
    ST,
  ]);
  // NO with its number is a unit (`NO 5`), and so is a NO that is not right after the suffix.
  assert.deepEqual(relabelled("12 Main St No 5", [A, N, S, T, "occupancyId"]), [A, N, S, T, "occupancyId"]);
});

test("a directional before a one-word name that is a common street type is the name, the type its suffix", () => {
  const D: Label = "predirectional";
  const T: Label = "occupancyType";
  const U: Label = "occupancyId";
  assert.deepEqual(relabelled("7322 SW Freeway Ste 1600", [A, D, N, T, U]), [A, N, S, T, U]);
  assert.equal(assembleLine("3001 N Boulevard", [A, D, N], 0.9).components.streetName, "N");
  // Before a rare type the directional leads the name; with a suffix on the line, it stands.
  assert.deepEqual(relabelled("1520 N Wells Chicago IL", [A, D, N, C, ST]), [A, D, N, C, ST]);
  assert.deepEqual(relabelled("1 N Park Dr", [A, D, N, S]), [A, D, N, S]);
});

test("a local street type C1 lacks ends the street as its suffix, kept as typed", () => {
  // Labelled as a name word after the suffix, alone as the city, or ending a name with no suffix.
  assert.deepEqual(relabelled("12 Fox Run Turn Marysville CA", [A, N, S, N, C, ST]), [A, N, N, S, C, ST]);
  assert.deepEqual(relabelled("12 Fox Run Turn, CA 95901", [A, N, S, C, ST, Z]), [A, N, N, S, ST, Z]);
  assert.deepEqual(relabelled("12 Oak Grth, Columbia MD", [A, N, N, C, ST]), [A, N, S, C, ST]);
  const answer = assemble({
    input: "12 Fox Run Turn, Marysville CA 95901",
    tokens: tokenize("12 Fox Run Turn, Marysville CA 95901"),
    labels: [A, N, S, N, C, ST, Z],
    confidence: 0.9,
    model: TEST_MODEL,
  });
  assert.equal(answer.components.streetName, "FOX RUN");
  assert.equal(answer.components.streetSuffix, "TURN");
  assert.deepEqual(
    answer.warnings.map((w) => [w.code, w.start, w.end]),
    [["unknown_suffix", 11, 15]],
  );
  // A city of words that are no street type stays the city.
  assert.deepEqual(relabelled("12 Fox Run, Marysville CA", [A, N, S, C, ST]), [A, N, S, C, ST]);
});

test("the rules read a local street type ending the street, with or without a city after it", () => {
  const rules = new RuleParser();
  for (const line of [
    "12 Fox Run Turn, Marysville CA 95901",
    "12 fox run turn marysville ca 95901",
    "12 Fox Run Turn",
    "12 Fox Run Turn, CA 95901",
  ]) {
    const c = rules.parse(line).components;
    assert.deepEqual(
      [c.streetName, c.streetSuffix, c.firm, c.other],
      ["FOX RUN", "TURN", undefined, undefined],
      line,
    );
  }
  for (const [line, suffix] of [
    ["12 Oak Grth, Columbia MD", "GRTH"],
    ["12 Oak Crt, Marysville CA", "CRT"],
    ["12 Oak Ci, Marysville CA", "CI"],
    // Forms C1 or its legacy table knows are standardized, not kept as typed.
    ["12 Oak Cir., Marysville CA", "CIR"],
    ["12 Oak Blv, Marysville CA", "BLVD"],
    ["12 Oak Bl, Marysville CA", "BLVD"],
    ["12 Oak Pky, Marysville CA", "PKWY"],
  ] as const) {
    const answer = rules.parse(line);
    assert.deepEqual([answer.components.streetName, answer.components.streetSuffix], ["OAK", suffix], line);
    const unknown = answer.warnings.some((w) => w.code === "unknown_suffix");
    assert.equal(unknown, ["GRTH", "CRT", "CI"].includes(suffix), line);
  }
  // A directional word opening the name stays the predirectional.
  const ridge = rules.parse("12 North Ridge Rd").components;
  assert.deepEqual([ridge.predirectional, ridge.streetName, ridge.streetSuffix], ["N", "RIDGE", "RD"]);
});

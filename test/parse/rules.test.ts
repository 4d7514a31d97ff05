import assert from "node:assert/strict";
import { test } from "node:test";
import { labelProblem } from "../../src/parse/assemble.js";
import { matchHighway } from "../../src/parse/vocabulary/highway.js";
import type { Components } from "../../src/parse/parse-answer.js";
import { RuleParser } from "../../src/parse/rule-parser.js";
import { cityGazetteer, tokenWords } from "../../src/parse/rules/city-gazetteer.js";
import { tokenize } from "../../src/parse/tokenize.js";
import { usZipPlaces } from "../../src/places/zip-places.js";
import { generateLines } from "../../tools/parser/address-lines.js";

/** The named components of the rules' answer to a line (absent ones as undefined). */
function componentsOf(line: string, names: readonly (keyof Components)[]): Partial<Components> {
  const components = new RuleParser().parse(line).components;
  return Object.fromEntries(names.map((name) => [name, components[name]]));
}

function words(line: string): string[] {
  return tokenize(line).map((token) => token.text);
}

test("the gazetteer finds the longest city ending the words, in the state given", () => {
  const gazetteer = cityGazetteer();
  const line = words("MAIN ST NORTH LITTLE ROCK");
  assert.equal(gazetteer.cityStart(line, 0, line.length, "AR"), 2);
  assert.equal(gazetteer.cityStart(line, 3, line.length, "AR"), 3); // LITTLE ROCK
  assert.equal(gazetteer.cityStart(line, 0, line.length, "ZZ"), -1);
  const saint = words("OAK ST ST LOUIS");
  assert.equal(gazetteer.cityStart(saint, 0, saint.length, "MO"), 2);
  const north = words("GOLFVIEW RD N PALM BEACH");
  assert.equal(gazetteer.cityStart(north, 0, north.length, "FL"), 2);
  // The name ends at `to`, whatever follows; with no state, any state's name counts.
  const middle = words("NORTH LITTLE ROCK AR 72114");
  assert.equal(gazetteer.cityStart(middle, 0, 3, "AR"), 0);
  assert.equal(gazetteer.cityStart(middle, 0, 3, undefined), 0);
  assert.equal(gazetteer.cityStart(middle, 0, 2, "AR"), -1); // NORTH LITTLE names no city there
  assert.equal(gazetteer.cityStart(words("MAIN ST QQXZY"), 0, 3, undefined), -1);
});

test("the gazetteer keys every city name of the package as the tokenizer splits it", () => {
  for (const city of new Set(usZipPlaces().map((place) => place.city))) {
    assert.deepEqual(tokenWords(city), words(city), city);
  }
});

test("a state and a bare number is a state highway only when the number is a route's", () => {
  assert.deepEqual(matchHighway(words("KY 1207"), 0)?.standard, ["KY", "HIGHWAY", "1207"]);
  assert.deepEqual(matchHighway(words("TX 71A"), 0)?.standard, ["TX", "HIGHWAY", "71A"]);
  assert.equal(matchHighway(words("MS 5-230"), 0), null); // a mail stop
  assert.equal(matchHighway(words("LA 21702"), 0), null); // five digits: a ZIP's shape
  assert.deepEqual(matchHighway(words("LA HWY 21702"), 0)?.standard, ["LA", "HIGHWAY", "21702"]);
});

test("highway names: Appendix F forms, modifiers, and words that only look like them", () => {
  assert.deepEqual(matchHighway(words("OLD US HWY 90"), 0), {
    length: 4,
    standard: ["OLD", "US", "HIGHWAY", "90"],
  });
  assert.deepEqual(matchHighway(words("SR MM"), 0), { length: 2, standard: ["STATE", "ROUTE", "MM"] });
  assert.equal(matchHighway(words("ROAD RUNNER"), 0), null); // ROAD needs a number
  assert.equal(matchHighway(words("WASHINGTON HWY NE"), 0), null);
  assert.equal(matchHighway(words("HWY 6"), 0, 1), null); // the number is past the end given
});

test("the rules' own labels always make a consistent address (labelProblem null)", () => {
  const parser = new RuleParser();
  for (const line of generateLines(3000, 11)) {
    const tokens = tokenize(line);
    assert.equal(labelProblem(tokens, parser.label(tokens).labels), null, line);
  }
});

test("a numbered unit that starts the city's comma group is a unit, and the city the rest", () => {
  const answer = new RuleParser().parse("1100 Brickell Bay Dr Panorama Tower, UNIT 24-L Miami, FL 33131");
  assert.equal(answer.components.occupancyType, "UNIT");
  assert.equal(answer.components.occupancyId, "24-L");
  assert.equal(answer.components.city, "MIAMI");
  // A designator word that starts a city's name without a number after it stays the city's.
  assert.equal(new RuleParser().parse("500 Oak Ave, Front Royal VA 22630").components.city, "FRONT ROYAL");
});

test("a number the rules read into the city lowers their confidence below the back-off's 0.9", () => {
  const rules = new RuleParser();
  const odd = rules.parse("3000 e. boundary terrace, st 2 midlothian va 23112");
  assert.equal(odd.components.city, "ST 2 MIDLOTHIAN");
  assert.ok(odd.confidence < 0.9, String(odd.confidence));
  assert.equal(rules.parse("3000 e. boundary terrace, midlothian va 23112").confidence, 1);
});

test("a state code written twice is the state, not the end of the city; a state name twice is a city", () => {
  const rules = new RuleParser();
  const twice = rules.parse("123 Main St Springfield IL IL 62701");
  assert.equal(twice.components.city, "SPRINGFIELD");
  assert.equal(twice.components.state, "IL");
  assert.deepEqual(twice.warnings, []);
  const city = rules.parse("1 Main St, New York New York 10001");
  assert.equal(city.components.city, "NEW YORK");
  assert.equal(city.components.state, "NY");
});

test("a line of nothing but unit designators is of no type, and the rules are not sure of it", () => {
  const answer = new RuleParser().parse("# # #");
  assert.equal(answer.type, "ambiguous");
  assert.equal(answer.confidence, 0.5);
  assert.ok(answer.warnings.some((warning) => warning.code === "low_confidence"));
});

test("of two ZIPs after the state the first is the ZIP and the other is kept in other", () => {
  const answer = new RuleParser().parse("123 Main St Springfield IL 62701 62702");
  assert.equal(answer.components.city, "SPRINGFIELD");
  assert.equal(answer.components.state, "IL");
  assert.equal(answer.components.zip5, "62701");
  assert.equal(answer.components.other, "62702");
  assert.deepEqual(
    answer.warnings.map((warning) => warning.code),
    ["unknown_tokens"],
  );
});

test("of two ZIPs the first is the ZIP also with its add-on, or after a known city with no state", () => {
  const rules = new RuleParser();
  const plus4 = rules.parse("123 Main St Springfield IL 62701-1234 62702").components;
  assert.deepEqual(
    [plus4.city, plus4.state, plus4.zip5, plus4.zip4, plus4.other],
    ["SPRINGFIELD", "IL", "62701", "1234", "62702"],
  );
  const noState = rules.parse("123 Main St Springfield 62701 62702").components;
  assert.deepEqual([noState.city, noState.zip5, noState.other], ["SPRINGFIELD", "62701", "62702"]);
  // No city before them: a box number and a ZIP, not two ZIPs.
  const box = rules.parse("PO Box 12345 62702").components;
  assert.deepEqual([box.poBoxId, box.zip5, box.other], ["12345", "62702", undefined]);
});

test("a number right after a Spanish prefix is the street name's, not a unit's", () => {
  const answer = new RuleParser().parse("123 Calle 5 Apt 3, Carolina PR 00985");
  assert.equal(answer.components.streetName, "CALLE 5");
  assert.deepEqual([answer.components.occupancyType, answer.components.occupancyId], ["APT", "3"]);
  assert.deepEqual(answer.warnings, []);
});

test("an urbanization written after the street ends the street and runs to the city", () => {
  const rules = new RuleParser();
  for (const line of [
    "123 Calle 5 Urb Villa Carolina, Carolina PR 00985",
    "123 Calle 5 Urb Villa Carolina Carolina PR 00985",
  ]) {
    const { components } = rules.parse(line);
    assert.deepEqual(
      [components.streetName, components.urbanization, components.city, components.firm],
      ["CALLE 5", "VILLA CAROLINA", "CAROLINA", undefined],
      line,
    );
  }
  // No state or ZIP after it: the gazetteer's CAROLINA is the urbanization's last word, not a city.
  const alone = rules.parse("123 Calle 5 Urb Villa Carolina").components;
  assert.deepEqual([alone.urbanization, alone.city], ["VILLA CAROLINA", undefined]);
});

test("a building's name before the house number keeps its units apart", () => {
  const { components } = new RuleParser().parse(
    "Cond Torre del Mar Apt 1204, 1477 Ashford Ave, San Juan PR 00907",
  );
  assert.deepEqual(
    [components.firm, components.occupancyType, components.occupancyId, components.addressNumber],
    ["COND TORRE DEL MAR", "APT", "1204", "1477"],
  );
});

test("a state word ending a street line with no ZIP needs a whole street before it", () => {
  const rules = new RuleParser();
  for (const [line, street] of [
    ["3719 Old Alabama", "OLD ALABAMA"],
    ["1112 So. Washington", "WASHINGTON"],
  ] as const) {
    const { components } = rules.parse(line);
    assert.deepEqual([components.streetName, components.state], [street, undefined], line);
  }
  // A suffix or a city the gazetteer knows before it makes the street whole.
  assert.equal(rules.parse("123 Main St Alabama").components.state, "AL");
  const city = rules.parse("123 Main Springfield Illinois").components;
  assert.deepEqual([city.streetName, city.city, city.state], ["MAIN", "SPRINGFIELD", "IL"]);
});

test("SO before a street name is the directional SOUTH", () => {
  const { components } = new RuleParser().parse("612 A So Lake St");
  assert.deepEqual(
    [components.addressNumberSuffix, components.predirectional, components.streetName],
    ["A", "S", "LAKE"],
  );
  // The whole street name stays the name.
  assert.equal(new RuleParser().parse("100 So St").components.streetName, "SO");
});

test("a state written before its city, the ZIP after both, is the state", () => {
  assert.deepEqual(
    componentsOf("101 E Market St Unit 17771 CA Long Beach 90807-9191", ["state", "city", "zip5", "other"]),
    { state: "CA", city: "LONG BEACH", zip5: "90807", other: undefined },
  );
  // A code that may end the street stays the street's: MAIN CT, in New Haven with no state.
  assert.deepEqual(componentsOf("123 Main Ct New Haven 06511", ["streetSuffix", "state"]), {
    streetSuffix: "CT",
    state: undefined,
  });
  // A city the gazetteer does not know in that state is not read so.
  assert.deepEqual(componentsOf("123 Main St CA Springfield 62701", ["state"]), { state: undefined });
});

test("a building named by a street type that names buildings, then a second street: a firm and the street", () => {
  assert.deepEqual(
    componentsOf("1 Lincoln Ctr 5400 LBJ Fwy Dallas TX 75240", [
      "firm",
      "addressNumber",
      "streetName",
      "streetSuffix",
      "city",
    ]),
    { firm: "1 LINCOLN CTR", addressNumber: "5400", streetName: "LBJ", streetSuffix: "FWY", city: "DALLAS" },
  );
  // Two streets of other types stay a street and what follows it.
  assert.deepEqual(componentsOf("123 Main St 456 Elm St Springfield IL", ["addressNumber", "firm"]), {
    addressNumber: "123",
    firm: undefined,
  });
});

test("a mail code or mail stop with its number is a unit, kept as typed; MS and MC alone are not", () => {
  const rules = new RuleParser();
  const mailCode = rules.parse("PO Box 660367 Mail Code 5021 Dallas TX 75266");
  assert.equal(mailCode.components.occupancyType, "MAIL CODE");
  assert.equal(mailCode.components.occupancyId, "5021");
  assert.equal(mailCode.components.city, "DALLAS");
  const slashed = rules.parse("728 W Roosevelt (M/C 050) Rm 287");
  assert.equal(slashed.components.streetName, "ROOSEVELT");
  assert.deepEqual(slashed.components.secondaryUnits, [
    { type: "M C", id: "050" },
    { type: "RM", id: "287" },
  ]);
  assert.ok(slashed.warnings.some((warning) => warning.code === "unknown_unit_designator"));
  assert.equal(rules.parse("PO Box 12000, MS 5-230 Vallejo, CA 94590").components.occupancyId, "5-230");
  // A state, or a name's first word, with no number after it.
  assert.equal(rules.parse("100 Main St Jackson MS 39201").components.state, "MS");
  assert.equal(rules.parse("335 Deinhard Lane Mc Call ID 83638").components.city, "MC CALL");
});

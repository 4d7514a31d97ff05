import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  C1_LEGACY_SUFFIXES,
  C1_STREET_SUFFIXES,
  C2_UNIT_DESIGNATORS,
  B_STATES,
} from "../../src/usps/generated-tables.js";
import {
  STANDARD_SUFFIXES,
  designatorNeedsNumber,
  isStandardSuffix,
  standardDirectional,
  standardState,
  standardSuffix,
  standardUnitDesignator,
  stateKind,
} from "../../src/usps/usps.js";
import { GENERATED_PATH, renderTables } from "../../tools/usps/generate-tables.js";

test("the generated tables are up to date with data/usps (run npm run generate:tables)", () => {
  const normalize = (text: string) => text.replace(/\s+/g, "").replace(/,([\]}])/g, "$1");
  assert.ok(normalize(readFileSync(GENERATED_PATH, "utf8")) === normalize(renderTables()), "out of date");
});

test("C1: every input form maps to a standard abbreviation that maps to itself", () => {
  assert.equal(C1_STREET_SUFFIXES.length, 502);
  for (const [input, standard] of C1_STREET_SUFFIXES) {
    // A standard abbreviation listed as another suffix's common form stays itself (MDW).
    const expected = isStandardSuffix(input!) ? input : standard;
    assert.equal(standardSuffix(input!), expected, input);
    assert.equal(standardSuffix(standard!), standard);
    assert.ok(isStandardSuffix(standard!));
  }
  assert.equal(STANDARD_SUFFIXES.size, 202);
});

test("C1: MDW is MEADOW's abbreviation, not a form of MEADOWS", () => {
  assert.equal(standardSuffix("MDW"), "MDW");
  assert.equal(standardSuffix("MEADOWS"), "MDWS");
  assert.equal(standardSuffix("AVENUE"), "AVE");
});

test("C1 legacy variants are accepted as input and never are standard themselves", () => {
  for (const [input, standard] of C1_LEGACY_SUFFIXES) {
    assert.equal(standardSuffix(input!), standard);
    assert.ok(isStandardSuffix(standard!), `${standard} is standard`);
    assert.ok(!isStandardSuffix(input!), `${input} is not emitted`);
  }
});

test("C2: 25 designators; those needing no number are the nine of DECISIONS.md", () => {
  assert.equal(C2_UNIT_DESIGNATORS.length, 25);
  const noNumber = C2_UNIT_DESIGNATORS.map((row) => row[1]!).filter((d) => !designatorNeedsNumber(d));
  assert.deepEqual(noNumber.sort(), ["BSMT", "FRNT", "LBBY", "LOWR", "OFC", "PH", "REAR", "SIDE", "UPPR"]);
  assert.equal(standardUnitDesignator("APARTMENT"), "APT");
  assert.equal(standardUnitDesignator("SUITE"), "STE");
  assert.equal(standardUnitDesignator("#"), "#");
  for (const [, standard] of C2_UNIT_DESIGNATORS) assert.equal(standardUnitDesignator(standard!), standard);
});

test("states: 62 codes with names and common variants; military codes are AA, AE, AP", () => {
  assert.equal(B_STATES.length, 62);
  assert.equal(standardState("CALIFORNIA"), "CA");
  assert.equal(standardState("CALIF"), "CA");
  assert.equal(standardState("PENN"), "PA");
  assert.equal(standardState("MASS"), "MA");
  assert.equal(standardState("NEW YORK"), "NY");
  assert.equal(standardState("ZZ"), undefined);
  assert.deepEqual(
    B_STATES.filter((row) => row[2] === "military")
      .map((row) => row[1])
      .sort(),
    ["AA", "AE", "AP"],
  );
  assert.equal(stateKind("PR"), "possession");
});

test("directionals: full words and abbreviations", () => {
  assert.equal(standardDirectional("NORTHWEST"), "NW");
  assert.equal(standardDirectional("S"), "S");
  assert.equal(standardDirectional("NORTHERN"), undefined);
});

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  C1_LEGACY_SUFFIXES,
  C1_STREET_SUFFIXES,
  C1_UNLISTED_SUFFIXES,
  C2_COUNTY_DESIGNATORS,
} from "../../src/usps/generated-tables.js";
import {
  countyUnitDesignator,
  designatorNeedsNumber,
  isStandardSuffix,
  isUnlistedSuffix,
  standardState,
  standardSuffix,
  standardUnitDesignator,
  STANDARD_UNIT_DESIGNATORS,
} from "../../src/usps/usps.js";

test("C1: every primary name is accepted as input (PLACE, HEIGHTS, INLET, MISSION)", () => {
  for (const [, standard, primary] of C1_STREET_SUFFIXES) {
    const expected = isStandardSuffix(primary!) ? primary : standard;
    assert.equal(standardSuffix(primary!), expected, primary);
  }
  assert.equal(standardSuffix("PLACE"), "PL");
});

test("legacy and assessor forms map to standard abbreviations and are never emitted", () => {
  for (const [input, standard] of C1_LEGACY_SUFFIXES) {
    assert.ok(isStandardSuffix(standard!), standard);
    assert.ok(!isStandardSuffix(input!), input);
  }
});

test("unlisted street type words are no C1 suffix and each says where it was seen", () => {
  assert.ok(C1_UNLISTED_SUFFIXES.length > 0);
  for (const [word, reason] of C1_UNLISTED_SUFFIXES) {
    assert.equal(standardSuffix(word!), undefined, word);
    assert.ok(isUnlistedSuffix(word!));
    assert.ok((reason ?? "").length > 10, word);
  }
});

test("county designators are no C2 input, stand for a C2 designator that takes no number, and say why", () => {
  assert.ok(C2_COUNTY_DESIGNATORS.length > 0);
  for (const [input, standard, reason] of C2_COUNTY_DESIGNATORS) {
    // Kept apart from C2: RR opening a line is a rural route, and the model's features read C2.
    assert.equal(standardUnitDesignator(input!), undefined, input);
    assert.ok(STANDARD_UNIT_DESIGNATORS.has(standard!), standard);
    assert.ok(!designatorNeedsNumber(standard!), standard);
    assert.equal(countyUnitDesignator(input!), standard);
    assert.ok((reason ?? "").length > 10, input);
  }
  assert.equal(countyUnitDesignator("RR"), "REAR");
});

test("military states are found by their full names as the tokenizer writes them", () => {
  assert.equal(standardState("ARMED FORCES EUROPE THE MIDDLE EAST AND CANADA"), "AE");
  assert.equal(standardState("ARMED FORCES PACIFIC"), "AP");
  assert.equal(standardState("ARMED FORCES AMERICAS EXCEPT CANADA"), "AA");
});

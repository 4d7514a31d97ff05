import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import {
  fuzzyOrdinalReading,
  namesNumber,
  numberedOrdinal,
  ordinalReading,
  spelledOrdinal,
} from "../../src/parcels/lookup/ordinal-name.js";
import { seededRandom } from "../../src/parcels/demo/synthetic.js";
import { perturb } from "./fuzzy-perturbation.js";

const read = (query: string): string => {
  const reading = fuzzyOrdinalReading(query);
  return reading ? `${reading.numbered} (${reading.edits})` : "none";
};

test("ordinals in both forms, and which names spell a street number as written", () => {
  const numbers = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 30, 99, 101, 111, 112, 113, 122];
  assert.deepEqual(numbers.map(numberedOrdinal), [
    ...["1ST", "2ND", "3RD", "4TH", "11TH", "12TH", "13TH", "21ST", "22ND", "23RD", "30TH", "99TH"],
    ...["101ST", "111TH", "112TH", "113TH", "122ND"],
  ]);
  assert.deepEqual([1, 5, 8, 9, 12, 20, 21, 40, 99].map(spelledOrdinal), [
    "FIRST",
    "FIFTH",
    "EIGHTH",
    "NINTH",
    "TWELFTH",
    "TWENTIETH",
    "TWENTY FIRST",
    "FORTIETH",
    "NINETY NINTH",
  ]);
  for (const name of ["1ST", "22ND", "12", "1 ST", "SECOND", "TWENTY FIRST", "TWENTYFIRST", "NINETIETH"])
    assert.equal(namesNumber(name), true, name);
  for (const name of ["IST", "11ST", "12T", "1TH2", "12TTH", "2RD", "OAK", "", "1ST AVE", "SECODN"])
    assert.equal(namesNumber(name), false, name);
  assert.equal(ordinalReading("THIRD"), "3RD");
  assert.equal(ordinalReading("3RD"), "3RD");
  assert.equal(ordinalReading("3TH"), undefined);
});

test("misspelled ordinals read as their number only when no other number is as near", () => {
  const cases: Array<[string, string]> = [
    ["SECOND", "2ND (0)"],
    ["SECODN", "2ND (1)"],
    ["FRIST", "1ST (1)"],
    ["TWENTY FRIST", "21ST (1)"],
    ["TWENTYFRIST", "21ST (1)"],
    ["THIRTETH", "none"], // THIRTIETH (1) or THIRTEENTH (2)
    ["FORTH", "none"], // FOURTH (1) or FIFTH (2)
    ["MAPLE", "none"],
    ["2ND", "2ND (0)"],
    ["2DN", "none"], // numbered typos are the street matcher's, by their digits
  ];
  for (const [query, expected] of cases) assert.equal(read(query), expected, query);
});

test("a spelled-out ordinal with one or two typos never reads as another number", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 99 }),
      fc.integer({ min: 1, max: 2 }),
      fc.nat(),
      (n, edits, seed) => {
        assert.equal(ordinalReading(spelledOrdinal(n)), numberedOrdinal(n));
        const query = perturb(spelledOrdinal(n), edits, seededRandom(seed));
        fc.pre(ordinalReading(query) === undefined || query === spelledOrdinal(n)); // not another ordinal
        const reading = fuzzyOrdinalReading(query);
        if (reading) assert.equal(reading.numbered, numberedOrdinal(n), `${spelledOrdinal(n)} → ${query}`);
      },
    ),
    { numRuns: 3000 },
  );
});

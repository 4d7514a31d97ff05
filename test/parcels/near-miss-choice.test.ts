import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { chooseNearMiss } from "../../src/parcels/lookup/near-miss-choice.js";
import { numberedOrdinal as ordinal, spelledOrdinal } from "../../src/parcels/lookup/ordinal-name.js";
import { StreetMatcher } from "../../src/parcels/lookup/street-matcher.js";
import { seededRandom } from "../../src/parcels/demo/synthetic.js";
import { perturb } from "./fuzzy-perturbation.js";

/** What a near miss answers when every street of `streets` fits the house number. */
function choose(query: string, streets: readonly string[]): string {
  const fits = new StreetMatcher(streets).near(query).map((street) => ({ street }));
  const choice = chooseNearMiss(query, fits);
  if (choice.kind === "none") return "none";
  if (choice.kind === "ambiguous")
    return `ambiguous ${choice.contenders.map((c) => c.street.name).join(",")}`;
  return `${choice.answer.street.name} (${choice.edits})`;
}

const CASES: Array<{ name: string; query: string; streets: string[]; expected: string }> = [
  // Edits that keep the digits: the ordinal suffix misspelled, doubled, cut, or moved.
  { name: "doubled suffix letter", query: "12TTH", streets: ["12TH", "13TH"], expected: "12TH (1)" },
  { name: "suffix letter lost", query: "12H", streets: ["12TH", "2ND"], expected: "12TH (1)" },
  { name: "suffix cut", query: "12T", streets: ["12TH", "11TH"], expected: "12TH (1)" },
  { name: "as near to 1ST", query: "12T", streets: ["12TH", "1ST"], expected: "ambiguous 12TH,1ST" },
  { name: "digit moved", query: "1TH2", streets: ["12TH", "3RD"], expected: "12TH (2)" },
  { name: "moved, or 11TH", query: "1TH2", streets: ["12TH", "11TH"], expected: "ambiguous 12TH,11TH" },
  { name: "swapped digits", query: "21TH", streets: ["12TH", "21ST"], expected: "ambiguous 12TH,21ST" },
  { name: "suffix swapped", query: "5HT", streets: ["5TH", "4TH", "1ST"], expected: "5TH (1)" },
  { name: "4TD is 4TH, not 3RD", query: "4TD", streets: ["4TH", "3RD", "2ND"], expected: "4TH (1)" },
  // A digit lost: the street that still has every digit of the query contends at its distance.
  { name: "12TH lost its 2", query: "1TS", streets: ["1ST", "12TH"], expected: "ambiguous 1ST,12TH" },
  // Digit guesses: the query has no street number of its own.
  { name: "digit typed as a letter", query: "IST", streets: ["1ST", "2ND", "OAK"], expected: "1ST (2)" },
  { name: "3RD as SRD", query: "SRD", streets: ["3RD", "4TH", "ELM"], expected: "3RD (2)" },
  { name: "digit lost", query: "ST", streets: ["1ST", "OAK"], expected: "1ST (2)" },
  { name: "doubled digit, malformed", query: "11ST", streets: ["1ST", "2ND"], expected: "1ST (2)" },
  { name: "guess with a second fit", query: "IST", streets: ["1ST", "21ST"], expected: "none" },
  { name: "11ST: 1ST or 11TH", query: "11ST", streets: ["1ST", "11TH"], expected: "ambiguous 1ST,11TH" },
  { name: "named street nearer", query: "AND", streets: ["2ND", "ANDE"], expected: "ambiguous 2ND,ANDE" },
  // Never a guess: the query names another street number, or the guess changes a digit.
  { name: "another ordinal", query: "13TH", streets: ["12TH"], expected: "none" },
  { name: "doubled digit, well formed", query: "22ND", streets: ["2ND"], expected: "none" },
  { name: "a bare number", query: "12", streets: ["12TH", "1ST"], expected: "ambiguous 12TH,1ST" },
  { name: "digit changed", query: "5HT", streets: ["4TH"], expected: "none" },
  { name: "two edits on three characters", query: "GMST", streets: ["1ST"], expected: "none" },
  { name: "two digits lost", query: "ST", streets: ["21ST"], expected: "none" },
  // Named streets.
  { name: "typo", query: "MIAN", streets: ["MAIN", "MAPLE"], expected: "MAIN (1)" },
  {
    name: "twins",
    query: "HAMILTONN",
    streets: ["HAMILTON", "HAMILTONE"],
    expected: "ambiguous HAMILTON,HAMILTONE",
  },
  { name: "short name, one edit", query: "BAR", streets: ["BAY", "ELM"], expected: "BAY (1)" },
  {
    name: "short name beyond its budget contends",
    query: "BAR",
    streets: ["BAY", "OAK"],
    expected: "ambiguous BAY,OAK",
  },
  { name: "two edits of a short name", query: "OBB", streets: ["OAK"], expected: "none" },
  // Spelled-out ordinals carry their number: the other form is a variant, one edit more.
  { name: "spelled ordinal with a typo", query: "FRIST", streets: ["FIRST", "FIFTH"], expected: "FIRST (1)" },
  {
    name: "spelled out, numbered in the index",
    query: "SECOND",
    streets: ["2ND", "3RD"],
    expected: "2ND (1)",
  },
  {
    name: "numbered, spelled out in the index",
    query: "2ND",
    streets: ["SECOND", "THIRD"],
    expected: "SECOND (1)",
  },
  {
    name: "misspelled, numbered in the index",
    query: "SECODN",
    streets: ["2ND", "1ST"],
    expected: "2ND (2)",
  },
  { name: "compound ordinal", query: "TWENTY FIRST", streets: ["21ST", "1ST"], expected: "21ST (1)" },
  { name: "a typo between two numbers", query: "THIRTETH", streets: ["THIRTIETH"], expected: "none" },
  { name: "another spelled number", query: "THIRTEENTH", streets: ["THIRTIETH", "OAK"], expected: "none" },
];

test("near-miss choices, table-driven", () => {
  for (const c of CASES) assert.equal(choose(c.query, c.streets), c.expected, c.name);
});

/** Street sets with collisions: ordinals up to 40 in both forms, near twins, words of few letters. */
const streets = fc.uniqueArray(
  fc.oneof(
    fc.integer({ min: 1, max: 40 }).map(ordinal),
    fc.integer({ min: 1, max: 40 }).map((n) => `${ordinal(n)}E`),
    fc.integer({ min: 1, max: 40 }).map(spelledOrdinal),
    fc.stringMatching(/^[A-F]{3,7}$/),
  ),
  { minLength: 1, maxLength: 30 },
);

test("a street name perturbed by one or two typos is never matched to another street", () => {
  fc.assert(
    fc.property(streets, fc.nat(), fc.integer({ min: 1, max: 2 }), fc.nat(), (names, at, edits, seed) => {
      const truth = names[at % names.length]!;
      const query = perturb(truth, edits, seededRandom(seed));
      fc.pre(!names.includes(query));
      // Any subset of the other streets fits the house number too; the true street always does.
      const fitting = new Set(names.filter((_, i) => (seed >> (i % 30)) & 1));
      fitting.add(truth);
      const fits = new StreetMatcher(names)
        .near(query)
        .filter((street) => fitting.has(street.name))
        .map((street) => ({ street }));
      const choice = chooseNearMiss(query, fits);
      if (choice.kind === "matched") assert.equal(choice.answer.street.name, truth, `${truth} → ${query}`);
    }),
    { numRuns: 3000 },
  );
});

test("a query that spells a street number never answers a street with other digits", () => {
  fc.assert(
    fc.property(streets, fc.integer({ min: 1, max: 60 }), (names, n) => {
      const query = ordinal(n);
      fc.pre(!names.includes(query));
      const fits = new StreetMatcher(names).near(query).map((street) => ({ street }));
      const choice = chooseNearMiss(query, fits);
      if (choice.kind === "matched") assert.equal(choice.answer.street.sameDigits, true, query);
    }),
    { numRuns: 1000 },
  );
});

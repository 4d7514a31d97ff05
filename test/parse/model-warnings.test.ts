import assert from "node:assert/strict";
import { test } from "node:test";
import type { Label } from "../../src/parse/labels.js";
import { streetCityGuess } from "../../src/parse/model/model-warnings.js";
import { tokenize } from "../../src/parse/tokenize.js";

function guess(line: string, labels: Label[]): string | undefined {
  const warning = streetCityGuess(tokenize(line), labels);
  return warning === undefined ? undefined : line.slice(warning.start, warning.end);
}

const tail: Label[] = ["city", "state", "zip5"];

test("a rare suffix or no suffix running into the city is flagged, with its span", () => {
  assert.equal(
    guess("103 Maple Arcade Anytown CA 90210", ["addressNumber", "streetName", "streetSuffix", ...tail]),
    "Arcade Anytown",
  );
  assert.equal(
    guess("123 Broadway Anytown CA 90210", ["addressNumber", "streetName", ...tail]),
    "Broadway Anytown",
  );
});

test("a suffix that is no Publication 28 word gives ambiguous_type over that word", () => {
  const line = "123 Main Blvrd Anytown IL 62701";
  const warning = streetCityGuess(tokenize(line), ["addressNumber", "streetName", "streetSuffix", ...tail]);
  assert.equal(warning?.code, "ambiguous_type");
  assert.equal(line.slice(warning.start, warning.end), "Blvrd");
});

test("a city the gazetteer knows, or an intersection, fixes the boundary: nothing raised", () => {
  assert.equal(
    guess("123 Broadway New York NY 10001", ["addressNumber", "streetName", "city", ...tail]),
    undefined,
  );
  assert.equal(
    guess("Main and Elm Anytown IL", ["streetName", "intersection", "streetName", "city", "state"]),
    undefined,
  );
});

test("a common suffix, a comma, a grid or highway number, or a leading type word raise nothing", () => {
  assert.equal(
    guess("123 Main St Anytown CA 90210", ["addressNumber", "streetName", "streetSuffix", ...tail]),
    undefined,
  );
  assert.equal(
    guess("103 Maple Arcade, Anytown CA 90210", ["addressNumber", "streetName", "streetSuffix", ...tail]),
    undefined,
  );
  assert.equal(
    guess("4200 FM 1960 Houston TX 77068", ["addressNumber", "streetName", "streetName", ...tail]),
    undefined,
  );
  assert.equal(
    guess("9912 Avenue H Chicago IL 60617", ["addressNumber", "streetName", "streetName", ...tail]),
    undefined,
  );
  assert.equal(
    guess("842 E 1700 S Richfield UT", [
      "addressNumber",
      "predirectional",
      "streetName",
      "postdirectional",
      "city",
      "state",
    ]),
    undefined,
  );
});

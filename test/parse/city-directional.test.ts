import assert from "node:assert/strict";
import { test } from "node:test";
import { directionalBeforeCity } from "../../src/parse/model/city-directional.js";
import type { Label } from "../../src/parse/labels.js";
import { relabelLine, SHORT_LABELS } from "../support/labelled-lines.js";

const { A, N, S, P, C, ST, Z } = SHORT_LABELS;

const relabelled = (line: string, labels: Label[]) => relabelLine(directionalBeforeCity, line, labels);

test("a directional starting a city the state does not have is the street's postdirectional", () => {
  assert.deepEqual(relabelled("123 Main St North Springfield IL", [A, N, S, C, C, ST]), [A, N, S, P, C, ST]);
  // After a comma too, and after a street with no suffix.
  assert.deepEqual(relabelled("1 First St, E San Jose CA", [A, N, S, C, C, C, ST]), [A, N, S, P, C, C, ST]);
  assert.deepEqual(relabelled("44 Broadway N Springfield IL", [A, N, C, C, ST]), [A, N, P, C, ST]);
});

test("a postdirectional that makes a known city with the words after it is the city's", () => {
  assert.deepEqual(relabelled("525 Okeechobee Blvd W Palm Beach FL 33401", [A, N, S, P, C, C, ST, Z]), [
    A,
    N,
    S,
    C,
    C,
    C,
    ST,
    Z,
  ]);
  assert.deepEqual(relabelled("7700 Northshore Dr North Little Rock AR", [A, N, S, P, C, C, ST]), [
    A,
    N,
    S,
    C,
    C,
    C,
    ST,
  ]);
});

test("readings the gazetteer confirms, or cannot judge, stand", () => {
  const cases: Array<[string, Label[]]> = [
    // Known cities, read as such.
    ["525 Okeechobee Blvd W Palm Beach FL", [A, N, S, C, C, C, ST]],
    ["123 Main St N Springfield IL", [A, N, S, P, C, ST]],
    // No state: either reading could be right.
    ["123 Main St North Springfield", [A, N, S, C, C]],
    ["123 Main St W Palm Beach", [A, N, S, P, C, C]],
    // Neither reading is a known city of the state.
    ["123 Main St North Anytown IL", [A, N, S, C, C, ST]],
    ["123 Main St N Anytown IL", [A, N, S, P, C, ST]],
    // A comma after the postdirectional ends the street there.
    ["525 Okeechobee Blvd W, Palm Beach FL", [A, N, S, P, C, C, ST]],
    // The street has its postdirectional already.
    ["1755 Flowers Crossing Dr N E Grand Rapids MI", [A, N, N, S, P, C, C, C, ST]],
  ];
  for (const [line, labels] of cases) {
    const out = relabelled(line, labels);
    assert.deepEqual(out, labels, line);
    assert.equal(out, labels, `${line}: the same array when nothing changes`);
  }
});

import assert from "node:assert/strict";
import { test } from "node:test";
import { firmLabels } from "../../src/parse/assembly/firm-labels.js";
import type { Label } from "../../src/parse/labels.js";
import { assembleLine, relabelLine, SHORT_LABELS } from "../support/labelled-lines.js";

const { A, N, S, C, ST, Z } = SHORT_LABELS;
const T: Label = "occupancyType";
const U: Label = "occupancyId";
const F: Label = "firm";

const relabelled = (line: string, labels: Label[]) => relabelLine(firmLabels, line, labels);

test("words before a known city of the line's state that make no city there are a firm", () => {
  const line = "2855 Main St Ste 110 Burns Prof Blg Blue Ridge GA 30513";
  const labels: Label[] = [A, N, S, T, U, C, C, C, C, C, ST, Z];
  assert.deepEqual(relabelled(line, labels), [A, N, S, T, U, F, F, F, C, C, ST, Z]);
  const answer = assembleLine(line, labels, 0.9);
  assert.equal(answer.components.firm, "BURNS PROF BLG");
  assert.equal(answer.components.city, "BLUE RIDGE");
  assert.deepEqual(
    answer.warnings.map((warning) => warning.code),
    [],
  );
  // A city name of the state is taken whole, the longest known: NORTH BREAKERS is no city of
  // Georgia, SAINT SIMONS ISLAND is one.
  assert.deepEqual(
    relabelled("1470 Wood Ave 500 North Breakers Saint Simons Island Georgia 31522", [
      A,
      N,
      S,
      U,
      C,
      C,
      C,
      C,
      C,
      ST,
      Z,
    ]),
    [A, N, S, U, F, F, C, C, C, ST, Z],
  );
});

test("a city the gazetteer knows whole, or a line it cannot place, keeps its labels", () => {
  const unchanged = (line: string, labels: Label[]) => assert.equal(relabelled(line, labels), labels, line);
  // The whole city is known in the state.
  unchanged("1 Main St West Palm Beach FL 33401", [A, N, S, C, C, C, ST, Z]);
  // A lone directional before a known city is city-directional.ts's to settle.
  unchanged("1 Main St E Grand Rapids MI 49506", [A, N, S, C, C, C, ST, Z]);
  // No state to read the city in, no city of the state ending the words, a firm elsewhere.
  unchanged("1 Main St Burns Prof Blg Blue Ridge", [A, N, S, C, C, C, C, C]);
  unchanged("1 Main St Burns Prof Blg Blue Ridge CA 90001", [A, N, S, C, C, C, C, C, ST, Z]);
  unchanged("Acme 1 Main St Burns Blue Ridge GA 30513", [F, A, N, S, C, C, C, ST, Z]);
});

test("an attention line is the firm up to a comma, the city or a number of its own", () => {
  // DEPT # 528 stays in the line: the number follows its `#`.
  assert.deepEqual(relabelled("Attn Dept # 528, 4th Floor", [F, T, U, U, U, T]), [F, F, F, F, U, T]);
  assert.deepEqual(
    relabelled("PO Box 39000 Attn A R San Francisco CA", [
      "poBoxType",
      "poBoxType",
      "poBoxId",
      F,
      T,
      U,
      C,
      C,
      ST,
    ]),
    ["poBoxType", "poBoxType", "poBoxId", F, F, F, C, C, ST],
  );
  // A house number ends it, and so does a unit designator with its number.
  assert.deepEqual(relabelled("Attn Billing 123 Main St", [F, N, A, N, S]), [F, F, A, N, S]);
  assert.deepEqual(relabelled("Attn J Smith Ste 200", [F, N, N, T, U]), [F, F, F, T, U]);
});

test("a number and words ending in a building word, with no street type, are a building: a firm", () => {
  assert.deepEqual(relabelled("1700 Wells Fargo Tower", [A, N, N, N]), [F, F, F, F]);
  // A unit of its own after it is the building's suite.
  assert.deepEqual(relabelled("1600 Crestar Bank Bldg Ste 2", [A, N, N, T, T, U]), [F, F, F, F, T, U]);
  assert.deepEqual(relabelled("1600 Crestar Bank Bldg, Ste 2", [A, N, N, N, T, U]), [F, F, F, F, T, U]);
  // The building numbered after its word is a unit; a street type makes the words a street.
  assert.deepEqual(relabelled("1 Medical Park Tower 5", [A, N, N, T, U]), [A, N, N, T, U]);
  assert.deepEqual(relabelled("1 Medical Park Tower 5", [A, N, N, N, U]), [A, N, N, N, U]);
  assert.deepEqual(relabelled("59 Main St Building 3", [A, N, S, T, U]), [A, N, S, T, U]);
});

import assert from "node:assert/strict";
import { test } from "node:test";
import { CANONICAL_COLUMNS } from "../src/parcels/ingest/column-mapping.js";
import { LOOKUP_COMPONENTS } from "../src/parcels/lookup-types.js";
import { TEXT_FIELDS } from "../src/parcels/parcel-row.js";
import { LABELS } from "../src/parse/labels.js";
import { STRING_COMPONENTS } from "../src/parse/parse-answer.js";

/** The names of `list` that are components, in the parse answer's order. */
const componentsOf = (list: readonly string[]): string[] =>
  STRING_COMPONENTS.filter((name) => list.includes(name));

test("the index stores its text columns in the chunk format's order", () => {
  // docs/parcel-index.md "Chunk payload": the order is part of every chunk written, so a change
  // to the parse answer's list must not move a column.
  assert.deepEqual(TEXT_FIELDS, [
    "apn",
    "fips",
    "addressNumber",
    "addressNumberSuffix",
    "predirectional",
    "streetName",
    "streetSuffix",
    "postdirectional",
    "occupancyType",
    "occupancyId",
    "city",
    "state",
    "zip5",
    "zip4",
  ]);
  assert.deepEqual(TEXT_FIELDS.slice(2), LOOKUP_COMPONENTS);
  assert.deepEqual(CANONICAL_COLUMNS.slice(0, TEXT_FIELDS.length), TEXT_FIELDS);
});

test("the lists that spell component names keep the parse answer's names in its order", () => {
  assert.deepEqual(componentsOf(LOOKUP_COMPONENTS), LOOKUP_COMPONENTS);
  assert.deepEqual(componentsOf(CANONICAL_COLUMNS), LOOKUP_COMPONENTS);
  // The parser's labels: the components, and two labels that no component has.
  assert.deepEqual(
    LABELS.filter((label) => label !== "generalDelivery" && label !== "intersection"),
    STRING_COMPONENTS,
  );
});

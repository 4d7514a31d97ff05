import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import type { ColumnMapping } from "../../src/parcels/ingest/column-mapping.js";
import { nationalGazetteer } from "../../src/places/gazetteer.js";
import type { RowResult } from "../../src/parcels/ingest/row-reader.js";
import { isReject } from "../../src/parcels/ingest/row-reader.js";
import { parseDecimal, RowReader } from "../../src/parcels/ingest/row-reader.js";

test("coordinates parse exactly as Number() does, fast path or not", () => {
  const plain = fc
    .tuple(
      fc.boolean(),
      fc.nat({ max: 999 }),
      fc.option(fc.stringMatching(/^[0-9]{0,14}$/), { nil: undefined }),
    )
    .map(
      ([negative, whole, fraction]) =>
        `${negative ? "-" : ""}${whole}${fraction === undefined ? "" : `.${fraction}`}`,
    );
  const odd = fc.constantFrom(
    "",
    "-",
    ".",
    "-0",
    ".5",
    "1.",
    "1e5",
    "+3",
    "1.2.3",
    "1234567890123456",
    "0x10",
  );
  fc.assert(
    fc.property(fc.oneof(plain, odd, fc.string({ maxLength: 8 })), (text) => {
      assert.ok(Object.is(parseDecimal(text), Number(text)), text);
    }),
    { numRuns: 20_000 },
  );
});

test("a geometry's point is the row's coordinates unless lat/lon columns are mapped; a problem rejects", () => {
  const gazetteer = nationalGazetteer();
  const mapping: ColumnMapping = { columns: { apn: "APN", street: "STREET" }, constants: { fips: "06001" } };
  const reader = new RowReader("parcels.geojson", ["APN", "STREET", "Y", "X"], mapping, gazetteer);
  const row = (result: RowResult) => (isReject(result) ? assert.fail(JSON.stringify(result)) : result);
  const placed = row(reader.read(1, ["1", "MAIN ST", "", ""], { lon: -122.2712, lat: 37.8044 }));
  assert.deepEqual([placed.lat, placed.lon], [37.8044, -122.2712]);
  assert.match(placed.zip5, /^946/, "the ZIP nearest the point");
  const unplaced = row(reader.read(2, ["2", "OAK ST", "", ""], null));
  assert.deepEqual([unplaced.lat, unplaced.lon], [null, null]);
  assert.deepEqual(reader.read(3, ["3", "ELM ST", "", ""], null, "a line geometry has no parcel point"), {
    file: "parcels.geojson",
    line: 3,
    reason: "a line geometry has no parcel point",
  });
  const columns = new RowReader(
    "p.geojson",
    ["APN", "STREET", "Y", "X"],
    { ...mapping, columns: { ...mapping.columns, lat: "Y", lon: "X" } },
    gazetteer,
  );
  const mapped = row(columns.read(4, ["4", "PINE ST", "37.9", "-122.3"], { lon: -122.2712, lat: 37.8044 }));
  assert.deepEqual([mapped.lat, mapped.lon], [37.9, -122.3]);
});

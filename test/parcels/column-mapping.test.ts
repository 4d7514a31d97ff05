import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
  checkMappedFields,
  layoutMapping,
  OPENADDRESSES_GEOJSON_MAPPING,
  OPENADDRESSES_MAPPING,
  parseMapping,
} from "../../src/parcels/ingest/column-mapping.js";
import { openSource } from "../../src/parcels/sources/open-source.js";
import { temporaryDir } from "./index-fixtures.js";

test("a mapping may name a whole-address field, the format, the layer and the missing values", () => {
  const json = {
    columns: { apn: "PIN", address: "SITUS_ADDR" },
    constants: { fips: "53053" },
    format: "shapefile",
    layer: "parcels",
    missing: ["<Null>", "0"],
    optional: ["address"],
  };
  assert.deepEqual(parseMapping(json), json);
});

test("a mapping's problems are all named, unknown keys included", () => {
  assert.throws(
    () =>
      parseMapping({
        columns: { apn: "PIN", house: "NO" },
        constants: { address: "1 MAIN ST" },
        format: "xlsx",
        layer: 2,
        missing: "NA",
        colums: {},
      }),
    (error: Error) => {
      for (const problem of [
        'unknown key "colums"',
        'unknown field "house"',
        'unknown constant "address"',
        '"format" must be one of csv, geojson, geojsonl, shapefile, gdal',
        '"layer" must be a string',
        '"missing" must be a list of strings',
      ])
        assert.ok(error.message.includes(problem), `${problem} in ${error.message}`);
      return true;
    },
  );
});

test("the OpenAddresses layout is its CSV or its GeoJSON-lines mapping, by format", () => {
  assert.equal(layoutMapping("openaddresses", "csv"), OPENADDRESSES_MAPPING);
  assert.equal(layoutMapping("openaddresses", "geojsonl"), OPENADDRESSES_GEOJSON_MAPPING);
  assert.equal(layoutMapping("canonical", "geojson").columns.apn, "apn");
});

test("a field the file lacks is named with the file's format and fields", async (t) => {
  const file = join(temporaryDir(t), "oa.geojson");
  writeFileSync(file, '{"type":"Feature","properties":{"number":"1","street":"MAIN ST"},"geometry":null}\n');
  const source = await openSource(file);
  assert.throws(
    () => checkMappedFields(source, OPENADDRESSES_MAPPING),
    /oa\.geojson: the geojsonl file has no field LON, LAT, NUMBER, STREET, UNIT, CITY, REGION, POSTCODE, ID \(its fields: number, street\)/,
  );
  assert.doesNotThrow(() => checkMappedFields(source, OPENADDRESSES_GEOJSON_MAPPING));
});

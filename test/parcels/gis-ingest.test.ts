import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { openParser } from "../../src/app/composition.js";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import { parseMapping } from "../../src/parcels/ingest/column-mapping.js";
import { ingest } from "../../src/parcels/ingest/ingest.js";
import { suggestMapping } from "../../src/parcels/ingest/mapping-suggestion.js";
import { openSource } from "../../src/parcels/sources/open-source.js";
import { profileSource } from "../../src/parcels/sources/source-profile.js";
import { projectPath } from "../../src/paths.js";
import { exportedRows, SHARED_PARCELS, temporaryDir } from "./index-fixtures.js";
import { GIS } from "./sources/source-fixtures.js";

const skip = existsSync(SHARED_PARCELS) ? false : "needs ../shared/data (absent)";
const mappingFile = (name: string): string => projectPath("data", "parcel-mappings", `${name}.json`);

/**
 * Each shared GIS file, its shipped mapping, its county FIPS and its bounding box (gis/README.md;
 * Yuba's is given there in State Plane feet, 6668219.5, 2113308.1 to 6837753.8, 2349628.1: these
 * are its corners through gdaltransform -s_srs EPSG:2226 -t_srs EPSG:4326).
 */
const COUNTIES: Array<{
  file: string;
  mapping: string;
  fips: string;
  box: [number, number, number, number];
}> = [
  {
    file: GIS.sanFrancisco,
    mapping: "san-francisco",
    fips: "06075",
    box: [-122.4249, 37.7709, -122.411, 37.7835],
  },
  { file: GIS.yuba, mapping: "yuba", fips: "06115", box: [-121.6253, 38.961, -121.02, 39.6134] },
  { file: GIS.saline, mapping: "saline", fips: "05125", box: [-92.4923, 34.6003, -92.4765, 34.6133] },
  { file: GIS.davis, mapping: "davis", fips: "49011", box: [-111.9252, 40.8311, -111.7961, 40.9448] },
  { file: GIS.pierce, mapping: "pierce", fips: "53053", box: [-122.2926, 46.858, -122.2487, 46.8821] },
  { file: GIS.bucks, mapping: "bucks", fips: "42017", box: [-74.98346, 40.05464, -74.96797, 40.0614] },
];

test(
  "every shared GIS file ingests with its shipped mapping, points inside its county",
  { skip },
  async (t) => {
    const parser = openParser({}, () => undefined);
    for (const county of COUNTIES) {
      const store = new LocalBlobStore(temporaryDir(t));
      const mapping = parseMapping(JSON.parse(readFileSync(mappingFile(county.mapping), "utf8")));
      const inputs = [{ file: county.file, mapping }];
      const report = await ingest({ store, inputs, parser, sealWorkers: 0 });
      const rows = await exportedRows(store);
      assert.equal(rows.length, report.rows - report.rejected);
      // Every layer has situs addresses, split ones or one whole-address field (Davis, Pierce).
      const withStreet = rows.filter((row) => row.streetName !== "" && row.addressNumber !== "");
      assert.ok(
        withStreet.length > 0.8 * rows.length,
        `${county.mapping}: ${withStreet.length} of ${rows.length}`,
      );
      // rejects: address points repeated at other points (Yuba, Bucks)
      assert.ok(
        report.rejected <= 0.1 * report.rows,
        `${county.mapping}: ${report.rejected} of ${report.rows} rejected`,
      );
      const [west, south, east, north] = county.box;
      const margin = 1e-4;
      for (const row of rows) {
        const [lon, lat] = [Number(row.lon), Number(row.lat)];
        assert.equal(row.fips, county.fips);
        assert.ok(
          lon >= west - margin && lon <= east + margin && lat >= south - margin && lat <= north + margin,
          `${county.mapping} ${row.apn} ${row.addressNumber} ${row.streetName}: ${lon}, ${lat}`,
        );
      }
    }
  },
);

test(
  "the suggested mapping of every shared file is its shipped mapping, constants aside",
  { skip },
  async () => {
    const cases: Array<[string, string]> = [
      ...COUNTIES.map((c): [string, string] => [c.file, c.mapping]),
      [join(SHARED_PARCELS, "kodiak_island_borough.csv"), "kodiak"],
      ...[
        "alameda_county_spad_situs.csv",
        "berkeley_parcels.csv",
        "oakland_parcels_2013_centroids.csv",
        "utah_sevier_address_points.csv",
      ].map((name): [string, string] => [join(SHARED_PARCELS, name), "county-layout"]),
    ];
    for (const [file, name] of cases) {
      const shipped = parseMapping(JSON.parse(readFileSync(mappingFile(name), "utf8")));
      const { mapping } = suggestMapping(await profileSource(await openSource(file)));
      assert.deepEqual(mapping.columns, shipped.columns, `${file} against ${name}.json`);
    }
  },
);

test(
  "a single-county layer's state and FIPS are suggested from its points and county code",
  { skip },
  async () => {
    const constants = async (file: string) =>
      suggestMapping(await profileSource(await openSource(file))).mapping.constants;
    // Pierce: points in Washington, FIPS_NR 053 everywhere; Bucks: region empty, points in Pennsylvania.
    assert.deepEqual(await constants(GIS.pierce), { state: "WA", fips: "53053" });
    assert.deepEqual(await constants(GIS.bucks), { state: "PA" });
    assert.deepEqual(await constants(GIS.sanFrancisco), { state: "CA" }, "no county code field: no FIPS");
  },
);

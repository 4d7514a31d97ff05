import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { projectPath } from "../../src/paths.js";
import { temporaryDir } from "../parcels/index-fixtures.js";

function situs(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [projectPath("bin", "situs"), ...args], { encoding: "utf8" });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** OpenAddresses GeoJSON-lines: three Berkeley address points. */
function writeOpenAddresses(file: string): string {
  const line = (number: string, street: string, lon: number, lat: number): string =>
    JSON.stringify({
      type: "Feature",
      properties: {
        id: "",
        unit: "",
        number,
        street,
        city: "",
        district: "",
        region: "CA",
        postcode: "94704",
        hash: "",
      },
      geometry: { type: "Point", coordinates: [lon, lat] },
    });
  writeFileSync(
    file,
    [
      line("2408", "Atherton Street", -122.2647, 37.8658),
      line("2418", "Dana St", -122.2612, 37.8658),
      line("1", "", -122.26, 37.86),
    ]
      .map((l) => `${l}\n`)
      .join(""),
  );
  return file;
}

test("ingest: the file format is detected and the layout named apart (--format openaddresses as --layout)", (t) => {
  const dir = temporaryDir(t);
  const file = writeOpenAddresses(join(dir, "berkeley.geojson"));
  for (const options of [
    ["--format", "openaddresses"],
    ["--layout", "openaddresses", "--format", "geojsonl"],
  ]) {
    const run = situs(
      "ingest",
      "--index",
      join(dir, `index${options.length}`),
      ...options,
      "--fips",
      "06001",
      file,
    );
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /rows 3, rejected 1, parcels 2/);
  }
  const wrong = situs("ingest", "--index", join(dir, "x"), "--format", "xml", file);
  assert.equal(wrong.status, 1);
  assert.match(
    wrong.stderr,
    /unknown format "xml" \(csv, geojson, geojsonl, shapefile, gdal; layouts: canonical, openaddresses, mapped\)/,
  );
  const csvLayout = situs(
    "ingest",
    "--index",
    join(dir, "y"),
    "--format",
    "csv",
    "--layout",
    "openaddresses",
    file,
  );
  assert.equal(csvLayout.status, 1);
  assert.match(csvLayout.stderr, /berkeley\.geojson: the header has no column LON, LAT/);
});

test("ingest --inspect: format, fields and a suggested mapping that ingest accepts", (t) => {
  const dir = temporaryDir(t);
  const file = writeOpenAddresses(join(dir, "berkeley.geojson"));
  const mapping = join(dir, "mapping.json");
  const run = situs("ingest", "--inspect", file, "--output", mapping);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^format: geojsonl$/m);
  assert.match(run.stdout, /^geometry: Point 3$/m);
  assert.match(run.stdout, /^records read: 3$/m);
  assert.match(run.stdout, /^ {2}street +66.7% +2 +"Atherton Street", "Dana St"$/m);
  assert.match(run.stdout, /note: no 5-digit county FIPS field: give --fips or constants\.fips/);
  assert.deepEqual(JSON.parse(readFileSync(mapping, "utf8")).columns, {
    apn: "id",
    addressNumber: "number",
    street: "street",
    occupancyId: "unit",
    city: "city",
    state: "region",
    zip5: "postcode",
  });
  const ingested = situs(
    "ingest",
    "--index",
    join(dir, "index"),
    "--mapping",
    mapping,
    "--fips",
    "06001",
    file,
  );
  assert.equal(ingested.status, 0, ingested.stderr);
  assert.match(ingested.stdout, /rows 3, rejected 1, parcels 2/);
});

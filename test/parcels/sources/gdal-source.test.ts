import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { openSource } from "../../../src/parcels/sources/open-source.js";
import { temporaryDir } from "../index-fixtures.js";
import { NEEDS_GDAL, featureCollection, named, ogr2ogr, pointFeature, readAll } from "./source-fixtures.js";

function writeGeoJson(dir: string, name: string, count: number): string {
  const file = join(dir, `${name}.geojson`);
  const features = Array.from({ length: count }, (_, i) =>
    pointFeature(-111.86 + i * 1e-4, 40.87, {
      apn: `0410000${String(i).padStart(2, "0")}`,
      address: `${i + 1} MAIN ST`,
    }),
  );
  writeFileSync(file, featureCollection(features));
  return file;
}

test(
  "a GeoPackage through ogr2ogr: its layers, the one named, reprojected points",
  { skip: NEEDS_GDAL },
  async (t) => {
    const dir = temporaryDir(t);
    const gpkg = join(dir, "county.gpkg");
    ogr2ogr("-f", "GPKG", gpkg, writeGeoJson(dir, "a", 3), "-nln", "parcels", "-t_srs", "EPSG:3857");
    ogr2ogr("-f", "GPKG", "-update", gpkg, writeGeoJson(dir, "b", 2), "-nln", "address points");
    await assert.rejects(
      openSource(gpkg),
      /county\.gpkg: 2 layers \(parcels, address points\); name one with --layer/,
    );
    const source = await openSource(gpkg, { layer: "parcels" });
    assert.equal(source.format, "gdal");
    assert.deepEqual(source.fields, ["apn", "address"]);
    const records = await readAll(source);
    assert.deepEqual(
      records.map((r) => named(source, r).address),
      ["1 MAIN ST", "2 MAIN ST", "3 MAIN ST"],
    );
    // stored in Web Mercator, written back in WGS84 by ogr2ogr -t_srs EPSG:4326 (7 decimals)
    assert.ok(
      Math.abs(records[2]!.point!.lon - -111.8598) < 1e-6 && Math.abs(records[2]!.point!.lat - 40.87) < 1e-6,
    );
    assert.equal((await readAll(await openSource(gpkg, { layer: "address points" }))).length, 2);
  },
);

test(
  "a File Geodatabase (OpenFileGDB writes it in GDAL 3.6) is detected and read",
  { skip: NEEDS_GDAL },
  async (t) => {
    const dir = temporaryDir(t);
    const gdb = join(dir, "parcels.gdb");
    ogr2ogr("-f", "OpenFileGDB", gdb, writeGeoJson(dir, "a", 4), "-nln", "parcels");
    const source = await openSource(gdb);
    assert.equal(source.format, "gdal");
    const records = await readAll(source);
    assert.deepEqual(
      records.map((r) => named(source, r).apn),
      ["041000000", "041000001", "041000002", "041000003"],
    );
    assert.deepEqual(
      records.map((r) => r.line),
      [1, 2, 3, 4],
    );
  },
);

test(
  "stopping early ends ogr2ogr; a dataset gone before reading is ogr2ogr's error",
  { skip: NEEDS_GDAL },
  async (t) => {
    const dir = temporaryDir(t);
    const gpkg = join(dir, "big.gpkg");
    ogr2ogr("-f", "GPKG", gpkg, writeGeoJson(dir, "a", 3000), "-nln", "parcels");
    const source = await openSource(gpkg);
    let read = 0;
    for await (const batch of source.batches()) {
      for (const _ of batch) read++;
      break;
    }
    assert.ok(read > 0 && read < 3000);
    rmSync(gpkg);
    await assert.rejects(readAll(source), /big\.gpkg: ogr2ogr failed \(exit 1\): .*big\.gpkg/);
  },
);

test("without GDAL on PATH, the error names the package to install", async (t) => {
  const dir = temporaryDir(t);
  const path = process.env.PATH;
  process.env.PATH = join(dir, "nothing");
  try {
    await assert.rejects(
      openSource(join(dir, "x.gpkg"), { format: "gdal" }),
      /x\.gpkg: reading this format needs GDAL .*apt-get install gdal-bin/,
    );
  } finally {
    process.env.PATH = path;
  }
});

test("a file GDAL cannot open is an error naming it", { skip: NEEDS_GDAL }, async (t) => {
  const file = join(temporaryDir(t), "junk.gpkg");
  writeFileSync(file, "not a geopackage");
  await assert.rejects(openSource(file), /junk\.gpkg: GDAL cannot open it/);
});

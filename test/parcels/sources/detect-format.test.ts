import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { detectFormat, openSource } from "../../../src/parcels/sources/open-source.js";
import type { SourceFormat } from "../../../src/parcels/sources/open-source.js";
import { temporaryDir } from "../index-fixtures.js";
import { NEEDS_GDAL, featureCollection, ogr2ogr, pointFeature, writeZip } from "./source-fixtures.js";

test("formats by extension and, for .geojson, .json and unknown names, by content", async (t) => {
  const dir = temporaryDir(t);
  const write = (name: string, content: string | Buffer): string => {
    writeFileSync(join(dir, name), content);
    return join(dir, name);
  };
  const feature = JSON.stringify(pointFeature(1, 2, { a: "1" }));
  const collection = featureCollection([pointFeature(1, 2, {})]);
  const cases: Array<[string, string | Buffer, SourceFormat]> = [
    ["a.csv", "apn,lat\n1,2\n", "csv"],
    ["lines.geojson", `${feature}\n${feature}\n`, "geojsonl"],
    ["one-line.geojson", collection, "geojson"],
    ["pretty.json", JSON.stringify(JSON.parse(collection), null, 2), "geojson"],
    ["bom.geojson", `\uFEFF${collection}`, "geojson"],
    ["rs.geojson", `\x1e${feature}\n`, "geojsonl"],
    ["seq.geojsonl", `${feature}\n`, "geojsonl"],
    ["export", `${feature}\n`, "geojsonl"],
    ["export2", collection, "geojson"],
    ["export3", "APN;ADDRESS\n1;2 MAIN ST\n", "csv"],
    ["county.gpkg", "", "gdal"],
    ["county.kml", "", "gdal"],
    ["sqlite-file", Buffer.concat([Buffer.from("SQLite format 3\0"), Buffer.alloc(100)]), "gdal"],
  ];
  for (const [name, content, format] of cases)
    assert.equal(await detectFormat(write(name, content)), format, name);
  mkdirSync(join(dir, "county.gdb"));
  assert.equal(await detectFormat(join(dir, "county.gdb")), "gdal");
  await assert.rejects(detectFormat(join(dir, "missing.csv")), /missing\.csv: no such file or directory/);
  await assert.rejects(
    openSource(write("blob", Buffer.from([1, 2, 0, 0, 9, 9, 0, 1]))),
    /blob: binary content of no format situs reads directly .*--format gdal/,
  );
  await assert.rejects(
    openSource(write("x.csv", "a\n"), { format: "xml" as SourceFormat }),
    /x\.csv: unknown format "xml"/,
  );
});

test("shapefile parts and zips are detected by content too", { skip: NEEDS_GDAL }, async (t) => {
  const dir = temporaryDir(t);
  const geojson = join(dir, "in.geojson");
  writeFileSync(geojson, featureCollection([pointFeature(1, 2, { APN: "1" })]));
  ogr2ogr("-f", "ESRI Shapefile", join(dir, "p.shp"), geojson);
  copyFileSync(join(dir, "p.shp"), join(dir, "p-no-extension"));
  assert.equal(await detectFormat(join(dir, "p.shp")), "shapefile");
  assert.equal(await detectFormat(join(dir, "p.dbf")), "shapefile");
  assert.equal(await detectFormat(join(dir, "p-no-extension")), "shapefile");
  const zip = join(dir, "download");
  writeZip(zip, [
    ["p.shp", join(dir, "p.shp")],
    ["p.dbf", join(dir, "p.dbf")],
    ["p.shx", join(dir, "p.shx")],
  ]);
  assert.equal(await detectFormat(zip), "shapefile");
  const gdbZip = join(dir, "gdb.zip");
  writeZip(gdbZip, [["parcels.gdb/a00000001.gdbtable", geojson]]);
  assert.equal(await detectFormat(gdbZip), "gdal");
  const source = await openSource(join(dir, "p.dbf"));
  assert.deepEqual(source.fields, ["APN"]);
});

import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { openSource } from "../../../src/parcels/sources/open-source.js";
import { cpgEncoding } from "../../../src/parcels/sources/shapefile-source.js";
import { temporaryDir } from "../index-fixtures.js";
import {
  GIS,
  NEEDS_GDAL,
  featureCollection,
  named,
  ogr2ogr,
  pointFeature,
  readAll,
  writeZip,
} from "./source-fixtures.js";

/** A shapefile written by ogr2ogr from a GeoJSON the test writes (UTF-8 .cpg, integer and real fields). */
function writeShapefile(dir: string, name: string, options: string[] = []): string {
  const geojson = join(dir, `${name}.geojson`);
  writeFileSync(
    geojson,
    featureCollection([
      pointFeature(-122.4238774, 37.7721392, {
        APN: "0856003",
        NUM: 7.0,
        ACRES: 0.25,
        NAME: "Café Élan",
        CODE: 7,
      }),
      pointFeature(-121.5604946, 39.0541051, { APN: "0856004", NUM: 27.0, ACRES: 1.5, NAME: "", CODE: 12 }),
    ]),
  );
  const shp = join(dir, `${name}.shp`);
  ogr2ogr("-f", "ESRI Shapefile", shp, geojson, "-lco", "ENCODING=UTF-8", ...options);
  return shp;
}

test(
  "a shapefile: DBF fields, numbers without a decimal part, UTF-8 by its .cpg, points",
  { skip: NEEDS_GDAL },
  async (t) => {
    const shp = writeShapefile(temporaryDir(t), "parcels");
    const source = await openSource(shp);
    assert.equal(source.format, "shapefile");
    assert.deepEqual(source.fields, ["APN", "NUM", "ACRES", "NAME", "CODE"]);
    const records = await readAll(source);
    assert.deepEqual(named(source, records[0]!), {
      APN: "0856003",
      NUM: "7",
      ACRES: "0.25",
      NAME: "Café Élan",
      CODE: "7",
    });
    assert.deepEqual(records[0]!.point, { lon: -122.4238774, lat: 37.7721392 });
    assert.deepEqual(
      records.map((r) => r.line),
      [1, 2],
    );
  },
);

test("a shapefile in State Plane feet (.prj) is reprojected to WGS84", { skip: NEEDS_GDAL }, async (t) => {
  const shp = writeShapefile(temporaryDir(t), "feet", ["-t_srs", "EPSG:2226"]);
  const source = await openSource(shp);
  assert.match(source.crs ?? "", /StatePlane_California_II.*reprojected to WGS 84 with proj4/);
  const [first, second] = await readAll(source);
  assert.ok(
    Math.abs(first!.point!.lon - -122.4238774) < 1e-6 && Math.abs(first!.point!.lat - 37.7721392) < 1e-6,
  );
  assert.ok(
    Math.abs(second!.point!.lon - -121.5604946) < 1e-6 && Math.abs(second!.point!.lat - 39.0541051) < 1e-6,
  );
});

test(
  "zipped shapefiles: one is read from the zip, of two the layer names one",
  { skip: NEEDS_GDAL },
  async (t) => {
    const dir = temporaryDir(t);
    writeShapefile(dir, "a");
    writeShapefile(dir, "b");
    const parts = (name: string, folder = "") =>
      ["shp", "shx", "dbf", "prj", "cpg"].map((ext): [string, string] => [
        `${folder}${name}.${ext}`,
        join(dir, `${name}.${ext}`),
      ]);
    const one = join(dir, "one.zip");
    writeZip(one, parts("a", "data/"));
    const source = await openSource(one);
    assert.equal(source.format, "shapefile");
    assert.equal((await readAll(source)).length, 2);
    const two = join(dir, "two.zip");
    writeZip(two, [...parts("a"), ...parts("b")]);
    await assert.rejects(
      openSource(two),
      /two\.zip: the zip holds 2 shapefiles \(a, b\); name one with --layer/,
    );
    const b = await openSource(two, { layer: "b" });
    assert.deepEqual(named(b, (await readAll(b))[1]!).APN, "0856004");
    await assert.rejects(openSource(two, { layer: "c" }), /no layer "c" in the zip \(it holds a, b\)/);
  },
);

test(
  "a shapefile without its .dbf, and a zip without a shapefile: clear errors",
  { skip: NEEDS_GDAL },
  async (t) => {
    const dir = temporaryDir(t);
    writeShapefile(dir, "full");
    const lonely = join(dir, "lonely");
    mkdirSync(lonely);
    for (const ext of ["shp", "shx", "prj"])
      copyFileSync(join(dir, `full.${ext}`), join(lonely, `full.${ext}`));
    await assert.rejects(
      openSource(join(lonely, "full.shp")),
      /full\.shp: the shapefile has no \.dbf \(its attributes\)/,
    );
    const zip = join(dir, "other.zip");
    writeZip(zip, [["readme.txt", join(dir, "full.prj")]]);
    await assert.rejects(
      openSource(zip, { format: "shapefile" }),
      /other\.zip: the zip holds no shapefile \(found readme\.txt\)/,
    );
  },
);

test(".cpg code pages as Esri writes them", () => {
  assert.equal(cpgEncoding("UTF-8\n", "x.cpg"), "utf-8");
  assert.equal(cpgEncoding("1252", "x.cpg"), "windows-1252");
  assert.equal(cpgEncoding("ANSI 1251", "x.cpg"), "windows-1251");
  assert.equal(cpgEncoding("88591", "x.cpg"), "iso-8859-1");
  assert.equal(cpgEncoding("ISO-8859-2", "x.cpg"), "iso-8859-2");
  assert.throws(() => cpgEncoding("EBCDIC-42", "x.cpg"), /x\.cpg: unknown encoding "EBCDIC-42"/);
});

const skip = existsSync(GIS.sanFrancisco) ? false : "needs ../shared/data (absent)";

test("San Francisco: 7,284 address points, WGS84, a known record", { skip }, async () => {
  const source = await openSource(GIS.sanFrancisco);
  const records = await readAll(source);
  assert.equal(records.length, 7284);
  const first = named(source, records[0]!);
  assert.deepEqual(
    [first.ADDRESS, first.BLK_LOT, first.ADDR_NUM, first.ST_NAME, first.ST_TYPE, first.ZIPCODE],
    ["7 OCTAVIA ST", "0856003", "7", "OCTAVIA", "ST", "94102"],
  );
  const folsom = records
    .map((r) => named(source, r))
    .filter((r) => r.ADDRESS === "1516 FOLSOM ST" && r.UNIT_NUM === "0 C");
  assert.deepEqual(
    folsom.map((r) => r.BLK_LOT),
    ["3516073"],
  );
  // the bounding box of gis/README.md: -122.4249, 37.7709 to -122.4110, 37.7835
  assert.ok(
    records.every(
      (r) =>
        r.point &&
        r.point.lon >= -122.425 &&
        r.point.lon <= -122.4109 &&
        r.point.lat >= 37.7708 &&
        r.point.lat <= 37.7836,
    ),
  );
});

test("Yuba: State Plane California II feet reprojected as ogr2ogr does", { skip }, async () => {
  const source = await openSource(GIS.yuba);
  const records = await readAll(source);
  assert.equal(records.length, 30596);
  // ogr2ogr -f GeoJSONSeq -t_srs EPSG:4326 -lco COORDINATE_PRECISION=9 (GDAL 3.6.2, PROJ 9.1)
  const expected: Array<[number, string, number, number]> = [
    [1, "3452 WAREHOUSE RD", -121.560494587, 39.054105078],
    [2, "3405 WAREHOUSE RD", -121.559786581, 39.052699],
    [1000, "6565 TURKEY HOLLOW TRL", -121.369409183, 39.240202481],
    [17000, "11130 HIDDEN ACRES LN", -121.367524714, 39.285127301],
    [30596, "6738 HACKBERRY WY", -121.471693507, 39.151110985],
  ];
  for (const [line, address, lon, lat] of expected) {
    const record = records[line - 1]!;
    assert.equal(record.line, line);
    assert.equal(named(source, record).ADDRESS, address);
    assert.ok(
      Math.abs(record.point!.lon - lon) < 1e-6 && Math.abs(record.point!.lat - lat) < 1e-6,
      `${line}: ${JSON.stringify(record.point)}`,
    );
  }
});

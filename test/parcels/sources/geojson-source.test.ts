import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { FeatureCollectionScanner } from "../../../src/parcels/sources/feature-collection-scanner.js";
import { openSource } from "../../../src/parcels/sources/open-source.js";
import { temporaryDir } from "../index-fixtures.js";
import { GIS, featureCollection, insidePolygon, named, pointFeature, readAll } from "./source-fixtures.js";

test("a FeatureCollection: fields in first-seen order, values as text, points, feature numbers", async (t) => {
  const file = join(temporaryDir(t), "parcels.geojson");
  const square = [
    [
      [-92.48, 34.61],
      [-92.479, 34.61],
      [-92.479, 34.611],
      [-92.48, 34.611],
      [-92.48, 34.61],
    ],
  ];
  writeFileSync(
    file,
    featureCollection([
      pointFeature(-122.28, 46.87, {
        apn: "0416232063",
        zip: 72022.0,
        acres: 0.25,
        vacant: false,
        note: null,
      }),
      {
        type: "Feature",
        properties: { apn: " 007 ", extra: { a: 1 } },
        geometry: { type: "Polygon", coordinates: square },
      },
      { type: "Feature", properties: { apn: "x" }, geometry: null },
      {
        type: "Feature",
        properties: {},
        geometry: {
          type: "LineString",
          coordinates: [
            [0, 0],
            [1, 1],
          ],
        },
      },
    ]),
  );
  const source = await openSource(file);
  assert.equal(source.format, "geojson");
  assert.deepEqual(source.fields, ["apn", "zip", "acres", "vacant", "note", "extra"]);
  const records = await readAll(source);
  assert.deepEqual(
    records.map((r) => r.line),
    [1, 2, 3, 4],
  );
  assert.deepEqual(named(source, records[0]!), {
    apn: "0416232063",
    zip: "72022",
    acres: "0.25",
    vacant: "false",
    note: "",
    extra: "",
  });
  assert.deepEqual(records[0]!.point, { lon: -122.28, lat: 46.87 });
  assert.equal(named(source, records[1]!).apn, " 007 ", "strings are not trimmed");
  assert.equal(named(source, records[1]!).extra, '{"a":1}');
  const { lon, lat } = records[1]!.point!;
  assert.ok(lon > -92.48 && lon < -92.479 && lat > 34.61 && lat < 34.611);
  assert.equal(records[2]!.point, null);
  assert.equal(records[3]!.problem, "a line geometry has no parcel point");
  assert.deepEqual([...source.geometryTypes!()].sort(), [
    ["LineString", 1],
    ["Point", 1],
    ["Polygon", 1],
    ["none", 1],
  ]);
});

test("a byte-order mark and features before type (Pierce's layout), pretty-printed", async (t) => {
  const file = join(temporaryDir(t), "pierce.json");
  const body = JSON.stringify(
    { features: [pointFeature(-122.2, 46.8, { PARCEL: "1" })], type: "FeatureCollection" },
    null,
    2,
  );
  writeFileSync(file, `\uFEFF${body}`);
  const source = await openSource(file);
  assert.equal(source.format, "geojson");
  assert.deepEqual(
    (await readAll(source)).map((r) => r.fields),
    [["1"]],
  );
});

test("the crs member: CRS84 and EPSG:4326 as they are, EPSG:3857 reprojected, others refused", async (t) => {
  const dir = temporaryDir(t);
  const write = (name: string, crs: string, x: number, y: number): string => {
    const file = join(dir, name);
    writeFileSync(
      file,
      featureCollection([pointFeature(x, y, {})], { crs: { type: "name", properties: { name: crs } } }),
    );
    return file;
  };
  for (const crs of ["urn:ogc:def:crs:OGC:1.3:CRS84", "urn:ogc:def:crs:EPSG::4326", "EPSG:4269"]) {
    const [record] = await readAll(await openSource(write("a.geojson", crs, -122.5, 37.5)));
    assert.deepEqual(record!.point, { lon: -122.5, lat: 37.5 }, crs);
  }
  const mercator = await openSource(write("m.geojson", "urn:ogc:def:crs:EPSG::3857", -13627361.0, 4544761.0));
  assert.match(mercator.crs ?? "", /reprojected/);
  const [record] = await readAll(mercator);
  // gdaltransform -s_srs EPSG:3857 -t_srs EPSG:4326: -122.416666685143 37.7542037470738
  assert.ok(
    Math.abs(record!.point!.lon - -122.416666685) < 1e-6 &&
      Math.abs(record!.point!.lat - 37.754203747) < 1e-6,
  );
  await assert.rejects(
    openSource(write("sp.geojson", "urn:ogc:def:crs:EPSG::2226", 6686470.79, 2146009.61)),
    /sp\.geojson: the GeoJSON "crs" names urn:ogc:def:crs:EPSG::2226, which this reader cannot reproject; --format gdal/,
  );
});

test("a single Feature, a bare geometry, other JSON and a truncated file are clear errors", async (t) => {
  const dir = temporaryDir(t);
  const write = (name: string, text: string): string => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const feature = JSON.stringify(pointFeature(1, 2, { a: 1 }), null, 1);
  await assert.rejects(
    openSource(write("f.geojson", feature)),
    /f\.geojson: a single GeoJSON Feature, not a FeatureCollection/,
  );
  await assert.rejects(
    openSource(write("g.geojson", '{"type": "Polygon", "coordinates": []}')),
    /g\.geojson: a bare GeoJSON geometry \(Polygon\)/,
  );
  await assert.rejects(
    openSource(write("t.json", '{"type": "Topology", "objects": {}}')),
    /not a GeoJSON FeatureCollection/,
  );
  await assert.rejects(
    openSource(write("l.json", "[1, 2]"), { format: "geojson" }),
    /a GeoJSON file is a JSON object/,
  );
  const whole = featureCollection([pointFeature(1, 2, { a: "x" }), pointFeature(3, 4, { a: "y" })]);
  const cut = write("cut.geojson", whole.slice(0, whole.length - 40));
  // the preview reads the whole (small) file: the error comes at open
  await assert.rejects(
    openSource(cut),
    /cut\.geojson: truncated GeoJSON: the file ends inside the features array, after 1 complete features/,
  );
  // a type before the features lets opening stop early: the end is found while reading
  const many = featureCollection(Array.from({ length: 600 }, (_, i) => pointFeature(1, 2, { i })));
  const source = await openSource(write("many.geojson", many.slice(0, many.length - 30)));
  await assert.rejects(readAll(source), /many\.geojson: truncated GeoJSON/);
});

test("the scanner cuts the same features JSON.parse reads, whatever the chunks and the strings", () => {
  const value = fc.oneof(
    fc.string({ unit: "grapheme" }),
    fc.constantFrom("{", "}", "[", "]", '"', "\\", '\\"', "\\\\"),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
  );
  const feature = fc.record({
    type: fc.constant("Feature"),
    properties: fc.dictionary(fc.string(), value, { maxKeys: 5 }),
    geometry: fc.option(
      fc.record({
        type: fc.constant("Point"),
        coordinates: fc.tuple(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer()),
      }),
    ),
  });
  fc.assert(
    fc.property(
      fc.array(feature, { maxLength: 6 }),
      fc.constantFrom(undefined, 1, 2),
      fc.array(fc.integer({ min: 1, max: 17 }), { minLength: 1 }),
      fc.dictionary(fc.constantFrom("name", "bbox", "crs"), fc.jsonValue(), { maxKeys: 2 }),
      (features, indent, sizes, members) => {
        const text = JSON.stringify({ type: "FeatureCollection", ...members, features }, null, indent);
        const scanner = new FeatureCollectionScanner("test.geojson");
        const cut: unknown[] = [];
        const seen = new Map<string, unknown>();
        for (let at = 0, i = 0; at < text.length; i++) {
          const size = sizes[i % sizes.length]!;
          scanner.push(text.slice(at, at + size));
          at += size;
          for (let item = scanner.next(); item !== undefined; item = scanner.next()) {
            if (typeof item === "string") cut.push(JSON.parse(item));
            else if ("member" in item) seen.set(item.member, item.value);
          }
        }
        scanner.end();
        assert.deepEqual(cut, JSON.parse(text).features);
        assert.deepEqual(Object.fromEntries(seen), {
          type: "FeatureCollection",
          ...JSON.parse(JSON.stringify(members)),
        });
      },
    ),
    { numRuns: 300 },
  );
});

const skip = existsSync(GIS.pierce) ? false : "needs ../shared/data (absent)";

test("Pierce: a byte-order mark and features before type; 1,302 points", { skip }, async () => {
  const source = await openSource(GIS.pierce);
  assert.equal(source.format, "geojson");
  assert.equal(source.fields.length, 15);
  const records = await readAll(source);
  assert.equal(records.length, 1302);
  assert.deepEqual(named(source, records[0]!).ORIG_PARCE, "3537000140");
  assert.deepEqual(records[0]!.point, { lon: -122.281316, lat: 46.868216 });
});

test("Saline: every polygon's point lies inside its polygon", { skip }, async () => {
  const collection = JSON.parse(readFileSync(GIS.saline, "utf8")) as {
    features: Array<{ geometry: { type: string; coordinates: number[][][] | number[][][][] } }>;
  };
  const source = await openSource(GIS.saline);
  const records = await readAll(source);
  assert.equal(records.length, 281);
  records.forEach((record, i) => {
    const geometry = collection.features[i]!.geometry;
    const polygons = (geometry.type === "Polygon" ? [geometry.coordinates] : geometry.coordinates) as Array<
      Array<Array<[number, number]>>
    >;
    assert.ok(
      polygons.some((rings) => insidePolygon(record.point!, rings)),
      `feature ${record.line}`,
    );
  });
});

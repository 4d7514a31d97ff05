import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { FeatureFields } from "../../../src/parcels/sources/feature-record.js";
import { openSource } from "../../../src/parcels/sources/open-source.js";
import { temporaryDir } from "../index-fixtures.js";
import { GIS, named, pointFeature, readAll } from "./source-fixtures.js";

test("GeoJSON-lines: RS prefixes, blank lines counted, CRLF, a broken line rejected", async (t) => {
  const file = join(temporaryDir(t), "oa.geojson");
  const line = (number: string, street: string, extra: Record<string, unknown> = {}): string =>
    JSON.stringify(pointFeature(-74.98, 40.05, { number, street, ...extra }));
  writeFileSync(
    file,
    [
      line("140", "STATE RD"),
      "",
      `\x1e${line("7", "WALNUT AVE E", { unit: "2" })}`,
      "{not json",
      `${line("9", "ELM ST")}\r`,
      "",
    ].join("\n"),
  );
  const source = await openSource(file);
  assert.equal(source.format, "geojsonl");
  assert.deepEqual(source.fields, ["number", "street", "unit"]);
  const records = await readAll(source);
  assert.deepEqual(
    records.map((r) => [r.line, r.fields, r.problem]),
    [
      [1, ["140", "STATE RD", ""], undefined],
      [3, ["7", "WALNUT AVE E", "2"], undefined],
      [4, ["", "", ""], records[2]!.problem],
      [5, ["9", "ELM ST", ""], undefined],
    ],
  );
  assert.match(records[2]!.problem ?? "", /^line is not JSON/);
  assert.deepEqual(records[0]!.point, { lon: -74.98, lat: 40.05 });
});

test("GeoJSON-lines whose first line is no Feature: a clear error", async (t) => {
  const dir = temporaryDir(t);
  writeFileSync(join(dir, "a.geojsonl"), "LON,LAT\n1,2\n");
  await assert.rejects(
    openSource(join(dir, "a.geojsonl")),
    /a\.geojsonl: line 1 is not JSON.*one GeoJSON Feature a line/,
  );
  writeFileSync(join(dir, "b.geojsonl"), '{"type":"FeatureCollection","features":[]}\n');
  await assert.rejects(
    openSource(join(dir, "b.geojsonl")),
    /line 1 is not a GeoJSON Feature \("FeatureCollection"\)/,
  );
});

/** A feature line as GDAL's GeoJSONSeq writes it (spaces after separators) or compact (OpenAddresses). */
function featureLine(
  feature: { properties: Record<string, unknown>; geometry: unknown },
  spaced: boolean,
): string {
  if (!spaced) return JSON.stringify({ type: "Feature", ...feature });
  const properties = Object.entries(feature.properties)
    .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(", ");
  return `{ "type": "Feature", "properties": { ${properties} }, "geometry": ${JSON.stringify(feature.geometry)} }`;
}

test("the fast path reads lines exactly as JSON.parse does", async (t) => {
  const dir = temporaryDir(t);
  const names = ["id", "unit", "number", "street", "city"];
  const value = fc.oneof(
    fc.string({ unit: "grapheme" }),
    fc.constantFrom("", '"', "\\", "a\tb", "ÉCOLE"),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
  );
  const geometry = fc.oneof(
    fc.constant(null),
    fc.record({
      type: fc.constant("Point"),
      coordinates: fc.tuple(
        fc.double({ min: -200, max: 200, noNaN: true }),
        fc.double({ min: -100, max: 100, noNaN: true }),
      ),
    }),
    fc.record({
      type: fc.constant("Point"),
      coordinates: fc.tuple(fc.integer(), fc.integer(), fc.integer()),
    }),
    fc.constant({
      type: "Polygon",
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    }),
  );
  const feature = fc.record({
    properties: fc.dictionary(fc.constantFrom(...names, "other"), value),
    geometry,
  });
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(feature, fc.boolean()), { minLength: 1, maxLength: 8 }),
      async (lines) => {
        const file = join(dir, `run${run++}.geojson`);
        const texts = lines.map(([f, spaced]) => featureLine(f, spaced));
        writeFileSync(file, `${texts.join("\n")}\n`);
        const source = await openSource(file, { format: "geojsonl" });
        const oracle = new FeatureFields();
        for (const text of texts) oracle.add(JSON.parse(text));
        assert.deepEqual(source.fields, oracle.names);
        const expected = texts.map((text, i) => oracle.record(JSON.parse(text), i + 1));
        assert.deepEqual(await readAll(source), expected);
      },
    ),
    { numRuns: 200 },
  );
});

const skip = existsSync(GIS.bucks) ? false : "needs ../shared/data (absent)";

test("Bucks: OpenAddresses GeoJSON-lines in a .geojson file, 100 points", { skip }, async () => {
  const source = await openSource(GIS.bucks);
  assert.equal(source.format, "geojsonl");
  assert.deepEqual(source.fields, [
    "id",
    "unit",
    "number",
    "street",
    "city",
    "district",
    "region",
    "postcode",
    "hash",
  ]);
  const records = await readAll(source);
  assert.equal(records.length, 100);
  assert.deepEqual(named(source, records[0]!), {
    id: "",
    unit: "",
    number: "",
    street: "STATE RD",
    city: "02",
    district: "",
    region: "",
    postcode: "",
    hash: "15a5d3ad255bb4e7",
  });
  assert.deepEqual(records[0]!.point, { lon: -74.9833572, lat: 40.0549625 });
});

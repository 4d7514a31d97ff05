import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { openParser } from "../../src/app/composition.js";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import type { ColumnMapping } from "../../src/parcels/ingest/column-mapping.js";
import { CANONICAL_MAPPING } from "../../src/parcels/ingest/column-mapping.js";
import { ingest } from "../../src/parcels/ingest/ingest.js";
import type { LookupAnswer, LookupRequest } from "../../src/parcels/lookup-types.js";
import { StoredParcelIndex } from "../../src/parcels/stored-parcel-index.js";
import { exportedRows, temporaryDir, writeCanonical } from "./index-fixtures.js";

const PLACE = { fips: "06001", city: "BERKELEY", state: "CA", zip5: "94704" };
type Row = Record<string, string>;
const row = (apn: string, addressNumber: string, streetName: string, more: Row = {}): Row => ({
  ...PLACE,
  apn,
  addressNumber,
  streetName,
  streetSuffix: "ST",
  ...more,
});

async function ingestRows(
  t: { after(fn: () => void): void },
  rows: Row[],
  mapping: ColumnMapping = CANONICAL_MAPPING,
) {
  const dir = temporaryDir(t);
  const store = new LocalBlobStore(join(dir, "index"));
  const file = writeCanonical(join(dir, "county.csv"), rows);
  const report = await ingest({ store, inputs: [{ file, mapping }], sealWorkers: 0 });
  const index = await StoredParcelIndex.open(store, { cacheBytes: 1 << 22, refreshMs: 0 });
  t.after(() => index.close());
  const lookup = (request: Partial<LookupRequest>) =>
    index.lookup(request as LookupRequest).then((timed) => timed.result as LookupAnswer);
  return { dir, store, report, index, lookup, rows: await exportedRows(store) };
}

test("APNs come back exactly as the county wrote them, in every answer", async (t) => {
  const apns = ["54_37", "12.345.678", "R0123/A", "055 188801300", "  7-B  "];
  const { index, lookup, rows } = await ingestRows(t, [
    ...apns.map((apn, i) => row(apn, String(10 + i), "DANA")),
    row("9/9", "99", "DANA"),
    row("9.9", "99", "DANA"),
  ]);
  assert.deepEqual(rows.map((r) => r.apn).sort(), [
    "055 188801300",
    "12.345.678",
    "54_37",
    "7-B",
    "9.9",
    "9/9",
    "R0123/A",
  ]);
  for (const [i, apn] of apns.entries()) {
    const answer = await lookup({
      addressNumber: String(10 + i),
      streetName: "DANA",
      streetSuffix: "ST",
      zip5: "94704",
    });
    assert.equal(answer.apn, apn.trim());
    const record = (await index.findById(answer.service_id!)).result;
    assert.equal(record?.apn, apn.trim());
  }
  const shared = await lookup({ addressNumber: "99", streetName: "DANA", streetSuffix: "ST", zip5: "94704" });
  assert.equal(shared.status, "ambiguous");
  assert.deepEqual(shared.candidates.map((c) => c.apn).sort(), ["9.9", "9/9"]);
});

test("two APNs of a county that differ only in punctuation are two parcels, both reported", async (t) => {
  const { report, rows } = await ingestRows(t, [
    row("12-3", "10", "DANA"),
    row("1-23", "12", "DANA"),
    row("12-3", "10", "DANA", { occupancyId: "A" }),
    row("123", "14", "DANA"),
  ]);
  assert.equal(report.parcels, 3);
  assert.equal(new Set(rows.map((r) => r.service_id)).size, 3);
  assert.deepEqual(
    report.apnConflicts.map((c) => [c.line, c.apn, c.otherLine, c.otherApn]),
    [
      [3, "1-23", 2, "12-3"],
      [5, "123", 2, "12-3"],
    ],
  );
});

test("missing values written as text are missing, in every field; a mapping may list its own", async (t) => {
  const { report, rows } = await ingestRows(t, [
    row("1", "NA", "DANA", { occupancyId: "N/A", zip5: "NA" }),
    row("2", "12", "DANA", { occupancyId: "<Null>", predirectional: "None", zip4: "-" }),
    row("3", "14", "DANA", { occupancyId: "null", postdirectional: " " }),
    row("4", "16", "DANA", { occupancyId: "Na" }),
    row("5", "18", "DANA", { occupancyId: "?" }),
  ]);
  assert.equal(report.rejected, 0, JSON.stringify(report.rejects));
  const byApn = new Map(rows.map((r) => [r.apn, r]));
  assert.deepEqual(
    [byApn.get("1")?.addressNumber, byApn.get("1")?.occupancyId, byApn.get("1")?.zip5],
    ["", "", ""],
    "no ZIP: Berkeley has several and the row no coordinates",
  );
  for (const apn of ["2", "3", "4"]) assert.equal(byApn.get(apn)?.occupancyId, "", apn);
  assert.equal(byApn.get("2")?.predirectional, "");
  assert.equal(byApn.get("5")?.occupancyId, "", "`?` is punctuation, cleaned away");
  assert.equal(rows.filter((r) => r.building_id !== "").length, 0, "no bogus buildings");

  const custom = await ingestRows(
    t,
    [row("1", "10", "DANA", { occupancyId: "NA" }), row("2", "12", "DANA", { occupancyId: "UNKNOWN" })],
    {
      ...CANONICAL_MAPPING,
      missing: ["unknown"],
    },
  );
  const units = new Map(custom.rows.map((r) => [r.apn, r.occupancyId]));
  assert.deepEqual([units.get("1"), units.get("2")], ["NA", ""]);
});

test("a ZIP is taken only when it is a real ZIP of the row's state; a lost leading zero only then", async (t) => {
  const boston = { fips: "25025", city: "BOSTON", state: "MA", lat: "", lon: "" };
  const { report, rows } = await ingestRows(t, [
    row("1", "10", "DANA", { ...boston, zip5: "2134" }),
    row("2", "10", "DANA", { zip5: "9461", lat: "", lon: "" }),
    row("3", "12", "DANA", { zip5: "02134", lat: "", lon: "" }),
    row("4", "14", "DANA", { zip5: "94704.0" }),
    row("5", "16", "DANA", { zip5: "99999", lat: "37.8664", lon: "-122.257" }),
    row("6", "18", "DANA", { zip5: "947041234" }),
  ]);
  const byApn = new Map(rows.map((r) => [r.apn, r]));
  assert.equal(byApn.get("1")?.zip5, "02134", "New England ZIP with its zero back");
  assert.deepEqual(
    report.rejects.map((r) => [r.line, r.reason]),
    [
      [3, 'ZIP "9461" (padded 09461) is a ZIP of AE, not CA'],
      [4, "ZIP 02134 is a ZIP of MA, not CA"],
    ],
  );
  assert.equal(byApn.get("4")?.zip5, "94704");
  assert.equal(byApn.get("5")?.zip5, "94704", "replaced by the ZIP nearest its coordinates");
  assert.deepEqual(
    report.notes.map((n) => [n.line, n.reason]),
    [[6, "ZIP 99999 is no US ZIP: replaced by 94704"]],
  );
  assert.deepEqual([byApn.get("6")?.zip5, byApn.get("6")?.zip4], ["94704", "1234"]);
});

test("coordinates outside the county's state are rejected with the reason", async (t) => {
  const { report } = await ingestRows(t, [
    row("1", "10", "DANA", { lat: "0", lon: "0" }),
    row("2", "12", "DANA", { lat: "40.7", lon: "-74.0" }),
    row("3", "14", "DANA", { lat: "-122.27", lon: "37.87" }),
    row("4", "16", "DANA", { lat: "37.87", lon: "-122.27" }),
  ]);
  assert.deepEqual(
    report.rejects.map((r) => [r.line, r.reason]),
    [
      [2, "coordinates 0, 0 are no place in the county"],
      [3, "coordinates 40.7, -74 are not in CA (projected values read as degrees, or swapped?)"],
      [4, 'coordinates out of range "-122.27", "37.87"'],
    ],
  );
});

test("placeholder house numbers are dropped, the parcel kept and the change noted", async (t) => {
  const { report, rows } = await ingestRows(t, [row("1", "XXX", "DANA"), row("2", "12", "1/2 DANA")]);
  assert.equal(rows.find((r) => r.apn === "1")?.addressNumber, "");
  const half = rows.find((r) => r.apn === "2");
  assert.deepEqual([half?.addressNumber, half?.addressNumberSuffix, half?.streetName], ["12", "1/2", "DANA"]);
  assert.deepEqual(
    report.notes.map((n) => [n.line, n.reason]),
    [[2, 'house number "XXX" is no number: the parcel is kept without it']],
  );
});

test("a whole-address column is split by Situs's own parser", async (t) => {
  const dir = temporaryDir(t);
  const file = join(dir, "situs.csv");
  writeFileSync(
    file,
    [
      "PARCEL,SITUS_ADDR,ZIP",
      "3537000140,183 DOW RIDGE DR N,98328",
      "3537000150,XXX MASHELL AV S,98328",
      "3537000160,PO BOX 12,98328",
      "3537000170,716 NE KELSEY LN E,98328",
      "",
    ].join("\n"),
  );
  const store = new LocalBlobStore(join(dir, "index"));
  const report = await ingest({
    store,
    inputs: [
      {
        file,
        mapping: {
          columns: { apn: "PARCEL", address: "SITUS_ADDR", zip5: "ZIP" },
          constants: { fips: "53053" },
        },
      },
    ],
    parser: openParser({}, () => undefined),
    sealWorkers: 0,
  });
  assert.equal(report.rejected, 0, JSON.stringify(report.rejects));
  const rows = new Map((await exportedRows(store)).map((r) => [r.apn, r]));
  const dow = rows.get("3537000140")!;
  assert.deepEqual(
    [dow.addressNumber, dow.streetName, dow.streetSuffix, dow.postdirectional, dow.city, dow.state],
    ["183", "DOW RIDGE", "DR", "N", "EATONVILLE", "WA"],
  );
  const mashell = rows.get("3537000150")!;
  assert.deepEqual([mashell.addressNumber, mashell.streetName, mashell.streetSuffix], ["", "MASHELL", "AVE"]);
  assert.equal(rows.get("3537000160")?.streetName, "", "a PO box is no situs address");
  const kelsey = rows.get("3537000170")!;
  assert.deepEqual([kelsey.predirectional, kelsey.streetName, kelsey.postdirectional], ["NE", "KELSEY", "E"]);
  assert.deepEqual(
    report.notes.map((n) => n.line),
    [3, 4],
  );
  await assert.rejects(
    ingest({ store, inputs: [{ file, mapping: { columns: { apn: "PARCEL", address: "SITUS_ADDR" } } }] }),
    /needs the address parser/,
  );
});

test("a directional column holding something else is repaired or dropped, and noted", async (t) => {
  const { report, rows } = await ingestRows(t, [
    row("1", "10", "SMARTSVILLE", { streetSuffix: "", postdirectional: "RD" }),
    row("2", "12", "DANA", { postdirectional: "1/2" }),
    row("3", "14", "DANA", { postdirectional: "CA" }),
    row("4", "16", "DANA", { predirectional: "North" }),
  ]);
  const byApn = new Map(rows.map((r) => [r.apn, r]));
  assert.deepEqual([byApn.get("1")?.streetSuffix, byApn.get("1")?.postdirectional], ["RD", ""]);
  assert.deepEqual([byApn.get("2")?.addressNumberSuffix, byApn.get("2")?.postdirectional], ["1/2", ""]);
  assert.equal(byApn.get("3")?.postdirectional, "");
  assert.equal(byApn.get("4")?.predirectional, "N");
  assert.deepEqual(
    report.notes.map((n) => [n.line, n.reason]),
    [
      [2, 'postdirectional "RD" is the street suffix'],
      [3, `postdirectional "1/2" is the number's suffix`],
      [4, 'postdirectional "CA" is no direction: dropped'],
    ],
  );
});

test("a city the gazetteer does not name is found through the cities the index records", async (t) => {
  const { lookup } = await ingestRows(t, [
    row("1", "3452", "WAREHOUSE", {
      fips: "06115",
      city: "ARBOGA",
      zip5: "",
      streetSuffix: "RD",
      lat: "39.0541",
      lon: "-121.5605",
    }),
    row("2", "10", "DANA", { zip5: "" }),
  ]);
  const arboga = await lookup({
    addressNumber: "3452",
    streetName: "WAREHOUSE",
    streetSuffix: "RD",
    city: "Arboga",
  });
  assert.deepEqual([arboga.status, arboga.apn, arboga.state_inferred], ["matched", "1", "CA"]);
  const noZip = await lookup({
    addressNumber: "10",
    streetName: "DANA",
    streetSuffix: "ST",
    city: "Berkeley",
    state: "CA",
  });
  assert.deepEqual([noZip.status, noZip.apn, noZip.searched], ["matched", "2", ["zip:c06001"]]);
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import { CANONICAL_MAPPING } from "../../src/parcels/ingest/column-mapping.js";
import { ingest } from "../../src/parcels/ingest/ingest.js";
import { StoredParcelIndex } from "../../src/parcels/stored-parcel-index.js";
import type { ExportRow } from "./index-fixtures.js";
import { exportedRows, temporaryDir, writeCanonical } from "./index-fixtures.js";

const place = { fips: "06001", city: "BERKELEY", state: "CA", zip5: "94704", lat: "37.87", lon: "-122.27" };
const at = (apn: string, addressNumber: string, streetName: string, streetSuffix: string, more = {}) => ({
  ...place,
  apn,
  addressNumber,
  streetName,
  streetSuffix,
  ...more,
});

const VERSION_1 = [
  at("100", "10", "MAIN", "ST"),
  at("200", "20", "MAIN", "ST"),
  at("201", "22", "MAIN", "ST"),
  at("300", "30", "OAK", "AVE"),
  at("400", "40", "ELM", "ST"),
  at("500", "50", "PINE", "ST"),
  at("600", "60", "CEDAR", "ST"),
  at("601", "60", "CEDAR", "ST", { occupancyType: "UNIT", occupancyId: "1" }),
  at("602", "60", "Cedar", "Street", { occupancyType: "Apartment", occupancyId: "2" }),
];
const VERSION_2 = [
  at("100A", "10", "MAIN", "ST", { parent_apns: "100" }),
  at("100B", "12", "MAIN", "ST", { parent_apns: "100" }),
  at("210", "20", "MAIN", "ST", { parent_apns: "200;201" }),
  at("301", "30", "OAK", "AVE"), // no lineage column: inferred from the address
  at("500", "50", "PINE", "ST"),
  at("600", "60", "CEDAR", "ST"),
  at("601", "60", "CEDAR", "ST", { occupancyType: "UNIT", occupancyId: "1" }),
  at("602", "60", "CEDAR", "ST", { occupancyType: "APT", occupancyId: "2" }),
  at("603", "60", "CEDAR", "ST", { occupancyType: "APT", occupancyId: "3" }),
  at("700", "70", "BIRCH", "ST"),
];

function byApn(rows: ExportRow[]): Map<string, ExportRow> {
  return new Map(rows.map((row) => [row.apn, row]));
}

test("re-ingest keeps IDs, supersedes split, merged and inferred parcels, retires removed ones", async (t) => {
  const dir = temporaryDir(t);
  const store = new LocalBlobStore(join(dir, "index"));
  const ingestVersion = (rows: typeof VERSION_1, name: string) =>
    ingest({ store, inputs: [{ file: writeCanonical(join(dir, name), rows), mapping: CANONICAL_MAPPING }] });

  const first = await ingestVersion(VERSION_1, "v1.csv");
  assert.equal(first.counts.buildings, 1);
  const v1 = byApn(await exportedRows(store));
  const building = v1.get("600")!.building_id;
  assert.match(building, /^bld_/);
  assert.equal(v1.get("602")!.building_id, building);
  assert.equal(v1.get("602")!.streetSuffix, "ST", "normalized on ingest");
  assert.equal(v1.get("602")!.occupancyType, "APT");

  const second = await ingestVersion(VERSION_2, "v2.csv");
  assert.equal(second.previousBuildId, first.buildId);
  assert.deepEqual(
    { ...second.identity },
    {
      keptIds: 4,
      newIds: 6,
      superseded: 4,
      supersededByLineage: 3,
      supersededByAddress: 1,
      splits: 1,
      merges: 1,
      retired: 1,
      buildings: 1,
    },
  );
  const v2 = byApn(await exportedRows(store));
  for (const apn of ["500", "600", "601", "602"])
    assert.equal(v2.get(apn)!.service_id, v1.get(apn)!.service_id, apn);
  assert.equal(v2.get("603")!.building_id, building, "the building keeps its ID and gains the new unit");
  const successors = (apn: string) => v2.get(apn)!.superseded_by.split(";").sort();
  assert.deepEqual(successors("100"), [v2.get("100A")!.service_id, v2.get("100B")!.service_id].sort());
  assert.deepEqual(successors("200"), [v2.get("210")!.service_id]);
  assert.deepEqual(successors("201"), [v2.get("210")!.service_id]);
  assert.deepEqual(successors("300"), [v2.get("301")!.service_id]);
  assert.equal(v2.get("400")!.status, "retired");

  const index = await StoredParcelIndex.open(store, { cacheBytes: 1 << 20, refreshMs: 0 });
  const split = (await index.findById(v1.get("100")!.service_id)).result;
  assert.equal(split?.status, "superseded");
  assert.equal(split?.apn, "100");
  assert.equal(split?.addressNumber, "10", "a superseded parcel answers with its last record");
  assert.deepEqual(split?.superseded_by.sort(), successors("100"));
  const removed = (await index.findById(v1.get("400")!.service_id)).result;
  assert.deepEqual([removed?.status, removed?.superseded_by, removed?.streetName], ["active", [], "ELM"]);

  // Version 3 = version 2 plus APN 100 again: lineage is kept, and the superseded ID never comes back.
  const third = await ingestVersion([...VERSION_2, at("100", "10", "MAIN", "ST")], "v3.csv");
  assert.equal(third.identity.keptIds, VERSION_2.length);
  const v3 = await exportedRows(store);
  const apn100 = v3.filter((row) => row.apn === "100");
  assert.equal(apn100.length, 2);
  assert.deepEqual(apn100.map((row) => row.status).sort(), ["active", "superseded"]);
  assert.notEqual(apn100[0]!.service_id, apn100[1]!.service_id);
  assert.equal(byApn(v3.filter((row) => row.status !== "active")).get("400")?.status, "retired");
  assert.equal(v3.filter((row) => row.status === "superseded").length, 4);
});

test("rows that cannot be used are rejected with file, line and reason", async (t) => {
  const dir = temporaryDir(t);
  const file = writeCanonical(join(dir, "bad.csv"), [
    at("1", "1", "MAIN", "ST"),
    at("2", "2", "MAIN", "ST", { zip5: "9470" + "X", lat: "", lon: "" }),
    at("3", "3", "MAIN", "ST", { lat: "north", lon: "-122" }),
    at("4", "4", "MAIN", "ST", { fips: "" }),
    at("", "", "", ""),
    at("6", "6", "", "", { occupancyId: "4" }),
    at("1", "1", "MAIN", "ST"),
    at("8", "8", "MAIN", "ST", { lat: "91", lon: "0" }),
  ]);
  const report = await ingest({
    store: new LocalBlobStore(join(dir, "index")),
    inputs: [{ file, mapping: CANONICAL_MAPPING }],
  });
  assert.deepEqual(
    report.rejects.map((r) => [r.line, r.reason]),
    [
      [3, 'invalid ZIP "9470X"'],
      [4, 'invalid coordinates "north", "-122"'],
      [5, "no county FIPS code"],
      [6, "no APN and no street address"],
      [7, "house number or unit without a street name"],
      [8, "duplicate of line 2 (same parcel and address)"],
      [9, 'coordinates out of range "91", "0"'],
    ],
  );
  assert.ok(report.rejects.every((r) => r.file === file));
  assert.equal(report.parcels, 1);
});

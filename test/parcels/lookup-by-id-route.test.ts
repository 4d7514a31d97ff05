import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import { CANONICAL_MAPPING } from "../../src/parcels/ingest/column-mapping.js";
import { ingest } from "../../src/parcels/ingest/ingest.js";
import { StoredParcelIndex } from "../../src/parcels/stored-parcel-index.js";
import { auth, testApp, testServices } from "../support/test-app.js";
import { FaultyStore } from "./faulty-store.js";
import type { ExportRow } from "./index-fixtures.js";
import { exportedRows, temporaryDir, writeCanonical } from "./index-fixtures.js";

const base = { fips: "06001", city: "BERKELEY", state: "CA", lat: "37.8", lon: "-122.2" };

async function fixture(t: { after(fn: () => void): void }) {
  const dir = temporaryDir(t);
  const store = new LocalBlobStore(join(dir, "index"));
  const v1 = [
    { ...base, apn: "1", addressNumber: "1", streetName: "MAIN", streetSuffix: "ST", zip5: "94704" },
    { ...base, apn: "2", addressNumber: "2", streetName: "MAIN", streetSuffix: "ST", zip5: "94704" },
    { ...base, apn: "3", addressNumber: "3", streetName: "OAK", streetSuffix: "AVE", zip5: "94709" },
    {
      ...base,
      apn: "3U",
      addressNumber: "3",
      streetName: "OAK",
      streetSuffix: "AVE",
      zip5: "94709",
      occupancyId: "7",
    },
  ];
  const v2 = [{ ...v1[0]!, apn: "1A", parent_apns: "1" }, ...v1.slice(1)];
  for (const [name, rows] of [
    ["v1.csv", v1],
    ["v2.csv", v2],
  ] as const) {
    await ingest({
      store,
      inputs: [{ file: writeCanonical(join(dir, name), rows), mapping: CANONICAL_MAPPING }],
    });
  }
  const rows = new Map((await exportedRows(store)).map((row): [string, ExportRow] => [row.apn, row]));
  const faulty = new FaultyStore(store);
  const parcels = await StoredParcelIndex.open(faulty, { cacheBytes: 1 << 20, refreshMs: 0 });
  const app = testApp(testServices({ parcels }));
  t.after(() => void app.close());
  const get = (id: string) => app.inject({ method: "GET", url: `/v1/verify/lookup/${id}`, headers: auth });
  return { rows, faulty, parcels, app, get };
}

test("lookup by ID answers active and superseded records exactly per SPEC", async (t) => {
  const { rows, get, app } = await fixture(t);
  const active = await get(rows.get("2")!.service_id);
  assert.equal(active.statusCode, 200);
  assert.match(String(active.headers["server-timing"]), /r2fetch;dur=/);
  assert.deepEqual(active.json(), {
    status: "active",
    service_id: rows.get("2")!.service_id,
    superseded_by: [],
    building_id: null,
    apn: "2",
    fips: "06001",
    lat: 37.8,
    lon: -122.2,
    addressNumber: "2",
    addressNumberSuffix: null,
    predirectional: null,
    streetName: "MAIN",
    streetSuffix: "ST",
    postdirectional: null,
    occupancyId: null,
    city: "BERKELEY",
    state: "CA",
    zip5: "94704",
    zip4: null,
  });
  const superseded = (await get(rows.get("1")!.service_id)).json();
  assert.equal(superseded.status, "superseded");
  assert.deepEqual(superseded.superseded_by, [rows.get("1A")!.service_id]);
  const unit = (await get(rows.get("3U")!.service_id)).json();
  assert.equal(unit.occupancyId, "7");
  assert.equal(unit.building_id, rows.get("3")!.building_id);
  // ULIDs are case-insensitive; the older path answers the same.
  const lower = `adr_${rows.get("2")!.service_id.slice(4).toLowerCase()}`;
  assert.equal((await get(lower)).json().service_id, rows.get("2")!.service_id);
  const alias = await app.inject({
    method: "GET",
    url: `/v1/property/lookup/${rows.get("2")!.service_id}`,
    headers: auth,
  });
  assert.equal(alias.json().apn, "2");
});

test("lookup by ID errors: invalid, building, unknown (echoed), and no key", async (t) => {
  const { rows, get, app } = await fixture(t);
  for (const bad of [
    "adr_123",
    "adr_8ZZZZZZZZZZZZZZZZZZZZZZZZZ",
    "adr_01ARZ3NDEKTSV4RRFFQ69G5FAI",
    "xyz_01ARZ3NDEKTSV4RRFFQ69G5FAV",
  ]) {
    const response = await get(bad);
    assert.equal(response.statusCode, 400, bad);
    assert.equal(response.json().error, "invalid_id");
  }
  const building = await get(rows.get("3")!.building_id);
  assert.equal(building.statusCode, 422);
  assert.equal(building.json().error, "unsupported_id_type");
  const unknown = await get("adr_01ARZ3NDEKTSV4RRFFQ69G5FAV");
  assert.equal(unknown.statusCode, 404);
  assert.deepEqual(
    [unknown.json().error, unknown.json().service_id],
    ["not_found", "adr_01ARZ3NDEKTSV4RRFFQ69G5FAV"],
  );
  const anonymous = await app.inject({
    method: "GET",
    url: `/v1/verify/lookup/${rows.get("2")!.service_id}`,
  });
  assert.equal(anonymous.statusCode, 401);
});

test("lookup by ID answers 503 matchkey_unavailable when the store is down or a file is missing or corrupt", async (t) => {
  const { rows, get, faulty } = await fixture(t);
  const id = rows.get("3")!.service_id;
  const expect503 = async (what: string) => {
    const response = await get(id);
    assert.equal(response.statusCode, 503, what);
    assert.equal(response.json().error, "matchkey_unavailable", what);
  };
  faulty.missing.add("chunks/94709.bin");
  await expect503("missing chunk");
  faulty.missing.clear();
  faulty.corrupt.add("chunks/94709.bin");
  await expect503("corrupt chunk");
  faulty.corrupt.clear();
  faulty.corrupt.add(".bin"); // every ID shard and chunk
  await expect503("corrupt ID directory");
  faulty.corrupt.clear();
  faulty.down = true;
  await expect503("store down");
  faulty.down = false;
  assert.equal((await get(id)).statusCode, 200, "answers again once the store is back");
});

test("an index with nothing published answers 503, and serves once a build appears", async (t) => {
  const dir = temporaryDir(t);
  const store = new LocalBlobStore(join(dir, "empty"));
  const parcels = await StoredParcelIndex.open(store, { cacheBytes: 1 << 20, refreshMs: 0 });
  const app = testApp(testServices({ parcels }));
  t.after(() => void app.close());
  const response = await app.inject({
    method: "GET",
    url: "/v1/verify/lookup/adr_01ARZ3NDEKTSV4RRFFQ69G5FAV",
    headers: auth,
  });
  assert.equal(response.statusCode, 503);
  const file = writeCanonical(join(dir, "one.csv"), [
    { ...base, apn: "9", addressNumber: "9", streetName: "ELM", zip5: "94704" },
  ]);
  await ingest({ store, inputs: [{ file, mapping: CANONICAL_MAPPING }] });
  await parcels.refresh();
  const [row] = await exportedRows(store);
  const found = await app.inject({
    method: "GET",
    url: `/v1/verify/lookup/${row!.service_id}`,
    headers: auth,
  });
  assert.equal(found.statusCode, 200);
});

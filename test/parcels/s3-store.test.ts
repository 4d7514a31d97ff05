import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { CANONICAL_MAPPING } from "../../src/parcels/ingest/column-mapping.js";
import { ingest } from "../../src/parcels/ingest/ingest.js";
import { KEPT_BUILDS } from "../../src/parcels/store/index-writer.js";
import { openBlobStore } from "../../src/parcels/store/open-blob-store.js";
import { IndexUnavailableError } from "../../src/parcels/parcel-index.js";
import { StoredParcelIndex } from "../../src/parcels/stored-parcel-index.js";
import { startS3 } from "../support/s3.js";
import { exportedRows, temporaryDir, writeCanonical } from "./index-fixtures.js";

test("the index builds into, serves from and prunes an S3-compatible store", async (t) => {
  const dir = temporaryDir(t);
  const s3 = await startS3(join(dir, "s3"));
  t.after(() => s3.close());
  await s3.createBucket("situs-index");
  const store = openBlobStore("s3://situs-index/prod/parcels", s3.env);
  assert.equal(store.url, "s3://situs-index/prod/parcels");

  const row = (apn: string, zip5: string) => ({
    apn,
    fips: "06001",
    addressNumber: apn,
    streetName: "MAIN",
    streetSuffix: "ST",
    city: "BERKELEY",
    state: "CA",
    zip5,
    lat: "37.8",
    lon: "-122.2",
  });
  const builds: string[] = [];
  for (let version = 1; version <= KEPT_BUILDS + 1; version++) {
    const rows = [row("1", "94702"), row("2", "94704"), row(`${10 + version}`, "94709")];
    const file = writeCanonical(join(dir, `v${version}.csv`), rows);
    builds.push((await ingest({ store, inputs: [{ file, mapping: CANONICAL_MAPPING }] })).buildId);
  }
  const keys = await store.list("");
  assert.ok(keys.includes("CURRENT"));
  const kept = new Set(keys.filter((key) => key.startsWith("builds/")).map((key) => key.split("/")[1]));
  assert.deepEqual([...kept].sort(), builds.slice(1).sort(), "publishing keeps the newest builds only");

  const rows = await exportedRows(store);
  assert.equal(rows.filter((r) => r.status === "active").length, 3);
  const index = await StoredParcelIndex.open(store, { cacheBytes: 1 << 20, refreshMs: 0 });
  assert.equal(index.buildId, builds[builds.length - 1]);
  const first = rows.find((r) => r.apn === "1")!;
  const record = (await index.findById(first.service_id)).result;
  assert.deepEqual([record?.apn, record?.zip5, record?.status], ["1", "94702", "active"]);

  await s3.close();
  const other = rows.find((r) => r.apn === "2")!;
  await assert.rejects(index.findById(other.service_id), IndexUnavailableError);
});

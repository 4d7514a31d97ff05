import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import type { BlobStore } from "../../src/parcels/store/blob-store.js";
import { CANONICAL_MAPPING } from "../../src/parcels/ingest/column-mapping.js";
import { ingest } from "../../src/parcels/ingest/ingest.js";
import { StoredParcelIndex } from "../../src/parcels/stored-parcel-index.js";
import { exportedRows, temporaryDir, writeCanonical } from "./index-fixtures.js";

const rowsOf = (count: number, extra = "") =>
  Array.from({ length: count }, (_, i) => ({
    apn: `${i}`,
    fips: "06001",
    addressNumber: `${i + 1}${extra}`,
    streetName: `STREET ${i % 7}`,
    streetSuffix: "ST",
    city: "BERKELEY",
    state: "CA",
    zip5: ["94702", "94703", "94704"][i % 3],
    lat: "37.8",
    lon: "-122.2",
  }));

test("a running index switches builds under concurrent lookups without a failed request", async (t) => {
  const dir = temporaryDir(t);
  const store = new LocalBlobStore(join(dir, "index"));
  const publish = (name: string, rows: ReturnType<typeof rowsOf>) =>
    ingest({ store, inputs: [{ file: writeCanonical(join(dir, name), rows), mapping: CANONICAL_MAPPING }] });
  const first = await publish("v1.csv", rowsOf(300));
  const ids = (await exportedRows(store)).map((row) => row.service_id);
  // Poll every 5 ms and use a cache too small to hold the build, so reads keep hitting the store.
  const index = await StoredParcelIndex.open(store, { cacheBytes: 8 << 10, refreshMs: 5 });
  t.after(() => index.close());
  const switches: string[] = [];
  const seen = new Set<string>();
  let stop = false;
  let answered = 0;
  const reader = async () => {
    for (let i = 0; !stop; i++) {
      const record = (await index.findById(ids[(i * 37) % ids.length]!)).result;
      assert.ok(record, "every ID of version 1 is kept by later versions");
      seen.add(index.buildId ?? "");
      answered++;
    }
  };
  const readers = Array.from({ length: 8 }, reader);
  const second = await publish("v2.csv", rowsOf(400));
  const third = await publish("v3.csv", rowsOf(450, "A"));
  for (let i = 0; i < 200 && index.buildId !== third.buildId; i++) await new Promise((r) => setTimeout(r, 5));
  stop = true;
  await Promise.all(readers);
  switches.push(...seen);
  assert.equal(index.buildId, third.buildId);
  assert.ok(switches.includes(first.buildId) && switches.includes(third.buildId));
  assert.ok(answered > 100, `${answered} lookups answered during the switches`);
  void second;
  // The new build's records are served: addresses changed in version 3 (`1A` is number 1, suffix A).
  const record = (await index.findById(ids[0]!)).result;
  assert.deepEqual([record?.addressNumber, record?.addressNumberSuffix], ["1", "A"]);
});

test("a refresh reads only CURRENT while the build is unchanged, and the manifest once it changes", async (t) => {
  const dir = temporaryDir(t);
  const local = new LocalBlobStore(join(dir, "index"));
  const publish = (name: string, rows: ReturnType<typeof rowsOf>) =>
    ingest({
      store: local,
      inputs: [{ file: writeCanonical(join(dir, name), rows), mapping: CANONICAL_MAPPING }],
    });
  await publish("v1.csv", rowsOf(30));
  const reads: string[] = [];
  const counted: BlobStore = {
    url: local.url,
    get: (key) => {
      reads.push(key);
      return local.get(key);
    },
    put: (key, data) => local.put(key, data),
    list: (prefix) => local.list(prefix),
    delete: (keys) => local.delete(keys),
  };
  const index = await StoredParcelIndex.open(counted, { cacheBytes: 1 << 20, refreshMs: 0 });
  t.after(() => index.close());
  reads.length = 0;
  await index.refresh();
  await index.refresh();
  assert.deepEqual(reads, ["CURRENT", "CURRENT"]);
  const second = await publish("v2.csv", rowsOf(40));
  reads.length = 0;
  await index.refresh();
  assert.equal(index.buildId, second.buildId);
  assert.ok(
    reads.includes(`builds/${second.buildId}/manifest.json`),
    `the new build's manifest is read: ${reads.join(", ")}`,
  );
});

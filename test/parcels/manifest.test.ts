import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import { ByteLru } from "../../src/parcels/store/chunk-cache.js";
import { CANONICAL_MAPPING } from "../../src/parcels/ingest/column-mapping.js";
import { IndexBuild } from "../../src/parcels/store/index-build.js";
import { ingest } from "../../src/parcels/ingest/ingest.js";
import { parseManifest } from "../../src/parcels/format/manifest.js";
import { temporaryDir, writeCanonical } from "./index-fixtures.js";

test("a manifest of another format or version is refused with a clear message", () => {
  const base = {
    format: "situs-parcel-index",
    formatVersion: 1,
    buildId: "b_x",
    chunks: [],
    idShards: [],
    streets: {},
  };
  assert.equal(parseManifest(JSON.stringify(base), "m").buildId, "b_x");
  assert.throws(
    () => parseManifest(JSON.stringify({ ...base, formatVersion: 5 }), "m"),
    /format version 5 is not supported \(this build reads 1, 2, 3 and 4\)/,
  );
  assert.throws(
    () => parseManifest(JSON.stringify({ ...base, format: "other" }), "m"),
    /not a situs-parcel-index manifest/,
  );
  assert.throws(() => parseManifest("{", "m"), /not JSON/);
});

test("a manifest that does not match CURRENT's hash is detected", async (t) => {
  const dir = temporaryDir(t);
  const store = new LocalBlobStore(join(dir, "index"));
  const file = writeCanonical(join(dir, "p.csv"), [
    { apn: "1", fips: "06001", addressNumber: "1", streetName: "A", zip5: "94704" },
  ]);
  const report = await ingest({ store, inputs: [{ file, mapping: CANONICAL_MAPPING }] });
  const key = `builds/${report.buildId}/manifest.json`;
  const manifest = (await store.get(key))!.toString("utf8");
  await store.put(key, Buffer.from(manifest.replace('"parcels": 1', '"parcels": 2')));
  await assert.rejects(IndexBuild.openCurrent(store, new ByteLru(1 << 20)), /manifest checksum mismatch/);
  await store.delete([key]);
  await assert.rejects(IndexBuild.openCurrent(store, new ByteLru(1 << 20)), /manifest missing/);
});

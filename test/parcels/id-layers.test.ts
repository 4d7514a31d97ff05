import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import { ByteLru } from "../../src/parcels/store/chunk-cache.js";
import { CANONICAL_MAPPING } from "../../src/parcels/ingest/column-mapping.js";
import { IndexBuild } from "../../src/parcels/store/index-build.js";
import { StoredParcelIndex } from "../../src/parcels/stored-parcel-index.js";
import { ingest } from "../../src/parcels/ingest/ingest.js";
import { MAX_ID_LAYERS, manifestText } from "../../src/parcels/store/index-writer.js";
import { sealBlob } from "../../src/parcels/format/blob-envelope.js";
import { ByteWriter } from "../../src/parcels/format/byte-writer.js";
import { buildPrefix, MANIFEST_VERSION } from "../../src/parcels/format/manifest.js";
import type { Manifest } from "../../src/parcels/format/manifest.js";
import { crc32 } from "node:zlib";
import { createHash } from "node:crypto";
import type { CanonicalRow } from "./index-fixtures.js";
import { exportedRows, temporaryDir, writeCanonical } from "./index-fixtures.js";

const county = (fips: string, zip5: string, city: string, version: number): CanonicalRow[] =>
  Array.from({ length: 40 }, (_, i) => ({
    apn: `${fips}-${i}${version % 2 === 0 && i % 10 === 3 ? "X" : ""}`,
    fips,
    addressNumber: String(100 + i * 2),
    streetName: i % 2 ? "DANA" : "ELM",
    streetSuffix: "ST",
    city,
    state: "CA",
    zip5: i % 4 === 0 && fips === "06001" ? "94707" : zip5,
  }));

async function load(store: LocalBlobStore, dir: string, rows: CanonicalRow[], name: string) {
  const file = writeCanonical(join(dir, `${name}.csv`), rows);
  return ingest({ store, inputs: [{ file, mapping: CANONICAL_MAPPING }], sealWorkers: 0 });
}

/** Every parcel ID of the current build is found by ID, with its own record. */
async function assertEveryIdFound(store: LocalBlobStore): Promise<void> {
  const build = (await IndexBuild.openCurrent(store, new ByteLru(1 << 24)))!;
  const rows = await exportedRows(store);
  assert.ok(rows.length > 0);
  for (const row of rows) {
    const record = await build.findById(row.service_id);
    assert.equal(record?.service_id, row.service_id);
    assert.equal(record?.status, row.status === "superseded" ? "superseded" : "active");
    assert.equal(record?.apn ?? "", row.apn);
  }
}

async function current(store: LocalBlobStore): Promise<Manifest> {
  return (await IndexBuild.openCurrent(store, new ByteLru(1 << 20)))!.manifest;
}

test("a county refresh adds one ID layer of its own chunks; past the limit the directory is one layer again", async (t) => {
  const dir = temporaryDir(t);
  const store = new LocalBlobStore(join(dir, "index"));
  await load(store, dir, county("06075", "94102", "SAN FRANCISCO", 1), "sf");
  await load(store, dir, county("06013", "94530", "EL CERRITO", 1), "cc");
  let manifest = await current(store);
  assert.equal(manifest.idLayers!.length, 2);
  assert.deepEqual(manifest.idLayers![1]!.keys, ["94530"]);
  assert.equal(manifest.idLayers![0]!.keys, undefined);
  await assertEveryIdFound(store);
  const seen: number[] = [];
  for (let version = 1; version <= MAX_ID_LAYERS + 1; version++) {
    const report = await load(store, dir, county("06001", "94704", "BERKELEY", version), `a${version}`);
    manifest = await current(store);
    const layers = manifest.idLayers!;
    seen.push(layers.length);
    const newest = layers[layers.length - 1]!;
    assert.equal(newest.build, manifest.buildId);
    const written = manifest.chunks.filter((chunk) => chunk.build === manifest.buildId);
    if (newest.keys) {
      // Only the chunks the refresh wrote: Alameda's two ZIPs, not San Francisco's or El Cerrito's.
      assert.deepEqual(newest.keys, ["94704", "94707"]);
      assert.deepEqual(
        written.map((chunk) => chunk.key),
        ["94704", "94707"],
      );
      assert.equal(
        newest.entries,
        written.reduce((sum, chunk) => sum + chunk.counts!.parcels, 0),
      );
      assert.ok(report.bytesWritten < report.bytes);
    } else assert.equal(newest.entries, manifest.counts.parcels);
    await assertEveryIdFound(store);
  }
  assert.deepEqual(seen, [3, 4, 5, 6, 1, 2, 3]);
  assert.ok(Math.max(...seen) <= MAX_ID_LAYERS);
});

test("an index whose ID directory names chunks by position (format 2) is read and refreshed", async (t) => {
  const dir = temporaryDir(t);
  const store = new LocalBlobStore(join(dir, "index"));
  await load(store, dir, county("06075", "94102", "SAN FRANCISCO", 1), "sf");
  await load(store, dir, county("06001", "94704", "BERKELEY", 1), "a1");
  // Rewrite the build as format 2 had it: one directory, entries naming chunks by position.
  const build = (await IndexBuild.openCurrent(store, new ByteLru(1 << 20)))!;
  const manifest = build.manifest;
  const entries: Array<[Buffer, number, number]> = [];
  for (let index = 0; index < manifest.chunks.length; index++) {
    const chunk = await build.chunk(index);
    for (let row = 0; row < chunk.rows; row++) {
      if (!chunk.storedEntry(row).alias) entries.push([Buffer.from(chunk.idBytes(row)), index, row]);
    }
  }
  entries.sort((a, b) => Buffer.compare(a[0], b[0]));
  const out = new ByteWriter();
  out.u32(entries.length);
  for (const [id] of entries) out.bytes(id, 0, 16);
  for (const [, chunk] of entries) out.u32(chunk);
  for (const [, , row] of entries) out.u32(row);
  const blob = sealBlob("idShard", out.result());
  await store.put(`${buildPrefix(manifest.buildId)}/ids/legacy.bin`, blob);
  const legacy: Manifest = {
    ...manifest,
    formatVersion: 2,
    idShards: [{ file: "ids/legacy.bin", bytes: blob.length, crc32: crc32(blob) }],
  };
  delete legacy.idLayers;
  const text = manifestText(legacy);
  await store.put(`${buildPrefix(manifest.buildId)}/manifest.json`, Buffer.from(text));
  const sha = createHash("sha256").update(text).digest("hex");
  await store.put("CURRENT", Buffer.from(JSON.stringify({ buildId: manifest.buildId, manifestSha256: sha })));
  assert.equal((await current(store)).idLayers, undefined);
  await assertEveryIdFound(store);

  // A refresh of one county turns the directory into one layer naming chunks by key.
  await load(store, dir, county("06001", "94704", "BERKELEY", 2), "a2");
  const refreshed = await current(store);
  assert.equal(refreshed.formatVersion, MANIFEST_VERSION);
  assert.equal(refreshed.idLayers!.length, 1);
  assert.equal(refreshed.idLayers![0]!.entries, refreshed.counts.parcels);
  await assertEveryIdFound(store);
});

test("a serving index drops the cached shards of directory layers no build it may serve names", async (t) => {
  const dir = temporaryDir(t);
  const store = new LocalBlobStore(join(dir, "index"));
  await load(store, dir, county("06075", "94102", "SAN FRANCISCO", 1), "sf");
  const index = await StoredParcelIndex.open(store, { cacheBytes: 1 << 26, refreshMs: 0 });
  t.after(() => index.close());
  const sf = (await exportedRows(store)).find((row) => row.fips === "06075")!.service_id;
  const first = (await current(store)).idLayers![0]!;
  const firstShard = `${buildPrefix(first.build)}/${first.shards[0]!.file}`;
  assert.equal((await index.findById(sf)).result?.service_id, sf);
  assert.ok(index.cache.peek(firstShard), "the first layer's shard is cached");
  // Refreshes until the directory is compacted into one layer, then one more.
  let version = 1;
  do {
    await load(store, dir, county("06001", "94704", "BERKELEY", version), `a${version++}`);
    await index.refresh();
    assert.equal((await index.findById(sf)).result?.service_id, sf);
  } while ((await current(store)).idLayers!.length > 1);
  assert.ok(index.cache.peek(firstShard), "still named by the build served before");
  await load(store, dir, county("06001", "94704", "BERKELEY", version), `a${version}`);
  await index.refresh();
  assert.equal(index.cache.peek(firstShard), undefined);
  assert.equal((await index.findById(sf)).result?.service_id, sf);
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import { ByteLru } from "../../src/parcels/store/chunk-cache.js";
import { CANONICAL_MAPPING } from "../../src/parcels/ingest/column-mapping.js";
import { IndexBuild } from "../../src/parcels/store/index-build.js";
import { ingest, removeCounties } from "../../src/parcels/ingest/ingest.js";
import type { LookupAnswer, LookupRequest } from "../../src/parcels/lookup-types.js";
import { StoredParcelIndex } from "../../src/parcels/stored-parcel-index.js";
import type { ExportRow } from "./index-fixtures.js";
import { exportedRows, temporaryDir, writeCanonical } from "./index-fixtures.js";

// Alameda (06001) and Contra Costa (06013) share ZIP 94707 (Berkeley and Kensington); San
// Francisco (06075) shares none with them.
const ALAMEDA = { fips: "06001", city: "BERKELEY", state: "CA" };
const CONTRA_COSTA = { fips: "06013", city: "EL CERRITO", state: "CA" };
const SAN_FRANCISCO = { fips: "06075", city: "SAN FRANCISCO", state: "CA", zip5: "94102" };
type Row = Record<string, string>;
const parcel = (
  place: Row,
  zip5: string,
  apn: string,
  number: string,
  street: string,
  more: Row = {},
): Row => ({
  ...place,
  zip5,
  apn,
  addressNumber: number,
  streetName: street,
  streetSuffix: "ST",
  ...more,
});

const alameda1 = [
  parcel(ALAMEDA, "94704", "54-37", "10", "DANA"),
  parcel(ALAMEDA, "94704", "100", "20", "DANA"),
  parcel(ALAMEDA, "94704", "200", "30", "DANA"),
  parcel(ALAMEDA, "94704", "201", "32", "DANA"),
  parcel(ALAMEDA, "94704", "400", "40", "DANA"),
  parcel(ALAMEDA, "94707", "500", "5", "ARLINGTON"),
];
// A year later: 54-37 written 54_37; 100 split; 200 and 201 merged; 400 gone; 500 unchanged.
const alameda2 = [
  parcel(ALAMEDA, "94704", "54_37", "10", "DANA"),
  parcel(ALAMEDA, "94704", "100-1", "20", "DANA", { parent_apns: "100" }),
  parcel(ALAMEDA, "94704", "100-2", "22", "DANA", { parent_apns: "100" }),
  parcel(ALAMEDA, "94704", "202", "30", "DANA", { parent_apns: "200;201" }),
  parcel(ALAMEDA, "94707", "500", "5", "ARLINGTON"),
];
const contraCosta = [
  parcel(CONTRA_COSTA, "94530", "501-1", "1", "ASHBURY"),
  parcel(CONTRA_COSTA, "94530", "501-2", "3", "ASHBURY"),
  parcel(CONTRA_COSTA, "94707", "570-1", "7", "COLUSA", { city: "KENSINGTON" }),
];
const sanFrancisco = [parcel(SAN_FRANCISCO, "94102", "0856003", "7", "OCTAVIA")];

async function load(
  store: LocalBlobStore,
  dir: string,
  name: string,
  rows: Row[],
  replaceCounties?: string[],
) {
  const file = writeCanonical(join(dir, `${name}.csv`), rows);
  return ingest({
    store,
    inputs: [{ file, mapping: CANONICAL_MAPPING }],
    sealWorkers: 0,
    ...(replaceCounties ? { replaceCounties } : {}),
  });
}

const ofCounty = (rows: ExportRow[], fips: string): ExportRow[] =>
  rows.filter((row) => row.fips === fips).sort((a, b) => (a.service_id < b.service_id ? -1 : 1));

async function chunkFiles(store: LocalBlobStore): Promise<Map<string, string>> {
  const build = await IndexBuild.openCurrent(store, new ByteLru(1 << 20));
  return new Map(build!.manifest.chunks.map((chunk) => [chunk.key, `${chunk.build}/${chunk.file}`]));
}

test("counties ingested in separate commands share one index; a refresh touches only its county", async (t) => {
  const dir = temporaryDir(t);
  const store = new LocalBlobStore(join(dir, "index"));
  const first = await load(store, dir, "sf", sanFrancisco);
  assert.deepEqual(first.counties, ["06075"]);
  await load(store, dir, "alameda-1", alameda1);
  const withAlameda = await exportedRows(store);
  const second = await load(store, dir, "contra-costa", contraCosta);
  // The second county's file adds its parcels and leaves the first county's as they were.
  assert.deepEqual(second.counties, ["06013"]);
  assert.deepEqual(
    [second.writtenChunks, second.keptChunks],
    [2, 2],
    "94530 new, 94707 shared; 94102, 94704 kept",
  );
  const both = await exportedRows(store);
  assert.deepEqual(ofCounty(both, "06001"), ofCounty(withAlameda, "06001"));
  assert.equal(ofCounty(both, "06013").length, 3);
  const filesBefore = await chunkFiles(store);

  const refresh = await load(store, dir, "alameda-2", alameda2);
  assert.deepEqual(refresh.counties, ["06001"]);
  assert.deepEqual([refresh.writtenChunks, refresh.keptChunks], [2, 2]);
  const filesAfter = await chunkFiles(store);
  assert.equal(
    filesAfter.get("94530"),
    filesBefore.get("94530"),
    "Contra Costa's own chunk is not rewritten",
  );
  assert.equal(filesAfter.get("94102"), filesBefore.get("94102"));
  assert.notEqual(filesAfter.get("94704"), filesBefore.get("94704"));
  assert.notEqual(
    filesAfter.get("94707"),
    filesBefore.get("94707"),
    "a ZIP spanning both counties is rewritten",
  );
  const after = await exportedRows(store);
  assert.deepEqual(ofCounty(after, "06013"), ofCounty(both, "06013"), "the other county is untouched");
  assert.deepEqual(ofCounty(after, "06075"), ofCounty(both, "06075"));
  // Lineage works within the refreshed county: splits, merges, retirement; IDs kept by APN key.
  const before = new Map(ofCounty(both, "06001").map((row) => [row.apn, row]));
  const now = new Map(ofCounty(after, "06001").map((row) => [row.apn, row]));
  assert.equal(
    now.get("54_37")?.service_id,
    before.get("54-37")?.service_id,
    "punctuation changed, same parcel",
  );
  assert.equal(now.get("500")?.service_id, before.get("500")?.service_id);
  assert.equal(now.get("100")?.status, "superseded");
  assert.deepEqual(
    now.get("100")?.superseded_by.split(";").sort(),
    [now.get("100-1")?.service_id, now.get("100-2")?.service_id].sort(),
  );
  assert.equal(now.get("200")?.superseded_by, now.get("202")?.service_id);
  assert.equal(now.get("201")?.superseded_by, now.get("202")?.service_id);
  assert.equal(now.get("400")?.status, "retired");
  assert.deepEqual([refresh.identity.splits, refresh.identity.merges, refresh.identity.retired], [1, 1, 1]);

  const index = await StoredParcelIndex.open(store, { cacheBytes: 1 << 22, refreshMs: 0 });
  t.after(() => index.close());
  const lookup = (request: Partial<LookupRequest>) =>
    index.lookup(request as LookupRequest).then((timed) => timed.result as LookupAnswer);
  const kensington = await lookup({
    addressNumber: "7",
    streetName: "COLUSA",
    streetSuffix: "ST",
    zip5: "94707",
  });
  assert.deepEqual([kensington.status, kensington.apn, kensington.fips], ["matched", "570-1", "06013"]);
  const dana = await lookup({ addressNumber: "10", streetName: "DANA", streetSuffix: "ST", zip5: "94704" });
  assert.deepEqual([dana.status, dana.apn], ["matched", "54_37"], "the APN as the latest file wrote it");

  // Dropping a county removes its parcels and IDs and keeps the others.
  const removed = await removeCounties({ store, counties: ["06013"], sealWorkers: 0 });
  assert.deepEqual([removed.writtenChunks, removed.keptChunks], [1, 2], "94707 rewritten, 94530 gone");
  await index.refresh();
  const left = await exportedRows(store);
  assert.deepEqual(ofCounty(left, "06013"), []);
  assert.deepEqual(ofCounty(left, "06001"), ofCounty(after, "06001"));
  const gone = ofCounty(both, "06013")[0]!.service_id;
  assert.equal((await index.findById(gone)).result, undefined);
  assert.equal(
    (await lookup({ addressNumber: "1", streetName: "ASHBURY", zip5: "94530" })).status,
    "not_found",
  );
  await assert.rejects(removeCounties({ store, counties: ["06013"] }), /holds no parcels of county 06013/);

  // Five builds: the first two are pruned, but San Francisco's chunk, written by the first and
  // kept by every later one, stays readable.
  const sf = ofCounty(left, "06075")[0]!;
  assert.equal((await chunkFiles(store)).get("94102"), `${first.buildId}/chunks/94102.bin`);
  assert.equal(await store.get(`builds/${first.buildId}/manifest.json`), undefined);
  assert.equal((await index.findById(sf.service_id)).result?.apn, "0856003");
  const octavia = await lookup({ addressNumber: "7", streetName: "OCTAVIA", zip5: "94102" });
  assert.equal(octavia.service_id, sf.service_id);
});

test("--replace-fips retires a county's parcels that its new file lacks", async (t) => {
  const dir = temporaryDir(t);
  const store = new LocalBlobStore(join(dir, "index"));
  await load(store, dir, "alameda", alameda1);
  await load(store, dir, "contra-costa", contraCosta);
  const report = await load(store, dir, "alameda-again", alameda1, ["06013"]);
  assert.deepEqual(report.counties, ["06001", "06013"]);
  assert.equal(report.identity.retired, 3);
  const rows = await exportedRows(store);
  assert.ok(ofCounty(rows, "06013").every((row) => row.status === "retired"));
  assert.ok(ofCounty(rows, "06001").every((row) => row.status === "active"));
});

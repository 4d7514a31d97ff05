import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { chunkParts } from "../../src/parcels/format/chunk-parts.js";
import { baseKey, chunkKeyCode, partKey, splitPartKey } from "../../src/parcels/format/manifest.js";
import { generateZip, seededRandom, syntheticCsvLine } from "../../src/parcels/demo/synthetic.js";
import { CANONICAL_COLUMNS, CANONICAL_MAPPING } from "../../src/parcels/ingest/column-mapping.js";
import { ingest } from "../../src/parcels/ingest/ingest.js";
import type { StoredEntry } from "../../src/parcels/parcel-row.js";
import { emptyIngestRow } from "../../src/parcels/parcel-row.js";
import { LocalBlobStore } from "../../src/parcels/store/blob-store.js";
import { ByteLru } from "../../src/parcels/store/chunk-cache.js";
import { IndexBuild } from "../../src/parcels/store/index-build.js";
import { StoredParcelIndex } from "../../src/parcels/stored-parcel-index.js";
import type { LookupRequest } from "../../src/parcels/lookup-types.js";
import { nationalGazetteer } from "../../src/places/gazetteer.js";
import { perturb } from "./fuzzy-perturbation.js";
import type { CanonicalRow, ExportRow } from "./index-fixtures.js";
import { exportedRows, temporaryDir, writeCanonical } from "./index-fixtures.js";

const entry = (streetName: string, addressNumber: string): StoredEntry => ({
  ...emptyIngestRow("parcels.csv", 1),
  streetName,
  addressNumber,
});

test("a large ZIP is split into parts of whole streets, in name order, each within the bound", () => {
  const random = seededRandom(7);
  const streets = ["OAK", "ELM", "MAIN", "", "PINE", "BIG", "ASH", "CEDAR", "BIRCH"];
  const sizes = [3, 1, 12, 2, 4, 9, 5, 1, 4];
  const entries = streets.flatMap((street, s) =>
    Array.from({ length: sizes[s]! }, (_, i) => entry(street, String(i + 1))),
  );
  entries.sort(() => random() - 0.5);
  const parts = chunkParts("94103", entries, 8);
  assert.deepEqual(
    parts.map((part) => part.key),
    ["94103", "94103-0001", "94103-0002", "94103-0003", "94103-0004"],
  );
  // Every entry once; a street in one part; names ascending across parts.
  assert.deepEqual(
    parts.flatMap((part) => part.entries).sort((a, b) => entries.indexOf(a) - entries.indexOf(b)),
    entries,
  );
  const streetsOf = parts.map((part) => [...new Set(part.entries.map((e) => e.streetName))].sort());
  assert.deepEqual(streetsOf, [["", "ASH"], ["BIG"], ["BIRCH", "CEDAR", "ELM"], ["MAIN"], ["OAK", "PINE"]]);
  for (const part of parts) {
    const single = new Set(part.entries.map((e) => e.streetName)).size === 1;
    assert.ok(part.entries.length <= 8 || single, `${part.key}: ${part.entries.length} rows`);
  }
  // At or below the bound: one chunk, the entries as they are.
  assert.deepEqual(chunkParts("94103", entries.slice(0, 8), 8), [
    { key: "94103", entries: entries.slice(0, 8) },
  ]);
});

test("a part's key sorts after its ZIP's and before the next ZIP's, and has a key code of its own", () => {
  assert.equal(partKey("94103", 0), "94103");
  assert.equal(partKey("94103", 12), "94103-0012");
  assert.deepEqual(splitPartKey("c06001-0003"), { base: "c06001", part: 3 });
  assert.equal(baseKey("94103-0012"), "94103");
  assert.equal(baseKey("c06001"), "c06001");
  const keys = ["94103", "94103-0001", "94103-0002", "94103-0010", "94104", "c06001", "c06001-0001"];
  assert.deepEqual([...keys].sort(), keys);
  const codes = keys.map(chunkKeyCode);
  assert.deepEqual(codes, [94103, 294103, 494103, 2094103, 94104, 106001, 306001]);
  assert.equal(new Set([...codes, ...["99999", "c78030-9999"].map(chunkKeyCode)]).size, codes.length + 2);
  assert.ok(chunkKeyCode("c78030-9999") < 2 ** 32);
});

const gazetteer = nationalGazetteer();
const BERKELEY = gazetteer.allPlaces().find((place) => place.zip5 === "94704")!;

function writeZip(file: string, version: 1 | 2): string {
  const lines = generateZip(BERKELEY, 3_000, version, true).map(syntheticCsvLine);
  writeFileSync(file, `${CANONICAL_COLUMNS.join(",")}\n${lines.join("\n")}\n`);
  return file;
}

/** Requests of every kind for a sample of the index's entries: exact, by city, near misses, no number. */
async function requestsFor(store: LocalBlobStore): Promise<LookupRequest[]> {
  const random = seededRandom(11);
  const rows = (await exportedRows(store)).filter((row, i) => row.streetName !== "" && i % 7 === 0);
  return rows.flatMap((row) => {
    const exact: LookupRequest = {
      addressNumber: row.addressNumber,
      addressNumberSuffix: row.addressNumberSuffix,
      predirectional: row.predirectional,
      streetName: row.streetName,
      streetSuffix: row.streetSuffix,
      occupancyId: row.occupancyId,
      zip5: row.zip5,
    };
    return [
      exact,
      { ...exact, zip5: undefined, city: row.city, state: row.state },
      { ...exact, streetName: perturb(row.streetName, 1, random), occupancyId: "" },
      { ...exact, streetName: perturb(row.streetName, 2, random), streetSuffix: "" },
      { ...exact, addressNumber: "" },
      { ...exact, occupancyId: "" },
    ];
  });
}

/**
 * Each parcel and building ID of an index by what it names (its APN; a building by the least APN in
 * it): two ingests of one file give the same parcels different IDs.
 */
async function idNames(store: LocalBlobStore): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const row of await exportedRows(store)) {
    names.set(row.service_id, `adr:${row.apn}`);
    const building = `bld:${row.apn}`;
    if (row.building_id && !(building >= (names.get(row.building_id) ?? "~")))
      names.set(row.building_id, building);
  }
  return names;
}

/** An answer with its IDs replaced by their names (idNames). */
function named(answer: unknown, names: Map<string, string>): unknown {
  return JSON.parse(
    JSON.stringify(answer, (_key, value: unknown) =>
      typeof value === "string" ? (names.get(value) ?? value) : value,
    ),
  );
}

test("a ZIP split into parts answers every lookup as one chunk does, before and after a refresh", async (t) => {
  const dir = temporaryDir(t);
  const whole = new LocalBlobStore(join(dir, "whole"));
  const split = new LocalBlobStore(join(dir, "split"));
  const first = { file: writeZip(join(dir, "v1.csv"), 1), mapping: CANONICAL_MAPPING };
  const second = { file: writeZip(join(dir, "v2.csv"), 2), mapping: CANONICAL_MAPPING };
  for (const [input, round] of [
    [first, "first"],
    [second, "refresh"],
  ] as const) {
    await ingest({ store: whole, gazetteer, inputs: [input], sealWorkers: 0 });
    await ingest({ store: split, gazetteer, inputs: [input], sealWorkers: 0, partRows: 300 });
    const manifest = (await IndexBuild.openCurrent(split, new ByteLru(1 << 20)))!.manifest;
    assert.equal(manifest.formatVersion, 4);
    const keys = manifest.chunks.map((chunk) => chunk.key);
    assert.ok(keys.length > 10 && keys.every((key) => baseKey(key) === "94704"), keys.join(" "));
    assert.equal((await IndexBuild.openCurrent(whole, new ByteLru(1 << 20)))!.manifest.chunks.length, 1);

    const open = (store: LocalBlobStore) =>
      StoredParcelIndex.open(store, { cacheBytes: 1 << 26, refreshMs: 0, gazetteer });
    const [one, parts] = [await open(whole), await open(split)];
    t.after(() => {
      one.close();
      parts.close();
    });
    const [wholeNames, splitNames] = [await idNames(whole), await idNames(split)];
    const requests = await requestsFor(whole);
    assert.ok(requests.length > 2_000, `${requests.length} requests`);
    const statuses = new Set<string>();
    for (const request of requests) {
      const expected = (await one.lookup(request)).result;
      assert.deepEqual(
        named((await parts.lookup(request)).result, splitNames),
        named(expected, wholeNames),
        `${round}: ${JSON.stringify(request)}`,
      );
      statuses.add("status" in expected ? `${expected.status} ${expected.readPath}` : "error");
    }
    // The requests reach every rung: exact, near misses, buildings, ambiguity, by city.
    const rungs = ["matched chunk", "matched fuzzy_chunk", "ambiguous fuzzy_chunk", "matched whole"];
    for (const reached of [
      ...rungs,
      "no_situs_parcel chunk",
      "matched_building chunk",
      "not_found fuzzy_chunk",
    ])
      assert.ok(statuses.has(reached), `${round}: ${[...statuses].join(", ")}`);
    const idOf = new Map([...splitNames].map(([id, name]) => [name, id]));
    for (const [id, name] of wholeNames) {
      if (!id.startsWith("adr_")) continue;
      const expected = named((await one.findById(id)).result, wholeNames);
      assert.deepEqual(named((await parts.findById(idOf.get(name)!)).result, splitNames), expected, name);
    }
  }
});

test("a refresh rewrites every part of a ZIP its county shares and keeps the parts of others", async (t) => {
  const dir = temporaryDir(t);
  const store = new LocalBlobStore(join(dir, "index"));
  const rows = (fips: string, zip5: string, streets: string[], perStreet = 2) =>
    streets.flatMap((streetName) =>
      Array.from({ length: perStreet }, (_, i) => ({
        apn: `${fips}-${zip5}-${streetName}-${i}`,
        fips,
        addressNumber: String(10 + i * 2),
        streetName,
        streetSuffix: "ST",
        city: zip5 === "94707" ? "BERKELEY" : "EL CERRITO",
        state: "CA",
        zip5,
      })),
    );
  const contraCosta = [
    ...rows("06013", "94707", ["WALNUT", "WARD", "WEST"]),
    ...rows("06013", "94530", ["ASH", "BIRCH", "ELM", "FIR", "OAK"]),
  ];
  const load = async (name: string, alameda: CanonicalRow[], more: CanonicalRow[] = []) => {
    const file = writeCanonical(join(dir, `${name}.csv`), [...alameda, ...more]);
    await ingest({
      store,
      gazetteer,
      inputs: [{ file, mapping: CANONICAL_MAPPING }],
      sealWorkers: 0,
      partRows: 4,
    });
    return (await IndexBuild.openCurrent(store, new ByteLru(1 << 20)))!.manifest;
  };
  const first = await load(
    "first",
    rows("06001", "94707", ["ARCH", "CEDAR", "DANA", "HILL", "OXFORD"]),
    contraCosta,
  );
  const keysOf = (manifest: typeof first, zip5: string) =>
    manifest.chunks
      .filter((chunk) => baseKey(chunk.key) === zip5)
      .map((chunk) => `${chunk.key}@${chunk.build}`);
  const before = await exportedRows(store);
  // Alameda again, a street gone and one new: 94707 is split anew, its last part (Contra Costa's
  // streets alone) too, and 94530 (Contra Costa's alone) is kept.
  const second = await load("second", rows("06001", "94707", ["ARCH", "CEDAR", "DANA", "HILL", "ZEPHYR"]));
  assert.deepEqual(keysOf(second, "94530"), keysOf(first, "94530"));
  assert.equal(keysOf(first, "94530").length, 3);
  const parts = keysOf(second, "94707");
  assert.deepEqual(
    parts,
    Array.from({ length: parts.length }, (_, part) => `${partKey("94707", part)}@${second.buildId}`),
  );
  assert.ok(parts.length >= 4, parts.join(" "));
  const after = await exportedRows(store);
  const contraCostaIds = (exported: ExportRow[]) =>
    exported
      .filter((row) => row.fips === "06013")
      .map((row) => `${row.apn} ${row.service_id} ${row.status}`)
      .sort();
  assert.deepEqual(contraCostaIds(after), contraCostaIds(before));
  assert.deepEqual(
    after.filter((row) => row.streetName === "OXFORD").map((row) => row.status),
    ["retired", "retired"],
  );
  const index = await StoredParcelIndex.open(store, { cacheBytes: 1 << 26, refreshMs: 0, gazetteer });
  t.after(() => index.close());
  for (const row of after) {
    const answer = (
      await index.lookup({ addressNumber: row.addressNumber, streetName: row.streetName, zip5: row.zip5 })
    ).result;
    const gone = row.streetName === "OXFORD";
    assert.equal(
      "service_id" in answer ? answer.service_id : null,
      gone ? null : row.service_id,
      `${row.apn}`,
    );
    assert.equal((await index.findById(row.service_id)).result?.apn, row.apn);
  }
});

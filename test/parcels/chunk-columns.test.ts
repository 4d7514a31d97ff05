import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import fc from "fast-check";
import { ChunkColumns } from "../../src/parcels/format/chunk-columns.js";
import { encodeChunk, encodeColumns } from "../../src/parcels/format/chunk-format.js";
import { IdCollector } from "../../src/parcels/format/id-directory.js";
import { TEXT_FIELDS } from "../../src/parcels/parcel-row.js";
import type { ParcelStatus, StoredEntry } from "../../src/parcels/parcel-row.js";
import { PARCEL_STATUSES } from "../../src/parcels/parcel-row.js";
import { entryOrder } from "../../src/parcels/entry-order.js";
import { seededRandom } from "../../src/parcels/demo/synthetic.js";

const sha256 = (data: Uint8Array): string => createHash("sha256").update(data).digest("hex");

/** A deterministic chunk exercising every column: ties at one number, shared and copied building IDs, successors. */
function fixture(): StoredEntry[] {
  const random = seededRandom(2024);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const id = (n: number): Uint8Array =>
    Uint8Array.from({ length: 16 }, (_, i) => (n * 37 + i * 11 + (n >> 8)) & 255);
  const building = id(9000);
  return Array.from({ length: 500 }, (_, i) => ({
    apn: pick(["", `${i}-0${i % 7}`, `R${i % 40}/A`, "ÑANDÚ 7"]),
    fips: pick(["06001", "06013"]),
    addressNumber: pick(["", "0", "9", "10", "10A", "010", "1/2", "4294967296", String(i % 60)]),
    addressNumberSuffix: pick(["", "", "", "1/2", "A"]),
    predirectional: pick(["", "", "N", "SW"]),
    streetName: pick(["", "OAK", "OAK HILL", "1ST", "10TH", "ÑANDÚ", "MARTIN LUTHER KING JR"]),
    streetSuffix: pick(["", "ST", "AVE", "BLVD"]),
    postdirectional: pick(["", "", "E"]),
    occupancyType: pick(["", "", "APT", "UNIT"]),
    occupancyId: pick(["", "", "", "1", "2", "10", "B"]),
    city: pick(["BERKELEY", "KENSINGTON", ""]),
    state: pick(["CA", ""]),
    zip5: "94707",
    zip4: pick(["", "", "1234"]),
    lat: random() < 0.1 ? null : 37 + random(),
    lon: random() < 0.1 ? null : -122 - random(),
    id: id(i),
    buildingId:
      random() < 0.2
        ? random() < 0.5
          ? building
          : Uint8Array.from(building)
        : random() < 0.1
          ? id(7000 + (i % 3))
          : null,
    status: pick<ParcelStatus>(["active", "active", "superseded", "retired"]),
    alias: random() < 0.2,
    supersededBy: random() < 0.1 ? [id(8000 + i), id(8500 + i)] : [],
  }));
}

test("the chunk file is byte for byte what format version 1 has always been", () => {
  // Computed by the encoder this one replaced: a different digest means a format change, which
  // needs a new format version (blob-envelope.ts) and a reader for the old one.
  const columns = new ChunkColumns().read(fixture());
  assert.equal(
    sha256(encodeColumns(columns)),
    "1c43ec9e6e3c7ff4116780c337889356ec44652588d157e44b1037c086aa65d1",
  );
});

test("the ID directory's layer shards are byte for byte what manifest version 3 has always had", () => {
  const collector = new IdCollector();
  for (let i = 0; i < 20_000; i++) {
    const id = Uint8Array.from({ length: 16 }, (_, k) => (i * 131 + k * 17 + (i >> 5) * k) & 255);
    collector.add(id, i % 13, i);
  }
  const hash = createHash("sha256");
  for (const { payload } of collector.shards(4)) hash.update(payload);
  assert.equal(hash.digest("hex"), "f3d7a4a0cc00e5e6843e98c4645e4ff55fd42a2b7406e42bed33fc7ebaca9db9");
});

const id = fc.uint8Array({ minLength: 16, maxLength: 16 });
const entry: fc.Arbitrary<StoredEntry> = fc.record({
  ...(Object.fromEntries(
    TEXT_FIELDS.map((field) => [field, fc.constantFrom("", "1", "10", "10A", "A", "OAK", "Ñ")]),
  ) as Record<(typeof TEXT_FIELDS)[number], fc.Arbitrary<string>>),
  lat: fc.option(fc.double({ min: -89, max: 89, noNaN: true }), { nil: null }),
  lon: fc.option(fc.double({ min: -179, max: 179, noNaN: true }), { nil: null }),
  id,
  buildingId: fc.option(fc.constantFrom(new Uint8Array(16), new Uint8Array(16).fill(1)), { nil: null }),
  status: fc.constantFrom(...PARCEL_STATUSES),
  alias: fc.boolean(),
  supersededBy: fc.array(id, { maxLength: 2 }),
});

test("sorted columns encode exactly the entries sorted by entryOrder", () => {
  const columns = new ChunkColumns();
  fc.assert(
    fc.property(fc.array(entry, { maxLength: 80 }), (entries) => {
      const expected = encodeChunk([...entries].sort(entryOrder));
      // One instance for every run, as a build reuses it for every chunk.
      assert.deepEqual(encodeColumns(columns.read(entries)), expected);
    }),
    { numRuns: 200 },
  );
});

test("a long run of rows at one street number is ordered as entryOrder orders it", () => {
  const random = seededRandom(7);
  const entries = fixture().map((e) => ({
    ...e,
    streetName: "",
    addressNumber: "",
    occupancyId: String(Math.floor(random() * 50)),
  }));
  const expected = encodeChunk([...entries].sort(entryOrder));
  assert.deepEqual(encodeColumns(new ChunkColumns().read(entries)), expected);
});

test("a chunk read after a larger one leaves nothing of it behind", () => {
  const columns = new ChunkColumns();
  const all = fixture();
  columns.read(all);
  const small = all.slice(0, 7);
  assert.deepEqual(
    Buffer.from(encodeColumns(columns.read(small))),
    Buffer.from(encodeColumns(new ChunkColumns().read(small))),
  );
  assert.equal(columns.rows, 7);
  assert.equal(columns.ids.length, 7 * 16);
});

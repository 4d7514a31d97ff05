import assert from "node:assert/strict";
import { test } from "node:test";
import { crc32 } from "node:zlib";
import fc from "fast-check";
import { CorruptBlobError, openBlob, sealBlob } from "../../src/parcels/format/blob-envelope.js";
import { DecodedChunk, encodeChunk } from "../../src/parcels/format/chunk-format.js";
import { TEXT_FIELDS } from "../../src/parcels/parcel-row.js";
import type { StoredEntry } from "../../src/parcels/parcel-row.js";
import { PARCEL_STATUSES } from "../../src/parcels/parcel-row.js";
import { entryOrder, sortEntries } from "../../src/parcels/entry-order.js";

const id = fc.uint8Array({ minLength: 16, maxLength: 16 });
const word = fc.oneof(fc.constant(""), fc.stringMatching(/^[A-Z0-9 ]{1,12}$/), fc.constant("ÑANDÚ"));
const coordinate = fc.option(fc.double({ min: -179, max: 179, noNaN: true }), { nil: null });
const entry: fc.Arbitrary<StoredEntry> = fc.record({
  ...(Object.fromEntries(TEXT_FIELDS.map((field) => [field, word])) as Record<
    (typeof TEXT_FIELDS)[number],
    typeof word
  >),
  lat: coordinate,
  lon: coordinate,
  id,
  buildingId: fc.option(id, { nil: null }),
  status: fc.constantFrom(...PARCEL_STATUSES),
  alias: fc.boolean(),
  supersededBy: fc.array(id, { maxLength: 3 }),
});

test("sortEntries orders exactly as a stable sort by entryOrder", () => {
  const street = fc.constantFrom("", "OAK", "OAK HILL", "1ST", "10TH", "ÑANDÚ");
  const number = fc.oneof(
    fc.constantFrom("", "0", "9", "10", "10A", "010", "1/2", "99999999999", "4294967296"),
    fc.nat({ max: 3000 }).map(String),
  );
  const row = fc.record({
    streetName: street,
    addressNumber: number,
    occupancyId: fc.constantFrom("", "1", "2"),
  });
  fc.assert(
    fc.property(fc.array(row, { maxLength: 60 }), (rows) => {
      const entries = rows.map((fields, i) => ({
        ...(Object.fromEntries(TEXT_FIELDS.map((field) => [field, ""])) as Record<
          (typeof TEXT_FIELDS)[number],
          string
        >),
        ...fields,
        lat: i,
        lon: null,
      }));
      const expected = [...entries].sort(entryOrder);
      sortEntries(entries);
      assert.deepEqual(
        entries.map((e) => e.lat),
        expected.map((e) => e.lat),
      );
    }),
  );
});

test("a chunk decodes to exactly the entries encoded (coordinates to 1e-7 degrees)", () => {
  fc.assert(
    fc.property(fc.array(entry, { maxLength: 40 }), (entries) => {
      entries.sort(entryOrder);
      const chunk = new DecodedChunk(openBlob("chunk", sealBlob("chunk", encodeChunk(entries)), "test"));
      assert.equal(chunk.rows, entries.length);
      entries.forEach((expected, row) => {
        const actual = chunk.storedEntry(row);
        for (const field of TEXT_FIELDS) assert.equal(actual[field], expected[field], field);
        assert.deepEqual(actual.id, expected.id);
        assert.deepEqual(actual.buildingId, expected.buildingId);
        assert.equal(actual.status, expected.status);
        assert.equal(actual.alias, expected.alias);
        assert.deepEqual(actual.supersededBy, expected.supersededBy);
        for (const axis of ["lat", "lon"] as const) {
          if (expected[axis] === null) assert.equal(actual[axis], null);
          else assert.ok(Math.abs((actual[axis] ?? NaN) - expected[axis]) <= 5e-8);
        }
      });
      const streets = chunk.streets();
      for (const street of streets) {
        for (let row = street.first; row < street.first + street.count; row++) {
          assert.equal(chunk.text(row, "streetName"), street.name);
        }
      }
      assert.equal(
        streets.reduce((sum, street) => sum + street.count, 0),
        entries.filter((e) => e.streetName !== "").length,
      );
    }),
    { numRuns: 60 },
  );
});

test("a damaged file is refused: any flipped byte, truncation, another kind, an unknown version", () => {
  const blob = sealBlob("chunk", Buffer.from("payload ".repeat(100)));
  for (let i = 0; i < blob.length; i += 7) {
    const copy = Buffer.from(blob);
    copy[i] = (copy[i] ?? 0) ^ 0x40;
    assert.throws(() => openBlob("chunk", copy, "f"), CorruptBlobError, `byte ${i}`);
  }
  assert.throws(() => openBlob("chunk", blob.subarray(0, blob.length - 1), "f"), /truncated/);
  assert.throws(() => openBlob("idShard", blob, "f"), /not a idShard file/);
  const future = Buffer.from(blob);
  future.writeUInt16LE(2, 4);
  future.writeUInt32LE(crc32(future.subarray(0, 20)), 20);
  assert.throws(() => openBlob("chunk", future, "f"), /format version 2 is not supported/);
});

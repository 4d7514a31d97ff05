import assert from "node:assert/strict";
import { test } from "node:test";
import { ChunkIndexes } from "../../src/parcels/store/index-build.js";

test("a chunk's position by key: ZIPs through the table, county keys through the map", () => {
  const indexes = new ChunkIndexes(["00501", "12345", "94103", "99950", "c06001", "c36061"]);
  assert.deepEqual(
    ["00501", "12345", "94103", "99950", "c06001", "c36061"].map((key) => indexes.indexOf(key)),
    [0, 1, 2, 3, 4, 5],
  );
  for (const absent of ["00000", "94104", "9410", "941030", "9410A", "c06002", "", "c"])
    assert.equal(indexes.indexOf(absent), -1, absent);
});

test("a key split into parts: its first chunk's position and how many parts follow it", () => {
  const keys = ["00501", "12345", "12345-0001", "12345-0002", "94103", "c06001", "c06001-0001", "c36061"];
  const indexes = new ChunkIndexes(keys);
  assert.deepEqual(
    ["00501", "12345", "94103", "c06001", "c36061", "94104", "c06002"].map((key) => [
      indexes.indexOf(key),
      indexes.partsOf(key),
    ]),
    [
      [0, 1],
      [1, 3],
      [4, 1],
      [5, 2],
      [7, 1],
      [-1, 0],
      [-1, 0],
    ],
  );
});

import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeTime } from "ulid";
import { isUlid, newRequestId, newUlid } from "../src/ids.js";

test("request IDs are req_ and a ULID, distinct, and ordered as they are made", () => {
  const ids = Array.from({ length: 50_000 }, () => newRequestId());
  for (const id of ids.slice(0, 1000)) assert.ok(id.startsWith("req_") && isUlid(id.slice(4)), id);
  assert.equal(new Set(ids).size, ids.length);
  assert.deepEqual([...ids].sort(), ids, "monotonic within a millisecond too");
});

test("ULIDs carry their time, and their random part uses the whole alphabet evenly", () => {
  // Later than any ULID made so far: the factory is monotonic and never goes back in time.
  const at = Date.now() + 60_000;
  assert.equal(decodeTime(newUlid(at)), at);
  const counts = new Map<string, number>();
  // A new millisecond each time, so every random part is freshly drawn rather than incremented.
  for (let i = 0; i < 4000; i++) {
    for (const char of newUlid(at + 1 + i).slice(10)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  assert.equal(counts.size, 32);
  const expected = (4000 * 16) / 32;
  for (const [char, count] of counts)
    assert.ok(Math.abs(count - expected) < expected * 0.2, `${char}: ${count}`);
});

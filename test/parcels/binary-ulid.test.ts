import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { decodeTime, isValid } from "ulid";
import { compareIds, decodeUlid, encodeUlid, UlidGenerator } from "../../src/parcels/format/binary-ulid.js";
import { isUlid } from "../../src/ids.js";

test("encode and decode are inverse for every 128-bit value", () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (bytes) => {
      const text = encodeUlid(bytes);
      assert.equal(text.length, 26);
      assert.deepEqual(decodeUlid(text), bytes);
    }),
  );
});

test("generated IDs are valid ULIDs carrying the clock's time, strictly increasing within a millisecond", () => {
  let now = 1_700_000_000_000;
  const generator = new UlidGenerator(() => now);
  const ids = Array.from({ length: 1000 }, (_, i) => {
    if (i === 500) now++;
    return generator.next();
  });
  for (let i = 1; i < ids.length; i++) assert.ok(compareIds(ids[i - 1]!, 0, ids[i]!, 0) < 0);
  const text = encodeUlid(ids[0]!);
  assert.ok(isValid(text) && isUlid(text));
  assert.equal(decodeTime(text), 1_700_000_000_000);
  assert.equal(decodeTime(encodeUlid(ids[999]!)), 1_700_000_000_001);
});

test("decoding refuses what is not a canonical ULID", () => {
  assert.equal(decodeUlid("8ZZZZZZZZZZZZZZZZZZZZZZZZZ"), undefined, "beyond 2^128");
  assert.equal(decodeUlid("01ARZ3NDEKTSV4RRFFQ69G5FAI"), undefined, "I is not in the alphabet");
  assert.equal(decodeUlid("01ARZ3NDEKTSV4RRFFQ69G5FA"), undefined, "25 characters");
});

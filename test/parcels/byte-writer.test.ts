import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { ByteWriter } from "../../src/parcels/format/byte-writer.js";

test("utf8 writes what Buffer.from writes, ASCII or not", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          fc.string(),
          fc.string({ unit: "grapheme" }),
          fc.string({ unit: "binary" }),
          fc.constant("ÑANDÚ 7"),
        ),
      ),
      (values) => {
        const out = new ByteWriter(4);
        for (const value of values) out.utf8(value);
        assert.deepEqual(out.result(), Buffer.from(values.join(""), "utf8"));
      },
    ),
  );
});

test("bytes copies a slice of an array, short or long", () => {
  const data = Uint8Array.from({ length: 300 }, (_, i) => i & 255);
  const out = new ByteWriter(8);
  out.bytes(data, 3, 16);
  out.bytes(data, 100, 150);
  out.bytes(data.subarray(0, 5));
  assert.deepEqual(
    out.result(),
    Buffer.concat([data.subarray(3, 19), data.subarray(100, 250), data.subarray(0, 5)]),
  );
});

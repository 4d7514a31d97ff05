import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { parseDecimal } from "../../src/parcels/row-reader.js";

test("coordinates parse exactly as Number() does, fast path or not", () => {
  const plain = fc
    .tuple(
      fc.boolean(),
      fc.nat({ max: 999 }),
      fc.option(fc.stringMatching(/^[0-9]{0,14}$/), { nil: undefined }),
    )
    .map(
      ([negative, whole, fraction]) =>
        `${negative ? "-" : ""}${whole}${fraction === undefined ? "" : `.${fraction}`}`,
    );
  const odd = fc.constantFrom(
    "",
    "-",
    ".",
    "-0",
    ".5",
    "1.",
    "1e5",
    "+3",
    "1.2.3",
    "1234567890123456",
    "0x10",
  );
  fc.assert(
    fc.property(fc.oneof(plain, odd, fc.string({ maxLength: 8 })), (text) => {
      assert.ok(Object.is(parseDecimal(text), Number(text)), text);
    }),
    { numRuns: 20_000 },
  );
});

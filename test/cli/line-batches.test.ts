import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { readLineBatches } from "../../src/cli/line-batches.js";
import { chunkedStream } from "../support/chunked-stream.js";

/** The plain reading: a BOM dropped, split on "\n", no line after a final newline, "\r" dropped. */
function oracle(text: string): string[] {
  const lines = text.replace(/^\uFEFF/, "").split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => line.replace(/\r$/, ""));
}

test("lines from a stream in chunks split anywhere (even inside a character) are the plain reading", async () => {
  const piece = fc.constantFrom("a", "é", "\uFEFF", "", " ", "\n", "\r\n", "\r", "{}");
  await fc.assert(
    fc.asyncProperty(
      fc.array(piece, { maxLength: 40 }),
      fc.integer({ min: 1, max: 5 }),
      async (pieces, size) => {
        const lines = [];
        for await (const batch of readLineBatches(chunkedStream(pieces.join(""), size))) lines.push(...batch);
        assert.deepEqual(lines, oracle(pieces.join("")));
      },
    ),
    { numRuns: 300 },
  );
});

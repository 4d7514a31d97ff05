import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import type { CsvRecord } from "../../../src/parcels/sources/csv-records.js";
import { readCsvBatches, splitCsvLine } from "../../../src/parcels/sources/csv-records.js";
import { chunkedStream } from "../../support/chunked-stream.js";
import { temporaryDir } from "../index-fixtures.js";

test("CSV records: quotes, doubled quotes, line breaks inside quotes, CRLF and a BOM", async (t) => {
  assert.deepEqual(splitCsvLine('a,"b,c","say ""hi""",'), ["a", "b,c", 'say "hi"', ""]);
  const file = join(temporaryDir(t), "f.csv");
  writeFileSync(file, '\uFEFFapn,street\r\n1,"MAIN\nST"\r\n2,OAK\r\n\r\n3,"ELM"');
  const records = [];
  for await (const batch of readCsvBatches(file)) records.push(...batch);
  assert.deepEqual(records, [
    { line: 1, fields: ["apn", "street"] },
    { line: 2, fields: ["1", "MAIN\nST"] },
    { line: 4, fields: ["2", "OAK"] },
    { line: 6, fields: ["3", "ELM"] },
  ]);
});

/**
 * The plain reading: split into lines (no line after a final newline), join lines while a quote
 * is open, split each record; blank lines are skipped.
 */
function oracle(content: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let pending = "";
  let start = 0;
  const lines = content.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  lines.forEach((raw, i) => {
    const line = i === 0 ? raw.replace(/\r$/, "").replace(/^\uFEFF/, "") : raw.replace(/\r$/, "");
    if (pending === "") start = i + 1;
    pending = pending === "" ? line : `${pending}\n${line}`;
    if ((pending.match(/"/g) ?? []).length % 2 === 1) return;
    if (pending !== "") records.push({ line: start, fields: splitCsvLine(pending) });
    pending = "";
  });
  if (pending !== "") records.push({ line: start, fields: splitCsvLine(pending), unterminated: true });
  return records;
}

const piece = fc.constantFrom("a", "bb", "06001", "", ",", ",,", '"', '""', "\n", "\r\n", "x y", "\uFEFF");

test("CSV records match the plain reading for any mix of quotes, repeats, CRLF and empty lines", async (t) => {
  const dir = temporaryDir(t);
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(piece, { maxLength: 80 }), async (pieces) => {
      const content = pieces.join("");
      const file = join(dir, `p${run++}.csv`);
      writeFileSync(file, content);
      const records = [];
      for await (const batch of readCsvBatches(file)) records.push(...batch);
      assert.deepEqual(records, oracle(content));
    }),
    { numRuns: 300 },
  );
});

test("CSV records from a stream in small chunks, split anywhere (even inside a character), read as from a file", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom("é", "a", ",", '"', "\n", "\r\n"), { maxLength: 60 }),
      fc.integer({ min: 1, max: 7 }),
      async (pieces, size) => {
        const content = pieces.join("");
        const records = [];
        for await (const batch of readCsvBatches(chunkedStream(content, size))) records.push(...batch);
        assert.deepEqual(records, oracle(content));
      },
    ),
    { numRuns: 200 },
  );
});

import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { readCsvBatches, splitCsvLine } from "../../src/parcels/csv.js";
import { temporaryDir } from "./index-fixtures.js";

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

import { Readable } from "node:stream";
import { readCsvBatches } from "../../src/csv.js";

/** CSV output read back with the project's reader (quoted line breaks and all). */
export async function csvRows(text: string): Promise<string[][]> {
  const records: string[][] = [];
  for await (const batch of readCsvBatches(Readable.from([Buffer.from(text)]))) {
    for (const record of batch) records.push(record.fields);
  }
  return records;
}

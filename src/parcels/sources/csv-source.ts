import type { CsvRecord } from "./csv-records.js";
import { readCsvBatches } from "./csv-records.js";
import type { RecordSource } from "./record-source.js";

/**
 * A CSV file (csv.ts): the header names the fields; the records are csv.ts's own, passed on
 * without copying. No geometry: coordinates come from mapped columns.
 */
export async function openCsv(file: string, delimiter = ","): Promise<RecordSource> {
  const fields = await readHeader(file, delimiter);
  return {
    file,
    format: "csv",
    fields,
    hasGeometry: false,
    batches: () => withoutHeader(readCsvBatches(file, delimiter)),
  };
}

async function readHeader(file: string, delimiter: string): Promise<string[]> {
  for await (const batch of readCsvBatches(file, delimiter)) for (const record of batch) return record.fields;
  throw new Error(`${file}: the file is empty (a CSV file starts with its header line)`);
}

/** The batches of a CSV file after its first record (the header). */
async function* withoutHeader(
  batches: AsyncIterable<Iterable<CsvRecord>>,
): AsyncGenerator<Iterable<CsvRecord>> {
  let header = true;
  function* afterHeader(batch: Iterable<CsvRecord>): Generator<CsvRecord> {
    for (const record of batch) {
      if (header) header = false;
      else yield record;
    }
  }
  for await (const batch of batches) yield header ? afterHeader(batch) : batch;
}

import type { CsvRecord, CsvSource } from "../csv.js";
import { readCsvBatches } from "../csv.js";

/** A CSV whose header a bulk command cannot use: the command names the problem and exits 2. */
export class CsvHeaderError extends Error {}

/**
 * A CSV read by a bulk command (`situs lookup`, `situs parse --csv`), one answer per row. Its
 * header (the first record that is not a blank line) is read on opening, so the columns can be
 * checked before any answer is written; every record after it is a row, blank lines included.
 */
export class CsvInput {
  private constructor(
    readonly header: readonly string[] | undefined,
    private readonly first: Iterator<CsvRecord> | undefined,
    private readonly batches: AsyncIterator<Iterable<CsvRecord>>,
  ) {}

  /** Reads up to the header; a header whose quote is never closed (it swallowed the file) is refused. */
  static async open(input: CsvSource, delimiter = ","): Promise<CsvInput> {
    const batches = readCsvBatches(input, delimiter, { blankLines: true })[Symbol.asyncIterator]();
    for (let batch = await batches.next(); !batch.done; batch = await batches.next()) {
      const records = batch.value[Symbol.iterator]();
      for (let next = records.next(); !next.done; next = records.next()) {
        if (next.value.fields.length === 0) continue;
        if (next.value.unterminated)
          throw new CsvHeaderError("the CSV header has a quote that is never closed");
        return new CsvInput(next.value.fields, records, batches);
      }
    }
    return new CsvInput(undefined, undefined, batches);
  }

  /** Where the header names `column` (names compared trimmed and case-insensitively). */
  column(column: string): number {
    const wanted = column.trim().toLowerCase();
    const at = (this.header ?? []).findIndex((name) => name.trim().toLowerCase() === wanted);
    if (at >= 0) return at;
    const found = this.header === undefined ? "the CSV is empty" : `its columns: ${this.header.join(", ")}`;
    throw new CsvHeaderError(`no column "${column}" in the CSV header; ${found}`);
  }

  /**
   * Hands every record after the header to `each` with its row number (from 1, blank lines
   * included), waiting only when `each` returns a promise.
   */
  async eachRow(each: (record: CsvRecord, row: number) => Promise<void> | undefined): Promise<void> {
    let row = 0;
    const feed = async (records: Iterator<CsvRecord>): Promise<void> => {
      for (let next = records.next(); !next.done; next = records.next()) {
        const wait = each(next.value, ++row);
        if (wait) await wait;
      }
    };
    if (this.first) await feed(this.first);
    for (let batch = await this.batches.next(); !batch.done; batch = await this.batches.next())
      await feed(batch.value[Symbol.iterator]());
  }
}

/**
 * Why a record cannot be read as a row under `header`: a quote never closed, or a field count
 * other than the header's (its fields would sit under the wrong columns). A blank line (no fields)
 * is readable: it is a row with nothing in it.
 */
export function unreadableRecord(record: CsvRecord, header: readonly string[]): string | undefined {
  if (record.unterminated)
    return `the record starting on line ${record.line} has a quote that is never closed`;
  if (record.fields.length !== 0 && record.fields.length !== header.length)
    return `line ${record.line} has ${record.fields.length} fields where the header has ${header.length}`;
  return undefined;
}

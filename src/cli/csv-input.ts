import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import type { CsvError, InfoRecord } from "csv-parse";
import { parse } from "csv-parse";

/** A file's path, or a stream of bytes (stdin, a file stream, bytes counted as they pass). */
export type CsvSource = string | AsyncIterable<Buffer>;

/** One record of a bulk command's CSV, with the line it starts on. */
export interface CsvRecord {
  line: number;
  /** The fields; none for a blank line. */
  fields: string[];
  /** Why the record cannot be read, after "the record": "has a quote that is never closed". */
  problem?: string;
}

/** A CSV whose header a bulk command cannot use: the command names the problem and exits 2. */
export class CsvHeaderError extends Error {}

/** A record as read, with the line it ends on; the line it starts on follows from the one before. */
interface ReadRecord {
  end: number;
  fields: string[];
  problem?: string;
}

/**
 * The records of `source` in order, read by `csv-parse`: a byte-order mark dropped, quoted fields
 * (delimiters, doubled quotes, line breaks), CRLF or LF line ends, a quote inside an unquoted
 * field taken as it is written. Every record is yielded, a blank line as one with no fields and a
 * record whose quote is never closed (it runs to the end of the input) with its problem, so a bulk
 * command answers every row.
 */
async function* readRecords(source: CsvSource, delimiter: string): AsyncGenerator<CsvRecord> {
  const skipped: ReadRecord[] = [];
  const parser = parse({
    bom: true,
    delimiter,
    record_delimiter: ["\r\n", "\n"],
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: false,
    skip_records_with_error: true,
    info: true,
    on_skip: (error: CsvError | undefined) => {
      if (error) skipped.push({ end: Number(error.lines), fields: [], problem: skipProblem(error) });
      return undefined;
    },
  });
  const input = typeof source === "string" ? createReadStream(source) : Readable.from(source);
  input.on("error", (error: Error) => parser.destroy(error));
  let last = 0;
  const take = (record: ReadRecord): CsvRecord => {
    const line = last + 1;
    last = record.end;
    const fields = record.fields.length === 1 && record.fields[0] === "" ? [] : record.fields;
    return record.problem === undefined ? { line, fields } : { line, fields, problem: record.problem };
  };
  for await (const read of input.pipe(parser) as AsyncIterable<{ record: string[]; info: InfoRecord }>) {
    const record = { end: read.info.lines, fields: read.record };
    while (skipped.length > 0 && skipped[0]!.end < record.end) yield take(skipped.shift()!);
    yield take(record);
  }
  for (const record of skipped) yield take(record);
}

/** What is wrong with a skipped record, said after "the record". */
function skipProblem(error: CsvError): string {
  if (error.code === "CSV_QUOTE_NOT_CLOSED") return "has a quote that is never closed";
  return `cannot be read (${error.message})`;
}

/**
 * A CSV read by a bulk command (`situs lookup`, `situs parse --csv`), one answer per row. Its
 * header (the first record that is not a blank line) is read on opening, so the columns can be
 * checked before any answer is written; every record after it is a row, blank lines included.
 */
export class CsvInput {
  private constructor(
    readonly header: readonly string[] | undefined,
    private readonly records: AsyncIterator<CsvRecord>,
  ) {}

  /** Reads up to the header; a header whose quote is never closed (it swallowed the file) is refused. */
  static async open(input: CsvSource, delimiter = ","): Promise<CsvInput> {
    const records = readRecords(input, delimiter)[Symbol.asyncIterator]();
    for (let next = await records.next(); !next.done; next = await records.next()) {
      if (next.value.problem !== undefined) throw new CsvHeaderError(`the CSV header ${next.value.problem}`);
      if (next.value.fields.length > 0) return new CsvInput(next.value.fields, records);
    }
    return new CsvInput(undefined, records);
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
    for (let next = await this.records.next(); !next.done; next = await this.records.next()) {
      const wait = each(next.value, ++row);
      if (wait) await wait;
    }
  }
}

/**
 * Why a record cannot be read as a row under `header`: a quote never closed, or a field count
 * other than the header's (its fields would sit under the wrong columns). A blank line (no fields)
 * is readable: it is a row with nothing in it.
 */
export function unreadableRecord(record: CsvRecord, header: readonly string[]): string | undefined {
  if (record.problem !== undefined) return `the record starting on line ${record.line} ${record.problem}`;
  if (record.fields.length !== 0 && record.fields.length !== header.length)
    return `line ${record.line} has ${record.fields.length} fields where the header has ${header.length}`;
  return undefined;
}

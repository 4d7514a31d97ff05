import type { Readable } from "node:stream";
import { ApiError } from "../errors.js";
import { locationRequired } from "../http/routes/lookup.js";
import type { CsvRecord } from "../csv.js";
import { readCsvBatches } from "../csv.js";
import type { LookupRequest } from "../parcels/lookup-types.js";
import type { ParcelIndex } from "../parcels/parcel-index.js";
import { ServerTiming } from "../runtime/timing.js";
import type { BulkRow, RowAnswer } from "./bulk-rows.js";
import { errorBody, isRowError } from "./bulk-rows.js";
import { readLineBatches } from "./line-batches.js";

/**
 * Rows looked up together: enough to share one wait among them, few enough that their answers die
 * young. On the demo index, windows of 1,024 JSON-line rows took about a quarter more CPU time
 * and 100 MB more memory than 128 (the answers promoted to the old generation before they are
 * written); 16 was no faster.
 */
const WINDOW = 128;

/**
 * Looks rows up a window at a time and hands the answers on in input order. Parsing is
 * synchronous and a lookup on a cached chunk finishes without I/O, so the window's lookups are
 * all started, then awaited together: one wait per window instead of one per row, and the reads
 * of cold chunks (from S3, say) overlap.
 */
export class BulkLookup {
  private rows: BulkRow[] = [];

  constructor(
    private readonly index: ParcelIndex,
    private readonly emit: (rows: readonly BulkRow[], answers: readonly RowAnswer[]) => Promise<void>,
  ) {}

  /** Adds a row; true when the window is full and `flush` is due. */
  add(row: BulkRow): boolean {
    this.rows.push(row);
    return this.rows.length >= WINDOW;
  }

  async flush(): Promise<void> {
    const rows = this.rows;
    if (rows.length === 0) return;
    this.rows = [];
    const answers = await Promise.all(
      rows.map((row) => (isRowError(row.request) ? row.request : this.lookUp(row.request))),
    );
    await this.emit(rows, answers);
  }

  /** The answer of POST /v1/verify/lookup for a valid request (a refusal as its error body). */
  private async lookUp(request: LookupRequest): Promise<RowAnswer> {
    try {
      const result = await this.index.lookup(request, new ServerTiming());
      return "error" in result ? errorBody(locationRequired(result.states)) : result;
    } catch (error) {
      if (error instanceof ApiError) return errorBody(error);
      throw error;
    }
  }
}

/** Feeds every line of `input` as a row (numbered from 1, blank lines included). */
export async function lookUpLines(
  input: Readable,
  lookup: BulkLookup,
  rowOf: (line: string, row: number) => BulkRow,
): Promise<void> {
  let row = 0;
  for await (const lines of readLineBatches(input)) {
    for (const line of lines) if (lookup.add(rowOf(line, ++row))) await lookup.flush();
  }
  await lookup.flush();
}

/**
 * A CSV being read: its header (the first record that is not a blank line) is read on opening,
 * so the columns can be checked before any answer is written.
 */
export class CsvInput {
  private constructor(
    readonly header: readonly string[] | undefined,
    /** Set when the header's quote is never closed (it swallowed the whole file). */
    readonly headerUnterminated: boolean,
    private readonly first: Iterator<CsvRecord> | undefined,
    private readonly batches: AsyncIterator<Iterable<CsvRecord>>,
  ) {}

  static async open(input: Readable): Promise<CsvInput> {
    const batches = readCsvBatches(input, ",", { blankLines: true })[Symbol.asyncIterator]();
    for (let batch = await batches.next(); !batch.done; batch = await batches.next()) {
      const records = batch.value[Symbol.iterator]();
      for (let next = records.next(); !next.done; next = records.next()) {
        if (next.value.fields.length === 0) continue;
        return new CsvInput(next.value.fields, next.value.unterminated === true, records, batches);
      }
    }
    return new CsvInput(undefined, false, undefined, batches);
  }

  /** Feeds every record after the header as a row (numbered from 1, blank lines included). */
  async lookUp(lookup: BulkLookup, rowOf: (record: CsvRecord, row: number) => BulkRow): Promise<void> {
    let row = 0;
    const feed = async (records: Iterator<CsvRecord>): Promise<void> => {
      for (let next = records.next(); !next.done; next = records.next())
        if (lookup.add(rowOf(next.value, ++row))) await lookup.flush();
    };
    if (this.first) await feed(this.first);
    for (let batch = await this.batches.next(); !batch.done; batch = await this.batches.next())
      await feed(batch.value[Symbol.iterator]());
    await lookup.flush();
  }
}

import type { Readable } from "node:stream";
import { ApiError } from "../errors.js";
import { locationRequired } from "../http/routes/lookup.js";
import type { CsvRecord } from "./csv-input.js";
import type { LookupRequest } from "../parcels/lookup-types.js";
import type { ParcelIndex } from "../parcels/parcel-index.js";
import type { BulkRow, RowAnswer } from "./bulk-rows.js";
import { errorBody, isRowError } from "./bulk-rows.js";
import type { CsvInput } from "./csv-input.js";
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
      const result = (await this.index.lookup(request)).result;
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

/** Feeds every record after a CSV's header as a row (numbered from 1, blank lines included). */
export async function lookUpRecords(
  csv: CsvInput,
  lookup: BulkLookup,
  rowOf: (record: CsvRecord, row: number) => BulkRow,
): Promise<void> {
  await csv.eachRow((record, row) => (lookup.add(rowOf(record, row)) ? lookup.flush() : undefined));
  await lookup.flush();
}

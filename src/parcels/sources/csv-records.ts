import { createReadStream } from "node:fs";
import { isAscii } from "node:buffer";
import { StringDecoder } from "node:string_decoder";

/**
 * RFC 4180 CSV for ingest, read a record at a time: quoted fields may hold commas, doubled quotes
 * and line breaks. Records are yielded with the line number they start on, for reject reports.
 * Ingest reads county files of millions of rows, and this reader costs less than half of what
 * `csv-parse` costs per row (`npm run bench:ingest` holds the whole ingest to 5 µs a row); the
 * bulk commands, which answer each row, read CSV with `csv-parse` (src/cli/csv-input.ts).
 */
export interface CsvRecord {
  line: number;
  fields: string[];
  /** Set on the last record when its quote is never closed (it runs to the end of the input). */
  unterminated?: true;
}

export function splitCsvLine(text: string, delimiter = ","): string[] {
  if (!text.includes('"')) return text.split(delimiter);
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char !== '"') field += char;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (char === '"') quoted = true;
    else if (char === delimiter) {
      fields.push(field);
      field = "";
    } else field += char;
  }
  fields.push(field);
  return fields;
}

/** True while a record has an open quote, so the next physical line continues it. */
function hasOpenQuote(text: string): boolean {
  let count = 0;
  for (let i = text.indexOf('"'); i !== -1; i = text.indexOf('"', i + 1)) count++;
  return count % 2 === 1;
}

/** Joins physical lines into records (a quoted field may span lines), numbering lines from 1. */
class RecordAssembler {
  private lineNumber = 0;
  private pending = "";
  private startLine = 0;
  /** The fields of the previous record read by `plainRecord`. */
  private previous: string[] = [];

  constructor(private readonly delimiter: string) {}

  /** The record a physical line completes, if any. */
  take(raw: string): CsvRecord | undefined {
    this.lineNumber++;
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const text = this.lineNumber === 1 ? line.replace(/^\uFEFF/, "") : line;
    if (this.pending === "") this.startLine = this.lineNumber;
    this.pending = this.pending === "" ? text : `${this.pending}\n${text}`;
    if (hasOpenQuote(this.pending)) return undefined;
    const record = this.pending === "" ? undefined : this.record();
    this.pending = "";
    return record;
  }

  /** The record left open at the end of the file (an unterminated quote), if any. */
  rest(): CsvRecord | undefined {
    return this.pending === "" ? undefined : { ...this.record(), unterminated: true };
  }

  private record(): CsvRecord {
    return { line: this.startLine, fields: splitCsvLine(this.pending, this.delimiter) };
  }

  /**
   * The records of the complete lines of `text` (up to its newline at `end`), parsed as they are
   * consumed. A line without quotes that starts a record (most) has its fields cut straight from
   * `text`, and a field with the text of the same field of the previous such record is that
   * record's string: files repeat a county, city or ZIP row after row, so most of those fields
   * cost no new string, and normalizers memoized on the previous value answer at once.
   */
  *lines(text: string, end: number): Generator<CsvRecord> {
    let quote = text.indexOf('"');
    for (let start = 0; start <= end;) {
      const newline = text.indexOf("\n", start);
      if (quote !== -1 && quote < start) quote = text.indexOf('"', start);
      const plain = this.pending === "" && this.lineNumber > 0 && (quote === -1 || quote > newline);
      const record = plain ? this.plainRecord(text, start, newline) : this.take(text.slice(start, newline));
      start = newline + 1;
      if (record) yield record;
    }
  }

  /** The record of a whole line without quotes, `text` from `start` to `newline`. */
  private plainRecord(text: string, start: number, newline: number): CsvRecord | undefined {
    this.lineNumber++;
    const end = newline > start && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline; // "\r"
    if (end === start) return undefined; // a blank line
    const previous = this.previous;
    const fields: string[] = [];
    for (let at = start; ;) {
      let next = text.indexOf(this.delimiter, at);
      if (next === -1 || next > end) next = end;
      const same = previous[fields.length];
      const reused = same !== undefined && same.length === next - at && text.startsWith(same, at);
      fields.push(reused ? same : text.slice(at, next));
      if (next === end) break;
      at = next + 1;
    }
    this.previous = fields;
    return { line: this.lineNumber, fields };
  }
}

/** A file's path, or a stream of bytes (stdin, a file stream, bytes counted as they pass). */
export type CsvSource = string | AsyncIterable<Buffer>;

/**
 * The records of a file (or a stream of bytes, such as stdin), in batches (one per 1 MiB read from
 * a file, one per chunk a stream gives). A batch parses a record when it is consumed, so only the
 * record being read is alive at a time (not a whole batch of field arrays), and must be consumed
 * before the next batch is requested. Lines are split here, synchronously: per-line async
 * iteration (readline) costs more than parsing a short CSV line.
 */
export async function* readCsvBatches(
  source: CsvSource,
  delimiter = ",",
): AsyncGenerator<Iterable<CsvRecord>> {
  const decoder = new StringDecoder("utf8");
  const records = new RecordAssembler(delimiter);
  const input = typeof source === "string" ? createReadStream(source, { highWaterMark: 1 << 20 }) : source;
  let carry = "";
  // An ASCII chunk after an ASCII chunk (no character left half-read) is decoded as Latin-1, the
  // same text at a fraction of the cost (geojson-lines.ts decodeUtf8); the rest by the decoder.
  let clean = true;
  for await (const chunk of input) {
    const ascii = isAscii(chunk);
    const text = carry + (ascii && clean ? chunk.toString("latin1") : decoder.write(chunk));
    clean = ascii;
    const end = text.lastIndexOf("\n");
    carry = text.slice(end + 1);
    if (end !== -1) yield records.lines(text, end);
  }
  const rest = carry + decoder.end();
  const last = rest !== "" ? records.take(rest) : undefined;
  const open = records.rest();
  yield [last, open].filter((record) => record !== undefined);
}

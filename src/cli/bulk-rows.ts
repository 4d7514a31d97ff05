import type { ErrorExtra } from "../errors.js";
import { ApiError } from "../errors.js";
import { lookupRequestOf, readLookupRequest } from "../http/routes/lookup.js";
import { checkLineLength } from "../http/routes/parse.js";
import type { CsvRecord } from "./csv-input.js";
import type { LookupAnswer, LookupRequest } from "../parcels/lookup-types.js";
import type { ParseAnswer } from "../parse/parse-answer.js";
import type { Parser } from "../parse/parser.js";
import { unreadableRecord } from "./csv-input.js";

/** An answer that is an error: the body the API would send (code, message, extra fields). */
export type RowError = { error: string; message: string } & ErrorExtra;

export type RowAnswer = LookupAnswer | RowError;

/** One input row of a bulk lookup and the lookup it asks for. */
export interface BulkRow {
  /** 1-based: the line of a line-based input, the data record (after the header) of a CSV. */
  row: number;
  /** The CSV record's fields, echoed in CSV output; none when the record cannot be read. */
  fields?: readonly string[];
  /** The text read: the line, or the CSV address column. */
  input?: string;
  /** What the parser read from `input` (free-text modes). */
  parsed?: Pick<ParseAnswer, "type" | "components">;
  /** The components of a CSV row whose header names components. */
  components?: Record<string, string>;
  /** The lookup to make, or the error that answers the row without one. */
  request: LookupRequest | RowError;
}

export function isRowError(value: LookupRequest | RowAnswer): value is RowError {
  return "error" in value;
}

export function errorBody(error: ApiError): RowError {
  return { error: error.code, message: error.message, ...error.extra };
}

/** The request `read` validates, or the API's error for it. */
function requestOf(read: () => LookupRequest): LookupRequest | RowError {
  try {
    return read();
  } catch (error) {
    if (error instanceof ApiError) return errorBody(error);
    throw error;
  }
}

/** What the API answers an empty body; a blank input line gets it. */
const EMPTY_BODY = requestOf(() => readLookupRequest(Buffer.alloc(0)));

function isBlank(text: string): boolean {
  return text.trim() === "";
}

/**
 * A free-text address: parsed as POST /v1/verify/parse does, its answer sent as a lookup body. A
 * blank one (a blank line, an empty address field) sent nothing, and answers as an empty body.
 */
function freeText(parser: Parser, text: string): Pick<BulkRow, "parsed" | "request"> {
  if (isBlank(text)) return { request: EMPTY_BODY };
  try {
    checkLineLength(text);
  } catch (error) {
    if (error instanceof ApiError) return { request: errorBody(error) };
    throw error;
  }
  const { type, components } = parser.parse(text);
  const parsed = { type, components };
  return { parsed, request: requestOf(() => lookupRequestOf(parsed)) };
}

/** `--lines`: one free-text address a line. */
export function lineRow(parser: Parser): (line: string, row: number) => BulkRow {
  return (line, row) => ({ row, input: line, ...freeText(parser, line) });
}

/** `--input` JSON lines: a lookup body (a parse answer or bare components) a line. */
export function jsonRow(line: string, row: number): BulkRow {
  const request = isBlank(line) ? EMPTY_BODY : requestOf(() => readLookupRequest(Buffer.from(line)));
  return { row, request };
}

/** The answer of a CSV record that asks no lookup: a blank line, or a record that cannot be read. */
function unreadRow(record: CsvRecord, row: number, header: readonly string[]): BulkRow | undefined {
  const problem = unreadableRecord(record, header);
  if (problem !== undefined)
    return { row, request: { error: "invalid_csv", message: `Row ${row}: ${problem}.` } };
  if (record.fields.length === 0) return { row, request: EMPTY_BODY };
  return undefined;
}

/** CSV with a free-text address column (`--column`). */
export function csvAddressRow(
  parser: Parser,
  header: readonly string[],
  column: number,
): (record: CsvRecord, row: number) => BulkRow {
  return (record, row) => {
    const refused = unreadRow(record, row, header);
    if (refused) return refused;
    const input = record.fields[column] ?? "";
    return { row, fields: record.fields, input, ...freeText(parser, input) };
  };
}

/** CSV whose header names components; empty fields are left out, as in a JSON body. */
export function csvComponentsRow(header: readonly string[]): (record: CsvRecord, row: number) => BulkRow {
  const names = header.map((name) => name.trim());
  return (record, row) => {
    const refused = unreadRow(record, row, header);
    if (refused) return refused;
    const components: Record<string, string> = {};
    record.fields.forEach((value, i) => {
      const name = names[i];
      if (value !== "" && name !== undefined) components[name] = value;
    });
    return { row, fields: record.fields, components, request: requestOf(() => lookupRequestOf(components)) };
  };
}

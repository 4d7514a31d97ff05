import { csvLine } from "../csv.js";
import type { BulkRow, RowAnswer } from "./bulk-rows.js";
import { PARSED_COLUMNS, parsedFields } from "./parsed-columns.js";

/** How `situs lookup` writes its answers: an optional header, then one line per row. */
export interface AnswerFormat {
  readonly header?: string;
  line(row: BulkRow, answer: RowAnswer): string;
}

/**
 * JSON lines: `{"row", "input"?, "components"?, ...the lookup answer or error body}`. The echo is
 * written in front of the answer's own JSON: an object spread together from both serializes
 * about 15 times slower (measured on demo-index answers), more than the lookup costs.
 */
export const JSON_LINES: AnswerFormat = {
  line(row, answer) {
    let echo = `{"row":${row.row}`;
    if (row.input !== undefined) echo += `,"input":${JSON.stringify(row.input)}`;
    const components = row.parsed?.components ?? row.components;
    if (components !== undefined) echo += `,"components":${JSON.stringify(components)}`;
    const body = JSON.stringify(answer);
    return `${echo}${body === "{}" ? "}" : `,${body.slice(1)}`}\n`;
  },
};

/** The answer columns of CSV output; `candidates` is their count, flags are `true` or empty. */
export const ANSWER_COLUMNS = [
  "status",
  "service_id",
  "building_id",
  "apn",
  "fips",
  "lat",
  "lon",
  "matchConfidence",
  "unit_required",
  "unit_count",
  "candidates",
  "fuzzy",
  "error",
  "message",
] as const;

/**
 * CSV: the input's own columns (every one of a CSV, in order; else the line as `input`), then
 * `row`, the parsed columns for free-text input, and the answer columns. A row whose record could
 * not be read leaves the input columns empty rather than shift its fields under other headers.
 */
export class CsvAnswers implements AnswerFormat {
  readonly header: string;

  constructor(
    private readonly inputColumns: readonly string[] | undefined,
    private readonly parsed: boolean,
  ) {
    this.header = `${csvLine([
      ...(inputColumns ?? ["input"]),
      "row",
      ...(parsed ? PARSED_COLUMNS : []),
      ...ANSWER_COLUMNS,
    ])}\n`;
  }

  line(row: BulkRow, answer: RowAnswer): string {
    const echoed = this.inputColumns
      ? this.inputColumns.map((_, i) => row.fields?.[i] ?? "")
      : [row.input ?? ""];
    const parsed = this.parsed ? parsedFields(row.parsed) : [];
    return `${csvLine([...echoed, String(row.row), ...parsed, ...answerFields(answer)])}\n`;
  }
}

function answerFields(answer: RowAnswer): string[] {
  if ("error" in answer) return [...ANSWER_COLUMNS.slice(0, -2).map(() => ""), answer.error, answer.message];
  return [
    answer.status,
    answer.service_id ?? "",
    answer.building_id ?? "",
    answer.apn ?? "",
    answer.fips ?? "",
    answer.lat === null ? "" : String(answer.lat),
    answer.lon === null ? "" : String(answer.lon),
    String(answer.matchConfidence),
    answer.unit_required ? "true" : "",
    answer.unit_count === undefined ? "" : String(answer.unit_count),
    String(answer.candidates.length),
    answer.fuzzy ? "true" : "",
    "",
    "",
  ];
}

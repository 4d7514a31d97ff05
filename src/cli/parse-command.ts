import { parseArgs } from "node:util";
import { createReadStream, createWriteStream, statSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { CsvRecord } from "./csv-input.js";
import { csvLine } from "../csv.js";
import type { ParseAnswer } from "../parse/parse-answer.js";
import { MAX_LINE_LENGTH } from "../parse/parse-answer.js";
import type { Parser } from "../parse/parser.js";
import { openParser } from "../app/composition.js";
import { loadConfig } from "../config.js";
import { BufferedOutput } from "./buffered-output.js";
import { CsvHeaderError, CsvInput, unreadableRecord } from "./csv-input.js";
import { PARSED_COLUMNS, parsedFields } from "./parsed-columns.js";
import { BulkProgress } from "./progress.js";

export const USAGE = `Usage:
  situs parse "LINE"                      print the parse answer of one line (JSON)
  situs parse --input FILE|-              one address a line in; one answer JSON a line out (JSONL)
  situs parse --input FILE|- --csv --column NAME
                                          CSV in (header required); the CSV out adds the parse
                                          columns: type, every component, lines, warnings, confidence

Exactly one answer per input line or record, in input order, each with its row number (from 1,
blank lines counted and answered as the API answers an empty line). The CSV header is matched
case-insensitively. A record with a quote never closed or another field count than the header's
leaves its columns empty, with invalid_csv under warnings and the line and reason under error; the
run then exits 1 at the end, unless --skip-bad-rows. An address over 256 characters has
line_too_long. A summary goes to standard error.

Options:
  --skip-bad-rows     exit 0 even when some CSV records could not be read (they are still listed)
  --delimiter C       the CSV input's field delimiter (one character; default ","); output uses ","
  --output FILE|-     write there instead of standard output
`;

interface Options {
  line?: string;
  input?: string;
  csv: boolean;
  column?: string;
  skipBadRows: boolean;
  delimiter: string;
  output?: string;
}

function readOptions(args: string[]): Options | string {
  let read;
  try {
    read = parseArgs({
      args,
      options: {
        input: { type: "string" },
        csv: { type: "boolean", default: false },
        column: { type: "string" },
        "skip-bad-rows": { type: "boolean", default: false },
        delimiter: { type: "string", default: "," },
        output: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const { values, positionals } = read;
  if (values.help) return "";
  if (positionals.length > 1) return "give one line (quote it) or --input FILE";
  const options: Options = {
    csv: values.csv,
    skipBadRows: values["skip-bad-rows"],
    delimiter: values.delimiter,
    ...(positionals[0] !== undefined ? { line: positionals[0] } : {}),
    ...(values.input !== undefined ? { input: values.input } : {}),
    ...(values.column !== undefined ? { column: values.column } : {}),
    ...(values.output !== undefined ? { output: values.output } : {}),
  };
  if (options.line === undefined && options.input === undefined) return "give a line or --input FILE";
  if (options.csv && (options.input === undefined || options.column === undefined)) {
    return "--csv needs --input FILE and --column NAME";
  }
  if ([...options.delimiter].length !== 1 || options.delimiter === '"' || options.delimiter === "\n")
    return `--delimiter is one character other than a quote or a line break, not "${options.delimiter}"`;
  if (options.output === "") return "--output needs a file (or - for standard output)";
  if (!options.csv && options.input?.toLowerCase().endsWith(".csv")) {
    return `${options.input} looks like CSV: add --csv --column NAME (the column holding the address)`;
  }
  return options;
}

/** `bin/situs parse`: parses one line, or a file of lines (JSONL) or a CSV column in bulk. */
export const parseCommand = {
  summary: "Parse one address line, or a file of them (JSONL or CSV); see `situs parse --help`.",
  async run(args: string[]): Promise<number> {
    const options = readOptions(args);
    if (typeof options === "string") {
      process.stderr.write(options === "" ? USAGE : `situs parse: ${options}\n\n${USAGE}`);
      return options === "" ? 0 : 2;
    }
    // The same parser as the API: the trained model with the rule-based fallback.
    const parser = openParser(loadConfig(), (message) => process.stderr.write(`situs parse: ${message}\n`));
    if (options.input === undefined) {
      process.stdout.write(`${JSON.stringify(parser.parse(options.line!), null, 2)}\n`);
      return 0;
    }
    const input = options.input === "-" ? process.stdin : createReadStream(options.input);
    const progress = new BulkProgress(
      "situs parse",
      options.input === "-" ? undefined : statSync(options.input).size,
    );
    const bad: string[] = [];
    try {
      const out = new BufferedOutput(
        options.output === undefined || options.output === "-"
          ? process.stdout
          : createWriteStream(options.output),
      );
      if (options.csv) await parseCsv(parser, counted(input, progress), options, { progress, bad }, out);
      else await parseLines(parser, input, progress, out);
      await out.close();
    } catch (error) {
      if (!(error instanceof CsvHeaderError)) throw error;
      process.stderr.write(`situs parse: ${error.message}\n`);
      return 2;
    }
    progress.done();
    if (bad.length === 0 || options.skipBadRows) return 0;
    process.stderr.write(
      `situs parse: ${bad.length} records could not be read (first: ${bad[0]}); --skip-bad-rows accepts them\n`,
    );
    return 1;
  },
};

/** One JSON answer a line of input, blank lines included, each with its row number. */
async function parseLines(
  parser: Parser,
  input: Readable,
  progress: BulkProgress,
  out: BufferedOutput,
): Promise<void> {
  let row = 0;
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    progress.advance(line.length + 1);
    progress.update();
    row++;
    // The API refuses such a line (413 line_too_long); the bulk run says so in its place.
    if (tooLong(line)) {
      progress.row("line_too_long");
      await out.write(
        `${JSON.stringify({ row, input: line, error: "line_too_long", max: MAX_LINE_LENGTH })}\n`,
      );
      continue;
    }
    const answer = parser.parse(line);
    progress.row(answer.type);
    await out.write(`${JSON.stringify({ row, ...answer })}\n`);
  }
  await out.flush();
}

/** A CSV run's progress, and the reasons of the records it could not read. */
interface Run {
  progress: BulkProgress;
  bad: string[];
}

/** The columns `--csv` adds to the input's. */
const CSV_COLUMNS = ["row", ...PARSED_COLUMNS, "lines", "warnings", "confidence", "error"] as const;

/** The bytes of `input` as they are read, counted on the progress bar. */
async function* counted(input: Readable, progress: BulkProgress): AsyncGenerator<Buffer> {
  for await (const chunk of input) {
    progress.advance((chunk as Buffer).length);
    progress.update();
    yield chunk as Buffer;
  }
}

/** Reads CSV with the reader `situs lookup` uses; writes one row per record after the header. */
async function parseCsv(
  parser: Parser,
  input: AsyncIterable<Buffer>,
  options: Options,
  run: Run,
  out: BufferedOutput,
): Promise<void> {
  const csv = await CsvInput.open(input, options.delimiter);
  const header = csv.header ?? [];
  const rowOf = csvRow(parser, header, csv.column(options.column!), run);
  await out.write(`${csvLine([...header, ...CSV_COLUMNS])}\n`);
  await csv.eachRow((record, row) => out.write(`${csvLine(rowOf(record, row))}\n`));
  await out.flush();
}

/**
 * The output row of a record: its fields and what the parser read from column `at`. A blank line
 * is answered as an empty line is; a record that cannot be read leaves the input columns empty
 * rather than shift its fields under other headers.
 */
function csvRow(
  parser: Parser,
  header: readonly string[],
  at: number,
  run: Run,
): (record: CsvRecord, row: number) => string[] {
  const unread = header.map(() => "");
  return (record, row) => {
    const unreadable = unreadableRecord(record, header);
    if (unreadable !== undefined) {
      run.progress.row("invalid_csv");
      run.bad.push(unreadable);
      return [...unread, ...refused(row, "invalid_csv", unreadable)];
    }
    const fields = record.fields.length === 0 ? unread : record.fields;
    const line = record.fields[at] ?? "";
    if (tooLong(line)) {
      run.progress.row("line_too_long");
      return [...fields, ...refused(row, "line_too_long", "")];
    }
    const answer = parser.parse(line);
    run.progress.row(answer.type);
    return [...fields, ...answerFields(row, answer)];
  };
}

/** The added columns of a row the parser does not read: its number, `code` under warnings, why. */
function refused(row: number, code: string, error: string): string[] {
  return CSV_COLUMNS.map((name) =>
    name === "row" ? String(row) : name === "warnings" ? code : name === "error" ? error : "",
  );
}

function tooLong(line: string): boolean {
  return line.length > MAX_LINE_LENGTH && [...line].length > MAX_LINE_LENGTH;
}

function answerFields(row: number, answer: ParseAnswer): string[] {
  const warnings = answer.warnings.map((warning) => warning.code).join(";");
  return [
    String(row),
    ...parsedFields(answer),
    answer.lines.join(" | "),
    warnings,
    String(answer.confidence),
    "",
  ];
}

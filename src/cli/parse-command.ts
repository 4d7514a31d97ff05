import { createReadStream, statSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { CsvRecord } from "../csv.js";
import { csvLine } from "../csv.js";
import type { ParseAnswer } from "../parse/parse-answer.js";
import { MAX_LINE_LENGTH } from "../parse/parse-answer.js";
import type { Parser } from "../parse/parser.js";
import { openParser } from "../app/composition.js";
import { loadConfig } from "../config.js";
import { BufferedOutput } from "./buffered-output.js";
import { CsvHeaderError, CsvInput, unreadableRecord } from "./csv-input.js";
import { PARSED_COLUMNS, parsedFields } from "./parsed-columns.js";
import { Progress } from "./progress.js";

export const USAGE = `Usage:
  situs parse "LINE"                      print the parse answer of one line (JSON)
  situs parse --input FILE|-              one address a line in; one answer JSON a line out (JSONL)
  situs parse --input FILE|- --csv --column NAME
                                          CSV in (header required); the CSV out adds the parse
                                          columns: type, every component, lines, warnings, confidence

One CSV row out per record after the header, blank lines too (parsed as an empty line). A record
with a quote never closed or another field count than the header's leaves its columns empty, with
invalid_csv under warnings; an address over 256 characters has line_too_long there.
`;

interface Options {
  line?: string;
  input?: string;
  csv: boolean;
  column?: string;
}

function readOptions(args: string[]): Options | string {
  const options: Options = { csv: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--input") options.input = args[++i];
    else if (arg === "--csv") options.csv = true;
    else if (arg === "--column") options.column = args[++i];
    else if (arg === "--help" || arg === "-h") return "";
    else if (arg.startsWith("--")) return `unknown option ${arg}`;
    else if (options.line === undefined) options.line = arg;
    else return "give one line (quote it) or --input FILE";
  }
  if (options.line === undefined && options.input === undefined) return "give a line or --input FILE";
  if (options.csv && (options.input === undefined || options.column === undefined)) {
    return "--csv needs --input FILE and --column NAME";
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
    const progress = new Progress(options.input === "-" ? undefined : statSync(options.input).size);
    try {
      if (options.csv) await parseCsv(parser, counted(input, progress), options.column!);
      else await parseLines(parser, input, progress);
    } catch (error) {
      if (!(error instanceof CsvHeaderError)) throw error;
      process.stderr.write(`situs parse: ${error.message}\n`);
      return 2;
    }
    progress.done();
    return 0;
  },
};

async function parseLines(parser: Parser, input: Readable, progress: Progress): Promise<void> {
  const out = new BufferedOutput();
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    progress.advance(line.length + 1);
    if (line.trim() === "") continue;
    // The API refuses such a line (413 line_too_long); the bulk run says so in its place.
    const answer = tooLong(line)
      ? { input: line, error: "line_too_long", max: MAX_LINE_LENGTH }
      : parser.parse(line);
    await out.write(`${JSON.stringify(answer)}\n`);
  }
  await out.flush();
}

/** The columns `--csv` adds to the input's. */
const CSV_COLUMNS = [...PARSED_COLUMNS, "lines", "warnings", "confidence"] as const;

/** The bytes of `input` as they are read, counted on the progress bar. */
async function* counted(input: Readable, progress: Progress): AsyncGenerator<Buffer> {
  for await (const chunk of input) {
    progress.advance((chunk as Buffer).length);
    yield chunk as Buffer;
  }
}

/** Reads CSV with the reader `situs lookup` uses; writes one row per record after the header. */
async function parseCsv(parser: Parser, input: AsyncIterable<Buffer>, column: string): Promise<void> {
  const csv = await CsvInput.open(input);
  const header = csv.header ?? [];
  const rowOf = csvRow(parser, header, csv.column(column));
  const out = new BufferedOutput();
  await out.write(`${csvLine([...header, ...CSV_COLUMNS])}\n`);
  await csv.eachRow((record) => out.write(`${csvLine(rowOf(record))}\n`));
  await out.flush();
}

/**
 * The output row of a record: its fields and what the parser read from column `at`. A blank line
 * is answered as an empty line is; a record that cannot be read leaves the input columns empty
 * rather than shift its fields under other headers.
 */
function csvRow(parser: Parser, header: readonly string[], at: number): (record: CsvRecord) => string[] {
  const unread = header.map(() => "");
  return (record) => {
    if (unreadableRecord(record, header) !== undefined) return [...unread, ...refused("invalid_csv")];
    if (record.fields.length === 0) return [...unread, ...answerFields(parser.parse(""))];
    const line = record.fields[at] ?? "";
    return [
      ...record.fields,
      ...(tooLong(line) ? refused("line_too_long") : answerFields(parser.parse(line))),
    ];
  };
}

/** The added columns of a row the parser does not read: empty, but for `code` under warnings. */
function refused(code: string): string[] {
  return CSV_COLUMNS.map((name) => (name === "warnings" ? code : ""));
}

function tooLong(line: string): boolean {
  return line.length > MAX_LINE_LENGTH && [...line].length > MAX_LINE_LENGTH;
}

function answerFields(answer: ParseAnswer): string[] {
  const warnings = answer.warnings.map((warning) => warning.code).join(";");
  return [...parsedFields(answer), answer.lines.join(" | "), warnings, String(answer.confidence)];
}

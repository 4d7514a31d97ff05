import { createReadStream, createWriteStream, existsSync } from "node:fs";
import type { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { openParser } from "../app/composition.js";
import { loadConfig } from "../config.js";
import type { CsvRecord } from "./csv-input.js";
import { openBlobStore } from "../parcels/store/open-blob-store.js";
import { StoredParcelIndex } from "../parcels/stored-parcel-index.js";
import type { Parser } from "../parse/parser.js";
import { BufferedOutput } from "./buffered-output.js";
import { BulkLookup, lookUpLines, lookUpRecords } from "./bulk-lookup.js";
import type { BulkRow } from "./bulk-rows.js";
import { csvAddressRow, csvComponentsRow, jsonRow, lineRow } from "./bulk-rows.js";
import { CsvHeaderError, CsvInput } from "./csv-input.js";
import { s3Environment } from "./index-location.js";
import type { AnswerFormat } from "./lookup-formats.js";
import { CsvAnswers, JSON_LINES } from "./lookup-formats.js";
import { BulkProgress } from "./progress.js";

export const USAGE = `Usage:
  situs lookup --index DIR|s3://BUCKET/PREFIX --lines FILE|-           one free-text address a line
  situs lookup --index … --input FILE.csv --column NAME               CSV, free-text address column
  situs lookup --index … --input FILE.csv                             CSV, header names components
  situs lookup --index … --input FILE                                 JSON lookup bodies, one a line
Options:
  --csv                      read --input as CSV whatever its name (as stdin needs)
  --output FILE|-            write there instead of stdout
  --delimiter C              the CSV input's field delimiter (one character; default ","); output uses ","
  --output-format jsonl|csv  CSV for CSV input, JSON lines otherwise, unless given
  --skip-bad-rows            exit 0 even when some CSV records could not be read

Looks up many addresses at once, as POST /v1/verify/lookup does. Free text (--lines, --column) is
parsed first as POST /v1/verify/parse does, and its answer's type and components are the lookup
body. Components in a CSV header: addressNumber, streetName, streetSuffix, occupancyId, city,
state, zip5 …; a JSON line is a parse answer or bare components. FILE - reads stdin.

Writes exactly one answer per input row, in input order, with its row number: "row" counts lines
(blank ones too) of line input, and records after the header of a CSV (a record may span lines
inside quotes). JSON lines: {"row", "input" (free text), "components" (what was read), ...the
lookup answer} or {"row", ..., "error", "message"}. CSV: every input column, then row, the parsed type and
components (free text), and status, service_id, building_id, apn, fips, lat, lon, matchConfidence,
unit_required, unit_count, candidates (count), fuzzy, error, message. A blank line or address
answers as an empty body does (invalid_json); a CSV record with a quote never closed or another
field count than the header's answers invalid_csv, naming the row, and the run exits 1 at the end
unless --skip-bad-rows. A summary (rows by status, seconds, rate) goes to standard error.
`;

interface Options {
  index: string;
  /** The file to read, or "-" for stdin. */
  file: string;
  mode: "lines" | "json" | "csv";
  /** The free-text address column of a CSV; without it the header names components. */
  column?: string;
  output?: string;
  format: "jsonl" | "csv";
  skipBadRows: boolean;
  delimiter: string;
}

function parsedArgs(args: string[]) {
  return parseArgs({
    args,
    options: {
      index: { type: "string" },
      input: { type: "string" },
      lines: { type: "string" },
      column: { type: "string" },
      csv: { type: "boolean" },
      output: { type: "string" },
      "output-format": { type: "string" },
      "skip-bad-rows": { type: "boolean" },
      delimiter: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  }).values;
}

/** The options of a run, or what is wrong with the arguments ("" for --help). */
function readOptions(args: string[]): Options | string {
  let values: ReturnType<typeof parsedArgs>;
  try {
    values = parsedArgs(args);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (values.help) return "";
  if (!values.index) return "--index is required";
  const file = values.lines ?? values.input;
  if (file === undefined || (values.lines !== undefined && values.input !== undefined))
    return "give one of --lines FILE and --input FILE";
  if (values.lines !== undefined && (values.csv || values.column !== undefined))
    return "--csv and --column go with --input";
  const csv = values.input !== undefined && (values.csv === true || file.toLowerCase().endsWith(".csv"));
  if (values.column !== undefined && !csv) return "--column needs CSV input (a .csv file, or --csv)";
  const format = values["output-format"] ?? (csv ? "csv" : "jsonl");
  if (format !== "jsonl" && format !== "csv") return `--output-format is jsonl or csv, not "${format}"`;
  if (file !== "-" && !existsSync(file)) return `no file ${file}`;
  const delimiter = values.delimiter ?? ",";
  if ([...delimiter].length !== 1 || delimiter === '"' || delimiter === "\n")
    return `--delimiter is one character other than a quote or a line break, not "${delimiter}"`;
  const mode = values.lines !== undefined ? "lines" : csv ? "csv" : "json";
  return {
    index: values.index,
    file,
    mode,
    format,
    skipBadRows: values["skip-bad-rows"] === true,
    delimiter,
    ...(values.column !== undefined ? { column: values.column } : {}),
    ...(values.output !== undefined ? { output: values.output } : {}),
  };
}

/** `situs lookup`: the bulk form of POST /v1/verify/lookup over a local or S3 index. */
export async function run(args: string[]): Promise<number> {
  const options = readOptions(args);
  if (typeof options === "string") {
    process.stderr.write(options === "" ? USAGE : `situs lookup: ${options}\n\n${USAGE}`);
    return options === "" ? 0 : 2;
  }
  let failure: unknown;
  const index = await StoredParcelIndex.open(openBlobStore(options.index, s3Environment()), {
    cacheBytes: 1 << 30,
    refreshMs: 0,
    onRefreshError: (error) => (failure = error),
  });
  try {
    if (index.buildId === null) {
      const reason = failure instanceof Error ? `: ${failure.message}` : "";
      process.stderr.write(`situs lookup: no parcel index build at ${options.index}${reason}\n`);
      return 1;
    }
    const bad = await lookUpAll(
      index,
      options,
      options.file === "-" ? process.stdin : createReadStream(options.file, { highWaterMark: 1 << 20 }),
    );
    if (bad === 0 || options.skipBadRows) return 0;
    process.stderr.write(
      `situs lookup: ${bad} records could not be read (invalid_csv); --skip-bad-rows accepts them\n`,
    );
    return 1;
  } catch (error) {
    if (!(error instanceof CsvHeaderError)) throw error;
    process.stderr.write(`situs lookup: ${error.message}\n`);
    return 2;
  } finally {
    index.close();
  }
}

/** Looks every row up and writes its answer; resolves to the count of records that could not be read. */
async function lookUpAll(index: StoredParcelIndex, options: Options, input: Readable): Promise<number> {
  // The same parser as the API and `situs parse`: the trained model with the rule-based fallback.
  const parser = (): Parser =>
    openParser(loadConfig(), (message) => process.stderr.write(`situs lookup: ${message}\n`));
  const csvOutput = options.format === "csv";
  if (options.mode !== "csv") {
    const free = options.mode === "lines";
    const rowOf = free ? lineRow(parser()) : jsonRow;
    const format = csvOutput ? new CsvAnswers(undefined, free) : JSON_LINES;
    return answerAll(index, options, format, (lookup) => lookUpLines(input, lookup, rowOf));
  }
  const csv = await CsvInput.open(input, options.delimiter);
  const header = csv.header ?? [];
  const column = options.column;
  let rowOf: (record: CsvRecord, row: number) => BulkRow = csvComponentsRow(header);
  if (column !== undefined) {
    const at = csv.column(column);
    rowOf = csvAddressRow(parser(), header, at);
  }
  const format = csvOutput ? new CsvAnswers(header, column !== undefined) : JSON_LINES;
  return answerAll(index, options, format, (lookup) => lookUpRecords(csv, lookup, rowOf));
}

/**
 * Runs `feed` through a bulk lookup, writing each window's answers in order as it completes;
 * resolves to the count of records that could not be read.
 */
async function answerAll(
  index: StoredParcelIndex,
  options: Options,
  format: AnswerFormat,
  feed: (lookup: BulkLookup) => Promise<void>,
): Promise<number> {
  const out = new BufferedOutput(
    options.output === undefined || options.output === "-"
      ? process.stdout
      : createWriteStream(options.output),
  );
  const progress = new BulkProgress("situs lookup", undefined);
  if (format.header !== undefined) await out.write(format.header);
  const lookup = new BulkLookup(index, async (rows, answers) => {
    let text = "";
    for (let i = 0; i < rows.length; i++) {
      const answer = answers[i]!;
      text += format.line(rows[i]!, answer);
      progress.row("error" in answer ? answer.error : answer.status);
    }
    progress.update();
    await out.write(text);
  });
  await feed(lookup);
  await out.close();
  progress.done();
  return progress.count("invalid_csv");
}

import { createReadStream, statSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { ParseAnswer } from "../parse/parse-answer.js";
import { MAX_LINE_LENGTH, STRING_COMPONENTS } from "../parse/parse-answer.js";
import type { Parser } from "../parse/parser.js";
import { openParser } from "../app/composition.js";
import { loadConfig } from "../config.js";
import { BufferedOutput } from "./buffered-output.js";
import { formatCsvRecord, isOpenRecord, parseCsvRecord } from "./csv.js";
import { Progress } from "./progress.js";

const USAGE = `Usage:
  situs parse "LINE"                      print the parse answer of one line (JSON)
  situs parse --input FILE|-              one address a line in; one answer JSON a line out (JSONL)
  situs parse --input FILE|- --csv --column NAME
                                          CSV in (header required); the CSV out adds the parse
                                          columns: type, every component, lines, warnings, confidence
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
    if (options.csv) await parseCsv(parser, input, options.column!, progress);
    else await parseLines(parser, input, progress);
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

const CSV_COLUMNS = ["type", ...STRING_COMPONENTS, "lines", "warnings", "confidence"] as const;

async function parseCsv(parser: Parser, input: Readable, column: string, progress: Progress): Promise<void> {
  const out = new BufferedOutput();
  let header: string[] | undefined;
  let index = -1;
  let pending = "";
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    progress.advance(text.length + 1);
    pending = pending === "" ? text : `${pending}\n${text}`;
    if (isOpenRecord(pending)) continue;
    const fields = parseCsvRecord(pending);
    pending = "";
    if (header === undefined) {
      header = fields;
      index = header.indexOf(column);
      if (index < 0) throw new Error(`no column "${column}" in the CSV header`);
      await out.write(`${formatCsvRecord([...header, ...CSV_COLUMNS])}\n`);
      continue;
    }
    const line = fields[index] ?? "";
    const added = tooLong(line)
      ? CSV_COLUMNS.map((name) => (name === "warnings" ? "line_too_long" : ""))
      : csvFields(parser.parse(line));
    await out.write(`${formatCsvRecord([...fields, ...added])}\n`);
  }
  await out.flush();
}

function tooLong(line: string): boolean {
  return line.length > MAX_LINE_LENGTH && [...line].length > MAX_LINE_LENGTH;
}

function csvFields(answer: ParseAnswer): string[] {
  const components = STRING_COMPONENTS.map((name) => answer.components[name] ?? "");
  const warnings = answer.warnings.map((warning) => warning.code).join(";");
  return [answer.type, ...components, answer.lines.join(" | "), warnings, String(answer.confidence)];
}

import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

/**
 * RFC 4180 CSV, read a record at a time: quoted fields may hold commas, doubled quotes and line
 * breaks. Records are yielded with the line number they start on, for reject reports.
 */
export interface CsvRecord {
  line: number;
  fields: string[];
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

export async function* readCsv(file: string, delimiter = ","): AsyncGenerator<CsvRecord> {
  const lines = createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
  let lineNumber = 0;
  let pending = "";
  let startLine = 0;
  for await (const raw of lines) {
    lineNumber++;
    const text = lineNumber === 1 ? raw.replace(/^\uFEFF/, "") : raw;
    if (pending === "") startLine = lineNumber;
    pending = pending === "" ? text : `${pending}\n${text}`;
    if (hasOpenQuote(pending)) continue;
    if (pending !== "") yield { line: startLine, fields: splitCsvLine(pending, delimiter) };
    pending = "";
  }
  if (pending !== "") yield { line: startLine, fields: splitCsvLine(pending, delimiter) };
}

/** Quotes a value for CSV output when it needs it. */
export function csvField(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

import { createReadStream } from "node:fs";
import { StringDecoder } from "node:string_decoder";

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

/**
 * The records of a file in batches (one per 1 MiB read): per-line async iteration (readline) costs
 * more than parsing a short CSV line, so lines are split here, synchronously, a chunk at a time.
 */
export async function* readCsvBatches(file: string, delimiter = ","): AsyncGenerator<CsvRecord[]> {
  const decoder = new StringDecoder("utf8");
  let carry = "";
  let lineNumber = 0;
  let pending = "";
  let startLine = 0;
  const take = (raw: string, batch: CsvRecord[]): void => {
    lineNumber++;
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const text = lineNumber === 1 ? line.replace(/^\uFEFF/, "") : line;
    if (pending === "") startLine = lineNumber;
    pending = pending === "" ? text : `${pending}\n${text}`;
    if (hasOpenQuote(pending)) return;
    if (pending !== "") batch.push({ line: startLine, fields: splitCsvLine(pending, delimiter) });
    pending = "";
  };
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    const lines = (carry + decoder.write(chunk as Buffer)).split("\n");
    carry = lines.pop() ?? "";
    const batch: CsvRecord[] = [];
    for (const line of lines) take(line, batch);
    yield batch;
  }
  const rest = carry + decoder.end();
  const batch: CsvRecord[] = [];
  if (rest !== "") take(rest, batch);
  if (pending !== "") batch.push({ line: startLine, fields: splitCsvLine(pending, delimiter) });
  yield batch;
}

/** Quotes a value for CSV output when it needs it. */
export function csvField(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

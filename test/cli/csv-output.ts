import { parse } from "csv-parse/sync";

/** CSV output read back with `csv-parse` (quoted line breaks and all). */
export function csvRows(text: string): string[][] {
  return parse(text, { relax_column_count: true }) as string[][];
}

import { stringify } from "csv-stringify/sync";

/**
 * One line of CSV output (without its line break), written by `csv-stringify`: a field is quoted
 * when it holds the delimiter, a quote or a line break.
 */
export function csvLine(fields: readonly string[]): string {
  return stringify([fields as string[]], { eof: false });
}

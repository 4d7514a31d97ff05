import type { ParseAnswer } from "../parse/parse-answer.js";
import { STRING_COMPONENTS } from "../parse/parse-answer.js";

/** What the parser read, as CSV columns: `situs parse --csv` writes them, and free-text `situs lookup`. */
export const PARSED_COLUMNS = ["type", ...STRING_COMPONENTS] as const;

/** The PARSED_COLUMNS of a parse (all empty when there is none). */
export function parsedFields(parsed: Pick<ParseAnswer, "type" | "components"> | undefined): string[] {
  const components = parsed?.components;
  return [parsed?.type ?? "", ...STRING_COMPONENTS.map((name) => components?.[name] ?? "")];
}

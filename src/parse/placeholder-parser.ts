import type { ParseAnswer } from "./parse-answer.js";
import type { Parser } from "./parser.js";

/**
 * Stands in until the rule-based parser lands: answers every line as undeterminable, which is
 * honest (type `ambiguous`, confidence 0) and keeps the HTTP contract testable.
 */
export class PlaceholderParser implements Parser {
  parse(line: string): ParseAnswer {
    const empty = line.trim() === "";
    return {
      input: line,
      type: "ambiguous",
      components: {},
      lines: [],
      warnings: empty
        ? [{ code: "empty_input", message: "The line is empty." }]
        : [{ code: "ambiguous_type", message: "The address type could not be determined." }],
      confidence: 0,
      model: { name: "placeholder", version: "0.0.0", backend: "heuristic" },
    };
  }
}

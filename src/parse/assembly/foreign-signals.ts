import * as WORDS from "../vocabulary/generated-words.js";
import { wordSet } from "../vocabulary/words.js";
import type { Label } from "../labels.js";
import type { Token } from "../token.js";

/**
 * Signs that a line is not a US address (SPEC `possibly_foreign`): a country or a Canadian
 * province or Mexican state spelled out, a Canadian (A1A 1A1) or UK (SW1A 1AA) postcode, or
 * words in a script US addresses are not written in.
 */
const FOREIGN_WORDS: ReadonlySet<string> = wordSet(WORDS.FOREIGN_WORDS);
const FOREIGN_PAIRS: ReadonlySet<string> = wordSet(WORDS.FOREIGN_PAIRS);
const PAIR_FIRST_WORDS: ReadonlySet<string> = new Set([...FOREIGN_PAIRS].map((pair) => pair.split(" ")[0]!));

/** German street words glued to the name (HAUPTSTRASSE 5) are a strong sign of a German address. */
const GLUED_ENDINGS = ["STRASSE", "STRAAT"];

const CANADA_FORWARD = /^[ABCEGHJ-NPRSTVXY]\d[A-Z]$/;
const CANADA_LOCAL = /^\d[A-Z]\d$/;
const CANADA_GLUED = /^[ABCEGHJ-NPRSTVXY]\d[A-Z]\d[A-Z]\d$/;
const UK_OUTWARD = /^[A-Z]{1,2}\d[A-Z\d]?$/;
const UK_INWARD = /^\d[A-Z]{2}$/;
const NON_LATIN = /[^\u0020-\u024f]/;

/** Tokens [from, to) that mark a line as foreign. */
export interface ForeignSpan {
  from: number;
  to: number;
}

/** The first sign of a foreign line (tokens labelled state excepted); null when there is none. */
export function foreignSpan(tokens: readonly Token[], labels: readonly Label[]): ForeignSpan | null {
  for (let i = 0; i < tokens.length; i++) {
    if (labels[i] === "state") continue; // ARMED FORCES EUROPE ... AND CANADA is AE
    const text = tokens[i]!.text;
    if (FOREIGN_WORDS.has(text)) return { from: i, to: i + 1 };
    if (text.charCodeAt(0) > 127 && NON_LATIN.test(text)) return { from: i, to: i + 1 };
    const next = tokens[i + 1]?.text;
    if (next !== undefined && PAIR_FIRST_WORDS.has(text) && FOREIGN_PAIRS.has(`${text} ${next}`)) {
      return { from: i, to: i + 2 };
    }
    if (text.length === 6 && CANADA_GLUED.test(text)) return { from: i, to: i + 1 };
    if (next !== undefined && next.length === 3 && isPostcodePair(text, next)) return { from: i, to: i + 2 };
    if (text.length > 8 && GLUED_ENDINGS.some((ending) => text.endsWith(ending)))
      return { from: i, to: i + 1 };
  }
  return null;
}

/** Cheap character checks first: most 3-letter tokens (APT, AVE) are no postcode half. */
function isPostcodePair(text: string, next: string): boolean {
  if (!isDigitCode(next.charCodeAt(0))) return false;
  if (text.length === 3 && CANADA_FORWARD.test(text) && CANADA_LOCAL.test(next)) return true;
  return UK_INWARD.test(next) && UK_OUTWARD.test(text);
}

function isDigitCode(c: number): boolean {
  return c >= 48 && c <= 57;
}

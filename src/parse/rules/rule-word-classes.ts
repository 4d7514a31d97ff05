import * as WORDS from "../vocabulary/generated-words.js";
import { wordList, wordSet } from "../vocabulary/words.js";
import { standardDirectional, standardSuffix, standardUnitDesignator } from "../../usps/usps.js";

/**
 * Word classes the rules test tokens against. Token texts are uppercase without punctuation
 * (src/parse/tokenize.ts).
 */

export function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

export function startsWithDigit(text: string | undefined): boolean {
  return text !== undefined && isDigit(text.charCodeAt(0));
}

export function isAllDigits(text: string | undefined): boolean {
  if (text === undefined || text.length === 0) return false;
  for (let i = 0; i < text.length; i++) if (!isDigit(text.charCodeAt(i))) return false;
  return true;
}

export function hasDigit(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (isDigit(text.charCodeAt(i))) return true;
  return false;
}

/** `1/2`, `3/4`: the fraction after a house number (addressNumberSuffix, DECISIONS.md). */
export function isFraction(text: string | undefined): boolean {
  if (text === undefined) return false;
  const slash = text.indexOf("/");
  return slash > 0 && isAllDigits(text.slice(0, slash)) && isAllDigits(text.slice(slash + 1));
}

/**
 * A house number: digits with an optional letter or hyphenated part (`123`, `123A`, `112-10`),
 * or a Wisconsin/Illinois grid number (`N6W23001`, `W180N8085`).
 */
export function isHouseNumber(text: string | undefined): boolean {
  if (text === undefined) return false;
  if (startsWithDigit(text)) return !isFraction(text) && !isOrdinal(text);
  return GRID_NUMBER.test(text) || isGridPart(text);
}

const GRID_NUMBER = /^[NSEW]\d+[NSEW]\d+$/;
const GRID_PART = /^[NSEW]\d+$/;

/** Half of a grid number written in two parts (`W148 N9748`). */
export function isGridPart(text: string | undefined): boolean {
  return text !== undefined && text.length > 2 && GRID_PART.test(text);
}

const ORDINAL_ENDINGS: readonly string[] = wordList(WORDS.ORDINAL_ENDINGS);

/** `1ST`, `22ND`, `103RD`, `5TH`: street names, not house numbers. */
export function isOrdinal(text: string): boolean {
  const n = text.length;
  if (n < 3 || !isAllDigits(text.slice(0, n - 2))) return false;
  return ORDINAL_ENDINGS.includes(text.slice(n - 2));
}

/** Spelled ordinals and the floor names that go before FLOOR (`SECOND FLOOR`, `GROUND FLOOR`). */
export const SPELLED_ORDINALS: ReadonlySet<string> = new Set([
  ...wordList(WORDS.ORDINAL_WORDS),
  ...wordList(WORDS.FLOOR_NAMES),
]);

/** A secondary unit number: has a digit, or is one or two letters (`APT B`, `STE AA`). */
export function isUnitId(text: string | undefined): boolean {
  if (text === undefined || text === "#") return false;
  // STOP RD is a street (WHISTLE STOP RD), not the unit STOP RD.
  return hasDigit(text) || (text.length <= 2 && !isShortWord(text) && standardSuffix(text) === undefined);
}

function isShortWord(text: string): boolean {
  return text === "OF" || text === "AT" || text === "TO" || text === "IN";
}

export function suffixOf(text: string | undefined): string | undefined {
  return text === undefined ? undefined : standardSuffix(text);
}

export function directionalOf(text: string | undefined): string | undefined {
  return text === undefined ? undefined : standardDirectional(text);
}

/** A unit designator of Appendix C2 (`APT`, `SUITE`, `#`). */
export function designatorOf(text: string | undefined): string | undefined {
  return text === undefined ? undefined : standardUnitDesignator(text);
}

/**
 * Designators seen in real mail that Appendix C2 lacks; labelled as units and kept as typed with
 * `unknown_unit_designator` (SPEC). PMB is Pub 28 §285's private mailbox.
 */
export const OTHER_DESIGNATORS: ReadonlySet<string> = wordSet(WORDS.OTHER_UNIT_DESIGNATORS);

/**
 * The street types most streets carry. Where several suffix words could end the street
 * (`MAIN ST PARK CITY`, `LAKE SHORE DR LAKE FOREST`), one of these is preferred: city names end
 * in RAPIDS, FALLS, PARK or HEIGHTS far more often than in ST or AVE.
 */
export const COMMON_SUFFIXES: ReadonlySet<string> = wordSet(WORDS.COMMON_SUFFIXES);

/** Words joining a Spanish or leading-type street name (`AVENUE OF THE AMERICAS`, `CALLE DE LA PAZ`). */
export const NAME_CONNECTORS: ReadonlySet<string> = wordSet(WORDS.NAME_CONNECTORS);

/** Words that start an intersection (SPEC `unsupported_intersection`). */
export const INTERSECTION_WORDS: ReadonlySet<string> = wordSet(WORDS.JOINING_WORDS);

/** `ATTN`, `ATTENTION`: the word that opens an attention line, a recipient's name. */
export function isAttentionWord(text: string | undefined): boolean {
  return text === "ATTN" || text === "ATTENTION";
}

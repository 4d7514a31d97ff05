import * as WORDS from "./generated-words.js";
import { wordList, wordSet } from "./words.js";
import { B_STATES, B_STATE_VARIANTS } from "../../usps/generated-tables.js";
import { standardDirectional, standardState, standardSuffix } from "../../usps/usps.js";

/**
 * Highway names per Publication 28 Appendix F (data/usps/f-highway-examples.tsv holds every
 * example; a test runs them all). A highway name is a highway word group, a route number and
 * optionally BYPASS / FRONTAGE ROAD; it is all street name, with no street suffix (DECISIONS.md).
 * The labeller uses `matchHighway` to find one; assembly uses it to write the standard form.
 */

interface HighwayForm {
  words: readonly string[];
  standard: string;
  /** The route number must contain a digit: the words are also common street words (ROAD 22). */
  numbered: boolean;
}

const FORMS: readonly HighwayForm[] = WORDS.HIGHWAY_FORMS.map(([input, standard, numbered]) => ({
  words: input!.split(" "),
  standard: standard!,
  numbered: numbered === "yes",
})).sort((a, b) => b.words.length - a.words.length);

const NUMBER_SIGNS: ReadonlySet<string> = new Set(["#", ...wordList(WORDS.NUMBER_WORDS)]);

const FIRST_WORDS = new Set(FORMS.map((form) => form.words[0]!));

export interface HighwayMatch {
  /** How many words from `at` the highway name takes. */
  length: number;
  /** The Appendix F standard form of those words. */
  standard: string[];
}

/** Whether the highway name starting at `words[from]` takes exactly the words up to `to`. */
export function coversExactly(words: readonly string[], from: number, to: number): boolean {
  const match = matchHighway(words, from, to);
  return match !== null && match.length === to - from;
}

/**
 * The highway name starting at `words[at]`, if one does: an optional state (KENTUCKY 440,
 * CA COUNTY RD 150), a highway word group, the route number, and BYPASS or FRONTAGE ROAD after it.
 */
export function matchHighway(
  allWords: readonly string[],
  at: number,
  end = allWords.length,
): HighwayMatch | null {
  const first = allWords[at];
  // Most words start no highway: answer them with set look-ups only (speed).
  if (first === undefined || at >= end) return null;
  // ANDERSON COUNTY RD 312: a county's name before a county road.
  const county = (allWords[at + 1] === "COUNTY" || allWords[at + 1] === "CNTY") && !startsWithDigit(first);
  if (!START_WORDS.has(first) && !county) return null;
  const words = end < allWords.length ? allWords.slice(0, end) : allWords;
  const state = stateWordsAt(words, at);
  if (state) {
    const rest = matchForm(words, at + state.length);
    // KY HWY 75: after a state the route is a number (WASHINGTON HWY NE is a street named WASHINGTON).
    if (rest && startsWithDigit(rest.standard[rest.standard.length - 1 - tailLength(rest)]!))
      return { length: state.length + rest.length, standard: [state.code, ...rest.standard] };
    const number = words[at + state.length];
    if (number !== undefined && ROUTE_NUMBER.test(number)) {
      // KY 1207 -> KY HIGHWAY 1207 (Appendix F): a state and a bare route number is a state
      // highway; MS 5-230 (a mail stop) and LA 21702 (a ZIP's five digits) are not.
      const tail = tailWords(words, at + state.length + 1);
      return {
        length: state.length + 1 + tail.length,
        standard: [state.code, "HIGHWAY", number, ...tail.standard],
      };
    }
    return null;
  }
  const form = matchForm(words, at);
  if (form !== null || !(MODIFIERS.has(words[at] ?? "") || county)) return form;
  // OLD US HIGHWAY 90, SCENIC HWY 98: a leading word kept as typed before the highway.
  const modified = matchForm(words, at + 1);
  return modified && { length: modified.length + 1, standard: [words[at]!, ...modified.standard] };
}

/** A state route's number after a bare state: up to four digits, perhaps a letter (TX 71A). */
const ROUTE_NUMBER = /^\d{1,4}[A-Z]?$/;

/** Words kept as typed before a highway name (OLD US HIGHWAY 90, SCENIC HWY 98). */
const MODIFIERS: ReadonlySet<string> = wordSet(WORDS.HIGHWAY_MODIFIERS);

/** Every word a highway name can start with: form words, modifiers, state codes and names. */
const START_WORDS: ReadonlySet<string> = new Set([
  ...FORMS.map((form) => form.words[0]!),
  ...[...B_STATES, ...B_STATE_VARIANTS].flatMap((row) => [row[0]!.split(" ")[0]!, row[1]!]),
  ...MODIFIERS,
]);

function matchForm(words: readonly string[], at: number): HighwayMatch | null {
  const first = words[at];
  if (first === undefined || !FIRST_WORDS.has(first)) return null;
  for (const form of FORMS) {
    if (!startsWithWords(words, at, form.words)) continue;
    // STATE HIGHWAY NO 33, ROUTE # A: the number sign is dropped from the standard form.
    const sign = NUMBER_SIGNS.has(words[at + form.words.length] ?? "") ? 1 : 0;
    const number = words[at + form.words.length + sign];
    if (number === undefined || NUMBER_SIGNS.has(number) || standardDirectional(number) !== undefined)
      continue;
    const lettered = sign === 1 ? number.length <= 2 : !form.numbered;
    if (!startsWithDigit(number) && !lettered) continue;
    const length = form.words.length + sign + 1;
    const tail = tailWords(words, at + length);
    const standard = [...form.standard.split(" "), number, ...tail.standard];
    return { length: length + tail.length, standard };
  }
  return null;
}

/** How many words of a standard form come after its route number (BYP, BYPASS RD). */
function tailLength(match: HighwayMatch): number {
  const last = match.standard[match.standard.length - 1];
  if (last === "BYP" || TAIL_WORDS.has(last!)) return 1;
  return last === "RD" && (match.standard.includes("BYPASS") || match.standard.includes("FRONTAGE")) ? 2 : 0;
}

/** BYPASS alone is abbreviated BYP; before ROAD it stays BYPASS RD; FRONTAGE ROAD is FRONTAGE RD. */
function tailWords(words: readonly string[], at: number): { length: number; standard: string[] } {
  const first = words[at];
  const second = words[at + 1];
  const isRoad = second === "ROAD" || second === "RD";
  if (first === "BYPASS" || first === "BYP") {
    return isRoad ? { length: 2, standard: ["BYPASS", "RD"] } : { length: 1, standard: ["BYP"] };
  }
  if (first === "FRONTAGE" && isRoad) return { length: 2, standard: ["FRONTAGE", "RD"] };
  // HIGHWAY 71 BUSINESS, US 1 ALT: kept as typed.
  if (first !== undefined && TAIL_WORDS.has(first)) return { length: 1, standard: [first] };
  // HIGHWAY 28 AND 55, HWYS 16 & 63: a second route number on the same road is the same street
  // (written with AND), not an intersection, which names a second street.
  if ((first === "AND" || first === "&") && second !== undefined && ROUTE_NUMBER.test(second)) {
    // HWY 10 & 5 MILE RD is a corner with another street.
    const street = standardSuffix(words[at + 2] ?? "") ?? standardSuffix(words[at + 3] ?? "");
    if (street === undefined) return { length: 2, standard: ["AND", second] };
  }
  return { length: 0, standard: [] };
}

const TAIL_WORDS: ReadonlySet<string> = wordSet(WORDS.HIGHWAY_TAIL_WORDS);

/** A state code or name (one or two words) starting a highway name: KY, KENTUCKY, CALIFORNIA. */
function stateWordsAt(words: readonly string[], at: number): { length: number; code: string } | null {
  const first = words[at];
  if (first === undefined || first.length < 2 || FIRST_WORDS.has(first) || startsWithDigit(first))
    return null;
  const second = words[at + 1];
  if (second !== undefined) {
    const code = standardState(`${first} ${second}`);
    if (code !== undefined && words[at + 2] !== undefined) return { length: 2, code };
  }
  const code = standardState(first);
  // A two-letter code must be followed by a highway word or number; IN and OR read as words otherwise.
  return code === undefined ? null : { length: 1, code };
}

function startsWithWords(words: readonly string[], at: number, form: readonly string[]): boolean {
  for (let i = 0; i < form.length; i++) if (words[at + i] !== form[i]) return false;
  return true;
}

export function startsWithDigit(word: string): boolean {
  const c = word.charCodeAt(0);
  return c >= 48 && c <= 57;
}

/**
 * `PR 462` in a Texas address is a private road, not a Puerto Rico highway: Texas counties sign
 * and record private roads so (`PR 462`, like `RANCH RD 620` → `RANCH ROAD 620`). Once the
 * address's state is known, a `PR HIGHWAY` name outside Puerto Rico reads `PRIVATE ROAD`; the
 * parser and the parcel index both apply it, so both sides of a lookup agree.
 */
export function stateHighwayName(name: string, state: string | undefined): string {
  if (state === undefined || state === "" || state === "PR" || !name.startsWith(PR_HIGHWAY)) return name;
  return `PRIVATE ROAD ${name.slice(PR_HIGHWAY.length)}`;
}

const PR_HIGHWAY = "PR HIGHWAY ";

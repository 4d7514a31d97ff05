import { B_STATES, B_STATE_VARIANTS } from "../../usps/generated-tables.js";
import { MAX_STATE_NAME_WORDS, standardState } from "../../usps/usps.js";
import { cityStartBefore } from "./city-boundary.js";
import { cityGazetteer } from "./city-gazetteer.js";
import { COUNTRY_NAMES } from "../vocabulary/country-names.js";
import type { Labelling } from "./labelling.js";
import { directionalOf, isAllDigits, startsWithDigit, suffixOf } from "./rule-word-classes.js";

/** Where the last line starts: the state (or the ZIP when there is no state), or -1. */
export interface Tail {
  /** First token of the state or ZIP (else where trailing country words start); the city ends before it. */
  start: number;
  /** First token after ZIP (+4): what follows (a country, noise) is not address. */
  end: number;
  hasState: boolean;
  hasZip: boolean;
  /** The city was found after the state (`CA LONG BEACH 90807`) and labelled with the tail. */
  cityAfterState: boolean;
  /** Where trailing country words (`USA`) start; the line's length when there are none. */
  country: number;
}

/** Where trailing country words start (`end` when there are none); never the whole line. */
function countryStart(l: Labelling, end: number): number {
  for (const name of COUNTRY_NAMES) {
    const from = end - name.length;
    if (from < 1) continue;
    if (name.every((word, k) => l.texts[from + k] === word)) return from;
  }
  return end;
}

/**
 * The last line read from the right (Pub 28 §22x): ZIP (+4), then the state before it. Returns
 * where the city must end. Trailing country words (`USA`) are skipped.
 */
export function labelTail(l: Labelling): Tail {
  const country = countryStart(l, l.length);
  let end = country;
  let start = end;
  const zip = findZip(l, end);
  let hasZip = false;
  if (zip >= 0) {
    const plus4 = l.text(zip)!.length === 5 && isAllDigits(l.text(zip + 1)) && l.text(zip + 1)!.length === 4;
    l.set(zip, zip + 1, "zip5");
    if (plus4) l.set(zip + 1, zip + 2, "zip4");
    start = zip;
    end = zip + (plus4 ? 2 : 1);
    hasZip = true;
  }
  const state = findState(l, start);
  if (state) {
    // A state code written twice (`IL IL`): both words are the state, which assembly reads
    // once. Not names: `NEW YORK NEW YORK` is a city and its state.
    const again = state.from - 1;
    const code = l.text(state.from)!;
    const repeated =
      start - state.from === 1 && code.length === 2 && again >= 1 && l.free(again) && l.text(again) === code;
    l.set(repeated ? again : state.from, start, "state");
    start = repeated ? again : state.from;
  }
  if (!state && hasZip) {
    const swapped = stateBeforeCity(l, start);
    if (swapped !== null)
      return { start: swapped, end, hasState: true, hasZip, cityAfterState: true, country };
  }
  return { start, end, hasState: state !== null, hasZip, cityAfterState: false, country };
}

/**
 * `101 E MARKET ST UNIT 17771 CA LONG BEACH 90807`: with no state before the ZIP, a state code
 * followed by a city of that state the gazetteer knows, up to the ZIP, is the state written
 * before its city; a code that is also a street type or a directional is left to the street.
 * Labels both; returns where the state starts, or null.
 */
function stateBeforeCity(l: Labelling, zip: number): number | null {
  const gazetteer = cityGazetteer();
  for (let at = zip - 2; at >= 1 && at >= zip - 1 - MAX_CITY_WORDS; at--) {
    const code = l.text(at)!;
    // Not a code that may end a street (`MAIN CT NEW HAVEN`, `16TH ST NE WASHINGTON`).
    if (code.length !== 2 || directionalOf(code) !== undefined || suffixOf(code) !== undefined) continue;
    if (!allFree(l, at, zip)) continue;
    const state = standardState(code);
    if (state === undefined || gazetteer.cityStart(l.texts, at + 1, zip, state) !== at + 1) continue;
    l.set(at, at + 1, "state");
    l.set(at + 1, zip, "city");
    return at;
  }
  return null;
}

/** The most words a city written after its state is looked for in. */
const MAX_CITY_WORDS = 4;

/**
 * The ZIP: the last 5-digit token that is not the first token (a house number) and is followed
 * by nothing but a ZIP+4 add-on or country words. A 3-9 digit token after a state is an invalid
 * ZIP (SPEC `invalid_zip`).
 */
function findZip(l: Labelling, end: number): number {
  if (end === 1 && isAllDigits(l.text(0)) && l.text(0)!.length === 5) return 0; // a line that is only a ZIP
  const first = firstOfTwoZips(l, end);
  if (first >= 0) return first;
  for (let i = end - 1; i >= 1 && i >= end - 4; i--) {
    const text = l.text(i)!;
    if (!l.free(i)) continue;
    const afterState = standardState(l.text(i - 1) ?? "") !== undefined && l.free(i - 1);
    // Words after a ZIP that follows a state are noise (`... IL 62701 FOO`), kept in other.
    if (i < end - 2 && !afterState) continue;
    if (text.length === 5 && isAllDigits(text)) return i;
    // 6270, 627011, 62701-12 after a state: a ZIP written wrong (SPEC invalid_zip).
    if (afterState && i === end - 1 && text.length >= 3 && isAllDigits(text.replace("-", ""))) return i;
  }
  return -1;
}

/**
 * Two ZIPs at the end (`IL 62701 62702`, `IL 62701-1234 62702`, `SPRINGFIELD 62701 62702`): the
 * first, right after the state or a known city, is the ZIP, and the other is noise kept in
 * other, rather than the first ZIP (and its add-on, and the state) read into the city. Returns
 * the first ZIP's token, or -1.
 */
function firstOfTwoZips(l: Labelling, end: number): number {
  if (!isZipWord(l, end - 1)) return -1;
  let first = end - 2;
  const plus4 = l.text(first);
  if (plus4 !== undefined && plus4.length === 4 && isAllDigits(plus4) && l.free(first)) first--;
  if (first < 2 || !isZipWord(l, first) || !l.free(first - 1)) return -1;
  if (standardState(l.text(first - 1)!) !== undefined) return first;
  return cityStartBefore(l, 1, first) >= 0 ? first : -1;
}

/** Token i is unlabelled and five digits. */
function isZipWord(l: Labelling, i: number): boolean {
  const text = l.text(i)!;
  return l.free(i) && text.length === 5 && isAllDigits(text);
}

/** First words of multi-word state names and variants (NEW, NORTH, DISTRICT, W, N ...). */
const MULTI_WORD_STATE_STARTS: ReadonlySet<string> = new Set(
  [...B_STATES, ...B_STATE_VARIANTS]
    .map((row) => row[0]!)
    .filter((name) => name.includes(" "))
    .map((name) => name.split(" ")[0]!),
);

/** The state right before `at`: one word or a multi-word name (`NEW YORK`, `NORTH CAROLINA`). */
function findState(l: Labelling, at: number): { from: number } | null {
  // ARMED FORCES EUROPE, THE MIDDLE EAST, AND CANADA (AE): the long military names.
  for (let from = at - 3; from >= Math.max(1, at - 9); from--) {
    if (
      l.texts[from] === "ARMED" &&
      allFree(l, from, at) &&
      standardState(l.texts.slice(from, at).join(" "))
    ) {
      return { from };
    }
  }
  for (let words = Math.min(MAX_STATE_NAME_WORDS, at - 1); words >= 2; words--) {
    const from = at - words;
    if (!MULTI_WORD_STATE_STARTS.has(l.texts[from]!) || !allFree(l, from, at)) continue;
    const name = l.texts.slice(from, at).join(" ");
    // WASHINGTON DC is the city WASHINGTON in DC; NEW YORK and WEST VIRGINIA are states.
    if (standardState(name) !== undefined && standardState(l.text(from)!) === undefined) return { from };
  }
  const from = at - 1;
  const text = l.text(from);
  if (text === undefined || !l.free(from)) return null;
  if (from === 0) return at === l.length || l.labels[at] === "zip5" ? stateOnly(text) : null;
  if (standardState(text) !== undefined) return plausibleState(l, from) ? { from } : null;
  // Two letters right before a ZIP are a state, valid or not (SPEC `invalid_state`).
  const beforeZip = l.labels[at] === "zip5";
  const twoLetters = text.length === 2 && !startsWithDigit(text) && !startsWithDigit(text.slice(1));
  if (beforeZip && twoLetters && directionalOf(text) === undefined && suffixOf(text) === undefined)
    return { from };
  return null;
}

/**
 * A state word at the end with no ZIP after it could be a street word (`123 MAIN ST` has no
 * state; `100 N LA` is no Louisiana): it needs a word before it that is not a house number, and
 * on a street line a whole street before it, one with a suffix or followed by a city the
 * gazetteer knows (`3719 OLD ALABAMA` and `1112 SO WASHINGTON` are streets; CT, MT and PR are
 * suffixes too, so `123 OAK CT` ends in one).
 */
function plausibleState(l: Labelling, at: number): boolean {
  if (l.labels[at + 1] === "zip5" || l.boundary(at)) return true;
  const before = l.text(at - 1)!;
  if (startsWithDigit(before) || at < 2) return false;
  if (!startsWithDigit(l.text(0))) return suffixOf(l.text(at)) === undefined;
  for (let i = 1; i < at; i++) if (suffixOf(l.text(i)) !== undefined) return true;
  return suffixOf(l.text(at)) === undefined && cityStartBefore(l, 2, at) >= 0;
}

/** A line that is only a state (and ZIP): `IL`, `ILLINOIS 62701`. */
function stateOnly(text: string): { from: number } | null {
  return standardState(text) !== undefined ? { from: 0 } : null;
}

function allFree(l: Labelling, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!l.free(i)) return false;
  return true;
}

import { B_DIRECTIONALS } from "../../usps/generated-tables.js";
import { standardDirectional, suffixName } from "../../usps/usps.js";
import { isKeptStreetType, LOCAL_TYPES } from "../county-spellings.js";
import type { StreetQuery } from "./match-ladder.js";
import { suffixStandard } from "../normalize.js";

/**
 * Other readings of a lookup query: where the words of an address belong is written differently by
 * counties and callers, and each reading puts them elsewhere, so that how the county wrote it and
 * how the caller wrote it meet. Each reading changes one thing and runs through the ladder on its
 * own (parcel-lookup.ts); reading-choice.ts ranks them. Pure: query in, readings out.
 *
 * - A letter that starts a street name (`17417 B MAIN`, the parser's reading of `17417 B Main Rd`)
 *   is the number suffix, street `MAIN`; directional letters (N, S, E, W) are the next case.
 * - A street name that begins with a direction word (`NORTH RIDGE`, `N RIDGE`) and a predirectional
 *   with a name (`N` + `RIDGE`) are three spellings of one street.
 * - A direction word that ends the name (`500 EAST`) is the postdirectional of a grid street.
 * - A fraction read as the unit after the name (`800 5TH 1/2`) may end the name: a street `5TH 1/2`.
 * - A type word that is no Pub 28 suffix (`TURN`, `GRTH`, `GRADE`) may end the name or be the
 *   suffix on either side.
 * - A Pub 28 suffix may sit inside the name on one side (`BIRCH CT` against `BIRCH` + `CT`), and a
 *   type word the parser lost may follow it (`12 Fox Run Turn` parses as `FOX` + `RUN`, `TURN`
 *   dropped as a firm): a guess, never better than a correction.
 *
 * A word moved into the name pins the field it came from: the reading says the street has no such
 * field, so a parcel that records one is corrected, not filled in.
 */
export interface Reading extends StreetQuery {
  streetName: string;
}

/** The street names of the chunks searched: a reading is only built when its street is there. */
export interface StreetNames {
  has(streetName: string): boolean;
  /** Names that are `prefix` and one local type word (`FOX RUN` → `FOX RUN TURN`). */
  withLocalType(prefix: string): readonly string[];
}

const LOCAL_TYPE_SET = new Set(LOCAL_TYPES);
const directionWords = new Map(B_DIRECTIONALS.map((row): [string, string] => [row[1] ?? "", row[0] ?? ""]));
const NONE: readonly Reading[] = [];

/** Street names that end in a local type word, by the words before it: what `withLocalType` reads. */
export function localTypeNames(names: Iterable<string>): Map<string, string[]> {
  const byPrefix = new Map<string, string[]>();
  for (const name of names) {
    const space = name.lastIndexOf(" ");
    if (space < 0 || !LOCAL_TYPE_SET.has(name.slice(space + 1))) continue;
    const prefix = name.slice(0, space);
    byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), name]);
  }
  return byPrefix;
}

/**
 * Whether `wordReadings` may read the query otherwise: it has a predirectional, a name that starts
 * with a letter or a direction word, or a non-Pub 28 type word as its suffix or last word. Cheap,
 * so that plain queries skip the readings.
 */
export function hasWordReadings(query: Reading): boolean {
  if (query.predirectional !== "") return true;
  if (isFraction(query.occupancyId) || isLetter(query.addressNumberSuffix)) return true;
  if (query.streetSuffix !== "" && isKeptStreetType(query.streetSuffix)) return true;
  const name = query.streetName;
  const space = name.indexOf(" ");
  if (space < 0) return false;
  if (space === 1 || standardDirectional(name.slice(0, space)) !== undefined) return true;
  if (
    query.postdirectional === "" &&
    standardDirectional(name.slice(name.lastIndexOf(" ") + 1)) !== undefined
  )
    return true;
  return query.streetSuffix === "" && isKeptStreetType(name.slice(name.lastIndexOf(" ") + 1));
}

/**
 * Readings whose trigger is rare in plain queries (a directional, a single letter or a non-Pub 28
 * type word in play): built for every lookup that has one, so that readings fitting equally well
 * make the answer ambiguous.
 */
export function wordReadings(query: Reading, names: StreetNames): readonly Reading[] {
  if (!hasWordReadings(query)) return NONE;
  const name = query.streetName;
  const space = name.indexOf(" ");
  const keptSuffix = query.streetSuffix !== "" && isKeptStreetType(query.streetSuffix);
  const readings: Reading[] = [];
  const add = (streetName: string, change: Partial<Reading>): void => {
    if (names.has(streetName)) readings.push({ ...query, ...change, streetName });
  };
  const first = space > 0 ? name.slice(0, space) : "";
  const rest = name.slice(space + 1);
  const direction = space > 0 ? standardDirectional(first) : undefined;
  if (direction !== undefined && query.predirectional === "") {
    add(rest, { predirectional: direction });
    add(`${first === direction ? directionWords.get(direction) : direction} ${rest}`, {});
  } else if (
    direction === undefined &&
    isLetter(first) &&
    query.addressNumberSuffix === "" &&
    query.addressNumber !== ""
  ) {
    add(rest, { addressNumberSuffix: first });
    // `3742 A N BEALE RD`: the letter, then the street's own predirectional.
    const restSpace = rest.indexOf(" ");
    const restDirection = restSpace > 0 ? standardDirectional(rest.slice(0, restSpace)) : undefined;
    if (restDirection !== undefined && query.predirectional === "")
      add(rest.slice(restSpace + 1), { addressNumberSuffix: first, predirectional: restDirection });
  }
  // `1589 south 500 east`: a direction word that ends the name is the postdirectional (grid streets).
  const lastSpace = name.lastIndexOf(" ");
  const trailing = lastSpace > 0 ? standardDirectional(name.slice(lastSpace + 1)) : undefined;
  if (trailing !== undefined && query.postdirectional === "")
    add(name.slice(0, lastSpace), { postdirectional: trailing });
  if (query.predirectional !== "" && direction === undefined) {
    const moved = { predirectional: "", pinned: [...(query.pinned ?? []), "predirectional" as const] };
    for (const word of new Set([directionWords.get(query.predirectional) ?? "", query.predirectional])) {
      if (word !== "") add(`${word} ${name}`, moved);
    }
  }
  if (keptSuffix) add(`${name} ${query.streetSuffix}`, joined(query));
  // Marysville's `5TH 1/2` and `C 1/2` streets: the parser reads the half after the name as a unit.
  if (isFraction(query.occupancyId)) add(`${name} ${query.occupancyId}`, { occupancyId: "" });
  // ... and `802 C 1/2` as number `802` suffix `C` on street `1/2`: the letter opens the name.
  if (isLetter(query.addressNumberSuffix))
    add(`${query.addressNumberSuffix} ${name}`, { addressNumberSuffix: "" });
  if (query.streetSuffix === "" && space > 0) {
    const last = name.slice(name.lastIndexOf(" ") + 1);
    if (isKeptStreetType(last))
      add(name.slice(0, name.lastIndexOf(" ")), { streetSuffix: last, guessed: true });
  }
  return readings;
}

/**
 * Readings that move a Pub 28 suffix between name and suffix: nearly every query has one, so they
 * are tried only when no reading fits exactly (the fast path stays one street lookup).
 */
export function suffixReadings(query: Reading, names: StreetNames): readonly Reading[] {
  const suffix = query.streetSuffix;
  const name = query.streetName;
  if (suffix === "") {
    const space = name.lastIndexOf(" ");
    const standard = space > 0 ? suffixStandard(name.slice(space + 1)) : undefined;
    const head = name.slice(0, space);
    return standard !== undefined && names.has(head)
      ? [{ ...query, streetName: head, streetSuffix: standard, guessed: true }]
      : NONE;
  }
  if (isKeptStreetType(suffix)) return NONE; // joined by wordReadings
  const readings: Reading[] = [];
  for (const spelling of new Set([suffix, suffixName(suffix) ?? suffix])) {
    const streetName = `${name} ${spelling}`;
    if (names.has(streetName)) readings.push({ ...query, ...joined(query), streetName });
    // The parser drops a type word it does not know (`TURN` read as a firm): try each after the name.
    for (const guessed of names.withLocalType(streetName))
      readings.push({ ...query, ...joined(query), streetName: guessed, restoresWord: true, guessed: true });
  }
  return readings;
}

const isFraction = (word: string): boolean => /^\d+\/\d+$/.test(word);
const isLetter = (word: string): boolean => word.length === 1 && word >= "A" && word <= "Z";

/** The change of a reading that joins the suffix to the name (`FOX RUN` + `TURN` as `FOX RUN TURN`). */
function joined(query: Reading): Partial<Reading> {
  return { streetSuffix: "", pinned: [...(query.pinned ?? []), "streetSuffix"] };
}

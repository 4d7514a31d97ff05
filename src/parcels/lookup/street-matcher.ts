import { damerauDistance, deletions } from "./edit-distance.js";
import { fuzzyOrdinalReading, ordinalReading } from "./ordinal-name.js";

/**
 * Near-miss street names within one chunk, by symmetric deletion (SymSpell, Wolf Garbe 2012):
 * every street name is indexed under all its deletions of up to MAX_EDITS characters; a query's
 * own deletions then find every name within that many edits without scanning the chunk, and each
 * candidate is verified with the Damerau–Levenshtein distance (edit-distance.ts). Typos, transpositions,
 * missing or doubled letters and spacing (`OAKHILL` / `OAK HILL`) are all one or two edits.
 * Every name within MAX_EDITS is found, also a short one beyond its own budget (`editBudget`): it
 * cannot be the answer, but it can make one ambiguous (`BAR` is one edit from `BAY`, two from `OAK`).
 * Numbered streets are compared by the number they spell (ordinal-name.ts): a street written in
 * the other form (`SECOND` for `2ND`) is a variant, found as one edit more than the query's typos
 * in the spelled-out word (`SECODN` is two from `2ND`).
 */
export const MAX_EDITS = 2;

/**
 * The edit budget for a name: names of three letters or fewer tolerate one edit (two edits of `OAK`
 * make another word), longer ones two. Numbered streets (`14TH`) get two because their digits are
 * guarded separately (`sameDigits`).
 */
export function editBudget(name: string): number {
  return /\d/.test(name) ? MAX_EDITS : lengthBudget(name);
}

/** The edit budget of a name without the digit guard: 1 for three letters or fewer, else 2. */
export function lengthBudget(name: string): number {
  return name.replace(/ /g, "").length > 3 ? MAX_EDITS : 1;
}

/**
 * A street number is a number: like house numbers, it is never fuzzy. A near miss must carry the
 * same digits (in any order, so a swapped `01TH` is still `10TH`): `4TH` is no typo of `14TH`.
 */
export function sameDigits(a: string, b: string): boolean {
  const digits = (text: string): string => [...text.replace(/\D/g, "")].sort().join("");
  return digits(a) === digits(b);
}

/**
 * How many digit edits separate two names: 0 with the same digits (`sameDigits`), else the
 * Damerau–Levenshtein distance between their digit strings (`1ST` / `IST` 1, `1ST` / `11ST` 1,
 * `4TH` / `5HT` 1, `1ST` / `21ST` 1, `1ST` / `ST` 1).
 */
export function digitEdits(a: string, b: string): number {
  return sameDigits(a, b) ? 0 : damerauDistance(a.replace(/\D/g, ""), b.replace(/\D/g, ""));
}

export interface NearStreet {
  name: string;
  distance: number;
  /** Whether `distance` is within the street's own `editBudget`: only then can it be the answer. */
  inBudget: boolean;
  /** Whether it has the query's digits (see `sameDigits`): the first choice of near-miss-choice.ts. */
  sameDigits: boolean;
  /** Whether every digit of the query appears in it: reaching it deletes or moves digits only. */
  keepsQueryDigits: boolean;
  /** Edits of digits among `distance` (`digitEdits`): 0 exactly when `sameDigits`. */
  digitEdits: number;
}

export class StreetMatcher {
  private readonly index = new Map<string, string[]>();
  /** Each ordinal street name's numbered form (`SECOND` → `2ND`), and the names of each number. */
  private readonly readings = new Map<string, string>();
  private readonly byNumber = new Map<string, string[]>();
  readonly bytes: number;

  constructor(names: readonly string[]) {
    let bytes = 0;
    for (const name of names) {
      for (const key of deletions(name, MAX_EDITS)) {
        const list = this.index.get(key);
        if (list) list.push(name);
        else this.index.set(key, [name]);
        bytes += key.length * 2 + 48;
      }
      const reading = ordinalReading(name);
      if (reading === undefined) continue;
      this.readings.set(name, reading);
      this.byNumber.set(reading, [...(this.byNumber.get(reading) ?? []), name]);
    }
    this.bytes = bytes;
  }

  /** Street names within MAX_EDITS of `query` (other than itself), nearest first. */
  near(query: string): NearStreet[] {
    const keys = deletions(query, MAX_EDITS);
    const reading = fuzzyOrdinalReading(query);
    const queryNumber = reading?.numbered ?? query;
    // Digits read through a typo are inferred, not written: they do not outweigh a contender.
    const queryDigits = new Set(reading?.edits ? "" : queryNumber.replace(/\D/g, ""));
    const digitless = !/\d/.test(queryNumber);
    const found = new Map<string, NearStreet>();
    const add = (name: string, distance: number, inBudget: boolean): void => {
      const known = found.get(name);
      if (known && known.distance <= distance) return;
      const number = this.readings.get(name) ?? name;
      const digits = digitless && !/\d/.test(number) ? 0 : digitEdits(queryNumber, number);
      found.set(name, {
        name,
        distance,
        inBudget,
        sameDigits: digits === 0,
        keepsQueryDigits: [...queryDigits].every((digit) => number.includes(digit)),
        digitEdits: digits,
      });
    };
    const seen = new Set<string>();
    for (const key of keys) {
      for (const name of this.index.get(key) ?? []) {
        if (seen.has(name) || name === query) continue;
        seen.add(name);
        if (Math.abs(query.length - name.length) > MAX_EDITS) continue;
        const distance = damerauDistance(query, name);
        // The budget is the candidate street's: `ENER` is two edits from `CENTER`, a 6-letter name.
        if (distance <= MAX_EDITS) add(name, distance, distance <= editBudget(name));
      }
    }
    if (reading && reading.edits < MAX_EDITS) {
      for (const name of this.byNumber.get(reading.numbered) ?? []) {
        if (name !== query) add(name, reading.edits + 1, true);
      }
    }
    return [...found.values()].sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : 1));
  }
}

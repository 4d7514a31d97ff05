import { damerauDistance, deletions } from "./edit-distance.js";

/**
 * Near-miss street names within one chunk, by symmetric deletion (SymSpell, Wolf Garbe 2012):
 * every street name is indexed under all its deletions of up to MAX_EDITS characters; a query's
 * own deletions then find every name within that many edits without scanning the chunk, and each
 * candidate is verified with the Damerau–Levenshtein distance (edit-distance.ts). Typos, transpositions,
 * missing or doubled letters and spacing (`OAKHILL` / `OAK HILL`) are all one or two edits.
 */
export const MAX_EDITS = 2;

/**
 * The edit budget for a name: names of three letters or fewer tolerate one edit (two edits of `OAK`
 * make another word), longer ones two. Numbered streets (`14TH`) get two because their digits are
 * guarded separately (`sameDigits`).
 */
export function editBudget(name: string): number {
  return /\d/.test(name) || name.replace(/ /g, "").length > 3 ? MAX_EDITS : 1;
}

/**
 * A street number is a number: like house numbers, it is never fuzzy. A near miss must carry the
 * same digits (in any order, so a swapped `01TH` is still `10TH`): `4TH` is no typo of `14TH`.
 */
export function sameDigits(a: string, b: string): boolean {
  const digits = (text: string): string => [...text.replace(/\D/g, "")].sort().join("");
  return digits(a) === digits(b);
}

export interface NearStreet {
  name: string;
  distance: number;
  /** Whether it can be the answer (see `sameDigits`); others still make a near miss ambiguous. */
  sameDigits: boolean;
}

export class StreetMatcher {
  private readonly index = new Map<string, string[]>();
  readonly bytes: number;

  constructor(names: readonly string[]) {
    let bytes = 0;
    for (const name of names) {
      for (const key of deletions(name, editBudget(name))) {
        const list = this.index.get(key);
        if (list) list.push(name);
        else this.index.set(key, [name]);
        bytes += key.length * 2 + 48;
      }
    }
    this.bytes = bytes;
  }

  /** Street names `query` is within their edit budget of (other than itself), nearest first. */
  near(query: string): NearStreet[] {
    // The budget is the candidate street's: `ENER` is two edits from `CENTER`, a 6-letter name.
    const seen = new Set<string>();
    const found: NearStreet[] = [];
    for (const key of deletions(query, MAX_EDITS)) {
      for (const name of this.index.get(key) ?? []) {
        if (seen.has(name) || name === query) continue;
        seen.add(name);
        const budget = editBudget(name);
        if (Math.abs(query.length - name.length) > budget) continue;
        const distance = damerauDistance(query, name);
        if (distance <= budget) found.push({ name, distance, sameDigits: sameDigits(query, name) });
      }
    }
    return found.sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : 1));
  }
}

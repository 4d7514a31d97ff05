import { usZipPlaces, type ZipPlace } from "../../zip-places.js";
import { cityWords } from "../gazetteer.js";
import { tokenize } from "../tokenize.js";

/**
 * City names of the national ZIP gazetteer (the `zipcodes` package, the one DECISIONS.md names
 * for lookup): with no comma between street and city, a known city at the end of the words
 * before the state fixes the boundary (`123 MARTIN LUTHER KING JR BLVD SAN FRANCISCO CA`).
 * Names are keyed as the tokenizer writes them (`ST LOUIS`), with SAINT/ST, FORT/FT and
 * MOUNT/MT both ways. Loaded on first use (about 40,000 ZIPs).
 */
export interface CityGazetteer {
  /**
   * Where the longest city name ending at `to` starts (not before `earliest`), in `state` when
   * given; -1 when no city name ends there.
   */
  cityStart(words: readonly string[], earliest: number, to: number, state: string | undefined): number;
}

const VARIANTS: ReadonlyArray<readonly [string, string]> = [
  ["SAINT", "ST"],
  ["FORT", "FT"],
  ["MOUNT", "MT"],
  // N PALM BEACH, S PITTSBURG: directional first words are abbreviated in real mail.
  ["NORTH", "N"],
  ["SOUTH", "S"],
  ["EAST", "E"],
  ["WEST", "W"],
];

class ZipCityGazetteer implements CityGazetteer {
  private readonly states = new Map<string, Set<string>>();
  /** Per last word, the most words a city name ending in it has (most words end few names). */
  private readonly lengthByLastWord = new Map<string, number>();

  constructor(places: Iterable<ZipPlace>) {
    // Many ZIPs share a city: split each distinct name once.
    const statesByCity = new Map<string, Set<string>>();
    for (const place of places) {
      const states = statesByCity.get(place.city);
      if (states) states.add(place.state);
      else statesByCity.set(place.city, new Set([place.state]));
    }
    for (const [city, states] of statesByCity) {
      for (const variant of variantsOf(tokenWords(city)))
        for (const state of states) this.add(variant, state);
    }
  }

  private add(words: string[], state: string): void {
    const name = words.join(" ");
    let states = this.states.get(name);
    if (!states) this.states.set(name, (states = new Set()));
    states.add(state);
    const last = words[words.length - 1]!;
    this.lengthByLastWord.set(last, Math.max(this.lengthByLastWord.get(last) ?? 0, words.length));
  }

  cityStart(words: readonly string[], earliest: number, to: number, state: string | undefined): number {
    const longest = this.lengthByLastWord.get(words[to - 1] ?? "");
    if (longest === undefined) return -1;
    let found = -1;
    let name = "";
    for (let from = to - 1; from >= earliest && from >= to - longest; from--) {
      name = name === "" ? words[from]! : `${words[from]!} ${name}`;
      const states = this.states.get(name);
      if (states !== undefined && (state === undefined || states.has(state))) found = from;
    }
    return found;
  }
}

/**
 * A city name's words as the tokenizer gives them. `cityWords` splits them the same way at a
 * fraction of the cost (tokenize() over 30,000 names took most of a third of a second at start)
 * except at `&`, which the tokenizer keeps as a word (AT&T); test/parse/rules.test.ts checks
 * the two agree on every name of the package.
 */
export function tokenWords(city: string): string[] {
  return city.includes("&") ? tokenize(city).map((token) => token.text) : cityWords(city);
}

function variantsOf(words: string[]): string[][] {
  const variants = [words];
  for (const [long, short] of VARIANTS) {
    if (words[0] === long) variants.push([short, ...words.slice(1)]);
    if (words[0] === short) variants.push([long, ...words.slice(1)]);
  }
  return variants;
}

let loaded: CityGazetteer | undefined;

export function cityGazetteer(): CityGazetteer {
  if (loaded === undefined) {
    loaded = new ZipCityGazetteer(usZipPlaces());
  }
  return loaded;
}

import { usZipPlaces, type ZipPlace } from "../../places/zip-places.js";
import { cityWords } from "../../places/place-words.js";
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

/**
 * The city names ending in one word, read from that word backwards: a word earlier in the line
 * leads to the node of the names that end in it and the words after it.
 */
interface NameEnding {
  /** The states of the city named by the words from this node to the last word. */
  states?: Set<string>;
  /** Per word before them, the longer names. */
  before?: Map<string, NameEnding>;
}

/**
 * Names are kept as a trie of words from the last (Knuth, TAOCP vol. 3 §6.3), so matching the
 * words before a state walks back one small map a word instead of joining each longer name
 * into a string and looking it up among all the names.
 */
class ZipCityGazetteer implements CityGazetteer {
  private readonly byLastWord = new Map<string, NameEnding>();

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
    let nodes = this.byLastWord;
    let node: NameEnding | undefined;
    for (let k = words.length - 1; k >= 0; k--) {
      const word = words[k]!;
      node = nodes.get(word);
      if (node === undefined) nodes.set(word, (node = {}));
      if (k > 0) nodes = node.before ??= new Map();
    }
    (node!.states ??= new Set()).add(state);
  }

  cityStart(words: readonly string[], earliest: number, to: number, state: string | undefined): number {
    let node = this.byLastWord.get(words[to - 1] ?? "");
    let found = -1;
    for (let from = to - 1; node !== undefined && from >= earliest; from--) {
      const states = node.states;
      if (states !== undefined && (state === undefined || states.has(state))) found = from;
      node = from > earliest ? node.before?.get(words[from - 1]!) : undefined;
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

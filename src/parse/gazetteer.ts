import { createRequire } from "node:module";
import { tokenize } from "./tokenize.js";

/**
 * US places from the `zipcodes` npm package (pinned; 42,555 US ZIPs with city and state,
 * DECISIONS.md "Places"). The parser uses it as features only: whether words form a known
 * city name, whether five digits are a known ZIP. It never overrules the labels.
 */
export interface Place {
  zip: string;
  city: string;
  state: string;
}

interface ZipcodesModule {
  codes: Record<string, { zip: string; city: string; state: string; country: string }>;
}

export class Gazetteer {
  readonly places: readonly Place[];
  /** City names as the tokenizer would give them (uppercased, words joined by one space). */
  private readonly cityNames = new Set<string>();
  private readonly cityWords = new Set<string>();
  private readonly zips = new Set<string>();
  readonly longestCityWords: number;

  constructor(places: readonly Place[]) {
    this.places = places;
    let longest = 1;
    for (const place of places) {
      this.zips.add(place.zip);
      const words = tokenize(place.city).map((token) => token.text);
      longest = Math.max(longest, words.length);
      this.cityNames.add(words.join(" "));
      for (const word of words) this.cityWords.add(word);
    }
    this.longestCityWords = longest;
  }

  isCityName(words: string): boolean {
    return this.cityNames.has(words);
  }

  isCityWord(word: string): boolean {
    return this.cityWords.has(word);
  }

  isZip(digits: string): boolean {
    return this.zips.has(digits);
  }
}

let shared: Gazetteer | undefined;

/** The package's US places, loaded once on first use. */
export function usGazetteer(): Gazetteer {
  if (shared === undefined) {
    const zipcodes = createRequire(import.meta.url)("zipcodes") as ZipcodesModule;
    const places = Object.values(zipcodes.codes)
      .filter((code) => code.country === "US")
      .map((code) => ({ zip: code.zip, city: code.city.toUpperCase(), state: code.state }));
    shared = new Gazetteer(places);
  }
  return shared;
}

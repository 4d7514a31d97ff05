import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

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
    for (const place of places) this.zips.add(place.zip);
    for (const city of new Set(places.map((place) => place.city))) {
      const words = cityWords(city);
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

/**
 * A city name as the tokenizer would split it (src/parse/tokenize.ts): accents folded, `-`
 * and `/` separate words, other punctuation dropped (`ST. LOUIS` → `ST LOUIS`). A simpler
 * pass than tokenize() itself, which would cost ~0.5 s over 30,000 names at start.
 */
function cityWords(city: string): string[] {
  return city
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toUpperCase()
    .replace(/[-/]/g, " ")
    .replace(/[^A-Z0-9 ]/g, "")
    .split(" ")
    .filter((word) => word !== "");
}

/**
 * The package's data file is one JSON object literal after `exports.codes = `: JSON.parse reads
 * it in a quarter of the time `require` compiles it (5 MB of JavaScript); require is the fallback
 * should a future version change the layout.
 */
function readZipcodes(): ZipcodesModule["codes"] {
  const require = createRequire(import.meta.url);
  try {
    const text = readFileSync(require.resolve("zipcodes/lib/codes.js"), "utf8");
    const start = text.indexOf("{");
    const end = text.indexOf("\nexports.", start);
    return JSON.parse(text.slice(start, end).trim().replace(/;$/, "")) as ZipcodesModule["codes"];
  } catch {
    return (require("zipcodes") as ZipcodesModule).codes;
  }
}

let shared: Gazetteer | undefined;

/** The package's US places, loaded once on first use. */
export function usGazetteer(): Gazetteer {
  if (shared === undefined) {
    const places = Object.values(readZipcodes())
      .filter((code) => code.country === "US")
      .map((code) => ({ zip: code.zip, city: code.city.toUpperCase(), state: code.state }));
    shared = new Gazetteer(places);
  }
  return shared;
}

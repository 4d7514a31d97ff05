/**
 * The words of the gazetteer's places as the parser reads them (its features and warnings): whether
 * words form a known city name, whether five digits are a known ZIP. Built once per gazetteer from
 * its places (`Gazetteer.placeWords()`); it never overrules the parser's labels.
 */
export interface WordPlace {
  zip5: string;
  city: string;
  state: string;
}

/**
 * The city names that begin with some words (a trie of words, Knuth TAOCP vol. 3 §6.3): whether
 * those words are a name themselves, and per next word the names that go on with it.
 */
export interface CityNameWords {
  readonly isName: boolean;
  readonly next?: ReadonlyMap<string, CityNameWords>;
}

interface CityNameNode {
  isName: boolean;
  next?: Map<string, CityNameNode>;
}

export class PlaceWords {
  readonly places: readonly WordPlace[];
  /** City names as the tokenizer would give them (uppercased, words joined by one space). */
  private readonly cityNames = new Set<string>();
  /** Per first word, the names that begin with it (`NEW` → `NEW YORK` → `NEW YORK MILLS`). */
  private readonly namesByFirstWord = new Map<string, CityNameNode>();
  private readonly cityWords = new Set<string>();
  /** One bit per five-digit number, set for the known ZIPs: 12.5 KB, which stays in cache. */
  private readonly zips = new Int32Array(100_000 / 32 + 1);
  /** City words made of digits only (a few names hold a number: `115` among them). */
  readonly numberCityWords: ReadonlySet<string>;

  constructor(places: readonly WordPlace[]) {
    this.places = places;
    for (const place of places) {
      const value = fiveDigitValue(place.zip5);
      if (value >= 0) this.zips[value >>> 5] = (this.zips[value >>> 5] as number) | (1 << (value & 31));
    }
    for (const city of new Set(places.map((place) => place.city))) {
      const words = cityWords(city);
      this.cityNames.add(words.join(" "));
      for (const word of words) this.cityWords.add(word);
      this.addName(words);
    }
    this.numberCityWords = new Set([...this.cityWords].filter((word) => /^[0-9]+$/.test(word)));
  }

  isCityName(words: string): boolean {
    return this.cityNames.has(words);
  }

  /** The city names that begin with this word; undefined when none does. */
  namesStartingWith(word: string): CityNameWords | undefined {
    return this.namesByFirstWord.get(word);
  }

  private addName(words: readonly string[]): void {
    let nodes = this.namesByFirstWord;
    let node: CityNameNode | undefined;
    for (const word of words) {
      if (node !== undefined) nodes = node.next ??= new Map();
      node = nodes.get(word);
      if (node === undefined) nodes.set(word, (node = { isName: false }));
    }
    if (node !== undefined) node.isName = true;
  }

  isCityWord(word: string): boolean {
    return this.cityWords.has(word);
  }

  isZip(digits: string): boolean {
    const value = fiveDigitValue(digits);
    return value >= 0 && ((this.zips[value >>> 5] as number) & (1 << (value & 31))) !== 0;
  }
}

/**
 * A city name as the tokenizer would split it (src/parse/tokenize.ts): accents folded, `-`
 * and `/` separate words, other punctuation dropped (`ST. LOUIS` → `ST LOUIS`). A simpler
 * pass than tokenize() itself, which would cost ~0.5 s over 30,000 names at start.
 */
export function cityWords(city: string): string[] {
  return city
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toUpperCase()
    .replace(/[-/]/g, " ")
    .replace(/[^A-Z0-9 ]/g, "")
    .split(" ")
    .filter((word) => word !== "");
}

/** The number five digits spell, or -1 for any other text. */
export function fiveDigitValue(text: string): number {
  if (text.length !== 5) return -1;
  let value = 0;
  for (let i = 0; i < 5; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

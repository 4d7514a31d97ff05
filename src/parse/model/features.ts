import {
  biasKeys,
  bigramKeys,
  boundaryAfterOf,
  boundaryKeys,
  commaKeys,
  edgeWord,
  featureKey,
  hashString,
  KeyList,
  LINE_END,
  LINE_START,
  NEIGHBOUR_OFFSETS,
  neighbourKeys,
  periodKeys,
  placeCode,
  positionKeys,
  ruleCode,
  ruleKeys,
  signatureKeys,
  TEMPLATE,
} from "./feature-keys.js";
import { nationalGazetteer } from "../../places/gazetteer.js";
import type { CityNameWords, PlaceWords } from "../../places/place-words.js";
import type { KnownWords } from "./known-words.js";
import { LABEL_INDEX, LABELS, type Label } from "../labels.js";
import { labelAddress } from "../rules/label-address.js";
import type { Token } from "../token.js";
import { wordClasses } from "../vocabulary/word-classes.js";

/** Feature extraction settings, stored in the model file's header. */
export interface FeatureConfig {
  /** Bump when templates change: a model trained under another version is refused. */
  templatesVersion: number;
  /** Words seen often in training; other words of four letters or more get character n-grams. */
  commonWords: string[];
  /**
   * The rule-based labeller's labels as features (stacking, templates version 2): the label of
   * the token, and of the tokens before and after it.
   */
  ruleLabels?: boolean;
}

/** Version 2 adds the rule-label templates (used when FeatureConfig.ruleLabels is set). */
export const TEMPLATES_VERSION = 2;
const KNOWN_TEMPLATE_VERSIONS = [1, 2];

const LEX = {
  digits: 1 << 0,
  hasDigit: 1 << 1,
  letters: 1 << 2,
  singleLetter: 1 << 3,
  fraction: 1 << 4,
  hyphen: 1 << 5,
  hash: 1 << 6,
  ampersand: 1 << 7,
} as const;

const GAZ = { cityWord: 1, zip: 2, cityBegin: 4, cityInside: 8, cityEnd: 16, citySingle: 32 } as const;
/** Per-position feature keys of one token sequence: keys[offsets[t] .. offsets[t+1]). */
export interface ExtractedFeatures {
  length: number;
  keys: Uint32Array;
  offsets: Int32Array;
}

/**
 * What a word contributes on its own, computed once per distinct word and cached. A number
 * that shares its description (FeatureExtractor.sharedNumberInfo) gets the first such number's:
 * its `text` and `hash` are that number's, not the token's.
 */
export interface WordInfo {
  text: string;
  hash: number;
  /** lexical bits | word classes << 8 | (city word, known ZIP) << 24 */
  bits: number;
  /** The keys of the word's own features (identity, shape, length, classes, n-grams). */
  keys: Uint32Array;
  /** The known city names that begin with the word (undefined: none). */
  cityNames: CityNameWords | undefined;
  /**
   * Emission scores of the word under one model, per city-match bits and comma after
   * (src/parse/model/emission-scorer.ts fills and reads it); cached here so a token costs one word
   * look-up.
   */
  scores?: Array<Float32Array | undefined>;
}

/**
 * One line as the features read it. Every feature of a token belongs to one of these groups,
 * each a function of few values, so inference can sum the weights of the word, place and
 * neighbour groups once per value (src/parse/model/emission-scorer.ts):
 *   word        the token's WordInfo, its signature, a comma after it
 *                                                        (WordInfo.keys, signatureKeys, boundaryKeys)
 *   place       the token's place in the line            (placeKeys of places[t])
 *   pair        the word with each of its neighbours     (bigramKeys)
 *   neighbour   each of the four neighbours' word and signature (neighbourKeys)
 *   rule        the rule labels of the token and its neighbours (ruleKeys; an option)
 * The key functions are in src/parse/model/feature-keys.ts. Arrays are reused by the next line.
 */
export interface LineAnalysis {
  length: number;
  /** Each token's description (a shared one for most numbers: WordInfo). */
  infos: WordInfo[];
  /** Each token's own word hash, shared description or not. */
  words: Int32Array;
  /** Word bits | city-match bits << 24 (GAZ). */
  signatures: Int32Array;
  /** Packed place of each token (placeCode). */
  places: Int32Array;
  /** Packed rule labels of each token and its neighbours (ruleCode), when the config asks. */
  rules: Int32Array;
}

/** Distinct words cached before the cache is cleared (bounds memory on a long-running service). */
const WORD_CACHE_SIZE = 20_000;

/** Lengths of number a word's features tell apart: its shape reads 8 digits, its length 10. */
const NUMBER_LENGTHS = 10;

export class FeatureExtractor {
  private readonly common: ReadonlySet<string>;
  /** Whether the rule labels are features (FeatureConfig.ruleLabels). */
  readonly ruleLabels: boolean;
  private readonly wordCache = new Map<string, WordInfo>();
  /** Per length (and ZIP or not), the one description of the numbers no feature names (sharedNumberInfo). */
  private readonly numberShapes: Array<WordInfo | undefined> = [];
  private readonly list = new KeyList();
  private offsets = new Int32Array(65);
  private readonly line: LineAnalysis = {
    length: 0,
    infos: [],
    words: new Int32Array(64),
    signatures: new Int32Array(64),
    places: new Int32Array(64),
    rules: new Int32Array(64),
  };

  /**
   * `knownWords`, at inference, names the words the model knows by name (its dictionary's):
   * numbers it does not know share one description per shape (sharedNumberInfo). Training
   * passes none, so every word keeps its own features.
   */
  constructor(
    config: FeatureConfig,
    private readonly gazetteer: PlaceWords = nationalGazetteer().placeWords(),
    private readonly knownWords?: KnownWords,
  ) {
    if (!KNOWN_TEMPLATE_VERSIONS.includes(config.templatesVersion)) {
      throw new Error(`feature templates version ${config.templatesVersion} is not supported`);
    }
    if (config.ruleLabels === true && config.templatesVersion < 2) {
      throw new Error(`rule-label features need templates version 2, not ${config.templatesVersion}`);
    }
    this.common = new Set(config.commonWords);
    this.ruleLabels = config.ruleLabels === true;
  }

  /** Keys for every token; the answer's arrays are reused by the next call. */
  extract(input: string, tokens: readonly Token[]): ExtractedFeatures {
    const line = this.analyze(input, tokens);
    const n = line.length;
    const { infos, words, signatures, places } = line;
    const list = this.list;
    list.count = 0;
    if (this.offsets.length <= n) this.offsets = new Int32Array(n * 2 + 1);
    for (let t = 0; t < n; t++) {
      this.offsets[t] = list.count;
      const word = words[t] as number;
      const place = places[t] as number;
      biasKeys(list);
      signatureKeys(signatures[t] as number, list);
      periodKeys(place, list);
      list.addAll((infos[t] as WordInfo).keys);
      commaKeys(place, list);
      boundaryKeys(word, boundaryAfterOf(place), list);
      positionKeys(place, list);
      for (let k = 0; k < NEIGHBOUR_OFFSETS.length; k++) {
        const u = t + (NEIGHBOUR_OFFSETS[k] as number);
        if (u >= 0 && u < n) neighbourKeys(k, words[u] as number, signatures[u] as number, list);
        else neighbourKeys(k, edgeWord(k), edgeWord(k), list);
      }
      const previous = t > 0 ? (words[t - 1] as number) : LINE_START;
      const next = t + 1 < n ? (words[t + 1] as number) : LINE_END;
      bigramKeys(previous, word, next, list);
      if (this.ruleLabels) ruleKeys(line.rules[t] as number, list);
    }
    this.offsets[n] = list.count;
    return { length: n, keys: list.keys, offsets: this.offsets };
  }

  /** The words, signatures and places of a line (reused by the next call). */
  analyze(input: string, tokens: readonly Token[]): LineAnalysis {
    const n = tokens.length;
    const line = this.line;
    if (line.words.length < n) {
      line.words = new Int32Array(n * 2);
      line.signatures = new Int32Array(n * 2);
      line.places = new Int32Array(n * 2);
      line.rules = new Int32Array(n * 2);
    }
    line.length = n;
    const { infos, words, signatures, places } = line;
    infos.length = n;
    let segments = 0;
    for (let t = 0; t < n; t++) {
      const token = tokens[t] as Token;
      const text = token.text;
      const number = this.knownWords !== undefined && isDigits(text);
      const hash = number ? hashString(text) : 0;
      const shared = number ? this.sharedNumberInfo(text, hash) : undefined;
      const info = shared ?? this.wordInfo(text);
      infos[t] = info;
      // Word pairs (bigramKeys) read the token's own hash, whatever description it shares.
      words[t] = shared === undefined ? info.hash : hash;
      signatures[t] = info.bits;
      if (t > 0 && token.boundaryBefore) segments++;
    }
    this.markCities(line);
    let segment = 0;
    let numberSeen = 0;
    for (let t = 0; t < n; t++) {
      const token = tokens[t] as Token;
      if (token.boundaryBefore) segment++;
      const signature = signatures[t] as number;
      places[t] = placeCode(
        input.charCodeAt(token.end) === 46,
        t > 0 && token.boundaryBefore,
        t + 1 < n && (tokens[t + 1] as Token).boundaryBefore,
        Math.min(t, 5),
        Math.min(n - 1 - t, 4),
        Math.min(segment, 3),
        Math.min(segments - segment, 3),
        numberSeen,
        signature & 0xff,
      );
      if ((signature & LEX.digits) !== 0) numberSeen = 1;
    }
    if (this.ruleLabels) this.markRuleLabels(tokens, line);
    return line;
  }

  private markRuleLabels(tokens: readonly Token[], line: LineAnalysis): void {
    const labels = labelAddress(tokens).labels;
    const n = line.length;
    const index = (t: number) =>
      t < 0 || t >= n ? LABELS.length : (LABEL_INDEX.get(labels[t] as Label) ?? LABELS.length);
    for (let t = 0; t < n; t++) line.rules[t] = ruleCode(index(t - 1), index(t), index(t + 1));
  }

  /**
   * The description a number shares with every number of its length (and, for five digits,
   * with every known or every unknown ZIP) when no feature of the model names it: house
   * numbers and ZIPs are nearly all distinct, and their features differ only in those. Each
   * such description is the first such number's; the word features of its own hash name
   * nothing, like those of the number it stands for. Undefined for the numbers the model may
   * know by name and the few that are city words. `text` is digits only, `hash` its hash.
   */
  private sharedNumberInfo(text: string, hash: number): WordInfo | undefined {
    if (this.knownWords === undefined || this.knownWords.mayKnow(hash)) return undefined;
    if (this.gazetteer.numberCityWords.has(text)) return undefined;
    const zip = text.length === 5 && this.gazetteer.isZip(text);
    const slot = Math.min(text.length, NUMBER_LENGTHS) * 2 + (zip ? 1 : 0);
    return (this.numberShapes[slot] ??= this.wordInfo(text));
  }

  private wordInfo(text: string): WordInfo {
    let info = this.wordCache.get(text);
    if (info !== undefined) return info;
    const gazetteer =
      (this.gazetteer.isCityWord(text) ? GAZ.cityWord : 0) |
      (text.length === 5 && this.gazetteer.isZip(text) ? GAZ.zip : 0);
    const bits = lexicalBits(text) | (wordClasses(text) << 8) | (gazetteer << 24);
    const hash = hashString(text);
    const keys = [
      featureKey(TEMPLATE.word, hash),
      featureKey(TEMPLATE.shape, shapeHash(text, false)),
      featureKey(TEMPLATE.collapsedShape, shapeHash(text, true)),
      featureKey(TEMPLATE.length, Math.min(text.length, 10)),
    ];
    for (let bit = 0; bit < 26; bit++) {
      if ((bits & (1 << bit)) === 0) continue;
      keys.push(
        featureKey(bit < 8 ? TEMPLATE.lexical : bit < 24 ? TEMPLATE.wordClass : TEMPLATE.gazetteer, bit),
      );
    }
    if (text.length >= 4 && (bits & LEX.letters) !== 0 && !this.common.has(text)) {
      keys.push(
        featureKey(TEMPLATE.prefix3, hashString(text.slice(0, 3))),
        featureKey(TEMPLATE.suffix3, hashString(text.slice(-3))),
      );
      keys.push(
        featureKey(TEMPLATE.prefix2, hashString(text.slice(0, 2))),
        featureKey(TEMPLATE.suffix2, hashString(text.slice(-2))),
      );
    }
    const cityWord = (gazetteer & GAZ.cityWord) !== 0;
    info = {
      text,
      hash,
      bits,
      keys: Uint32Array.from(keys),
      cityNames: cityWord ? this.gazetteer.namesStartingWith(text) : undefined,
    };
    if (this.wordCache.size >= WORD_CACHE_SIZE) this.wordCache.clear();
    this.wordCache.set(text, info);
    return info;
  }

  /**
   * Adds to each signature the longest known city name starting at its token (begin / inside
   * / end / single). A name grows only while it is the start of a known name: the walk follows
   * the gazetteer's trie of names word by word from the token's own names.
   */
  private markCities(line: LineAnalysis): void {
    const { length: n, infos, signatures } = line;
    const mark = (t: number, bit: number) => (signatures[t] = (signatures[t] as number) | (bit << 24));
    for (let t = 0; t < n; t++) {
      let names = (infos[t] as WordInfo).cityNames;
      if (names === undefined) continue;
      let longest = names.isName ? 1 : 0;
      for (let k = 1; t + k < n; k++) {
        names = names.next?.get((infos[t + k] as WordInfo).text);
        if (names === undefined) break;
        if (names.isName) longest = k + 1;
      }
      if (longest === 1) mark(t, GAZ.citySingle);
      if (longest > 1) {
        mark(t, GAZ.cityBegin);
        for (let k = 1; k < longest - 1; k++) mark(t + k, GAZ.cityInside);
        mark(t + longest - 1, GAZ.cityEnd);
      }
    }
  }
}

function isDigits(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

function lexicalBits(text: string): number {
  let digits = 0;
  let letters = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if (c >= 65 && c <= 90) letters++;
    else if (c === 47) bits |= LEX.fraction;
    else if (c === 45) bits |= LEX.hyphen;
    else if (c === 35) bits |= LEX.hash;
    else if (c === 38) bits |= LEX.ampersand;
  }
  if (digits === text.length) bits |= LEX.digits;
  if (digits > 0) bits |= LEX.hasDigit;
  if (letters === text.length) bits |= LEX.letters;
  if (letters === 1 && text.length === 1) bits |= LEX.singleLetter;
  return bits;
}

/**
 * Word shape: digits → 9, letters → A, others kept; at most 8 characters. Collapsed, runs of
 * a class count once (`12345` → `9`, `4B` → `9A`), so shapes generalize across lengths.
 */
function shapeHash(text: string, collapsed: boolean): number {
  let h = 0x811c9dc5;
  let previous = -1;
  const limit = Math.min(text.length, 8);
  for (let i = 0; i < limit; i++) {
    const c = text.charCodeAt(i);
    const cls = c >= 48 && c <= 57 ? 57 : c >= 65 && c <= 90 ? 65 : c;
    if (collapsed && cls === previous) continue;
    previous = cls;
    h = Math.imul(h ^ cls, 0x01000193);
  }
  return (h ^ (collapsed ? 0 : text.length > 8 ? 1 : 0)) >>> 0;
}

import { standardStreetName } from "../parse/assembly/street-components.js";
import { standardDirectional, standardState, standardSuffix, standardUnitDesignator } from "../usps/usps.js";
import { lotDesignator, lotUnit, suffixVariant } from "./county-spellings.js";

/**
 * Normalization shared by ingest and lookup, so that a value typed by a caller and the value a
 * county wrote meet in one spelling: uppercase, punctuation dropped (except `/` in fractions, `-`
 * inside numbers and the `#` designator, DECISIONS.md "Values"), whitespace collapsed, and the
 * Publication 28 standard forms of suffixes (App. C1), directionals (App. B), unit designators
 * (App. C2) and states (App. B), plus the county spellings of data/parcels (county-spellings.ts):
 * street types (`CRT`) and lot designators (`RR`). Words that are no standard form are kept as
 * written.
 */
const cache = new Map<string, string>();
const CACHE_LIMIT = 200_000;
/** Most county values are already clean (uppercase words, single spaces): answered without work. */
const ALREADY_CLEAN = /^[A-Z0-9]+(?:(?: |(?<=[0-9])[-/](?=[0-9]))[A-Z0-9]+)*$/;

/** Uppercase, punctuation to spaces (keeping `/`, `-` and `#`), whitespace collapsed. */
export function cleanText(raw: string): string {
  if (raw === "" || ALREADY_CLEAN.test(raw)) return raw;
  const cached = cache.get(raw);
  if (cached !== undefined) return cached;
  const clean = raw
    .toUpperCase()
    .replace(/[^\p{L}\p{N}/#\- ]+/gu, (match) => (match.includes(".") || match === "'" ? "" : " "))
    .replace(/(?<![\p{N}])[-/]|[-/](?![\p{N}])/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(raw, clean);
  return clean;
}

/** The street name cleaned, its Appendix F highway words in standard form (`HWY 65` → `HIGHWAY 65`), as the parser writes them. */
export function normalizeStreetName(raw: string): string {
  return standardHighway(cleanText(raw));
}

function standardHighway(name: string): string {
  // Only a name with a digit can be a numbered highway (`US 89`, `CR 1185`, `I-10`).
  return /\d/.test(name) ? standardStreetName(name.replace(OLD_ORDINAL, modernOrdinal).split(" ")) : name;
}

/** `2D`, `3D`, `22D`: the older ordinals Yuba County still writes, for `2ND`, `3RD`, `22ND`. */
const OLD_ORDINAL = /\b(\d*)([23])D\b/g;

function modernOrdinal(match: string, tens: string, last: string): string {
  if (tens.endsWith("1")) return match; // `12D` is no ordinal spelling (12TH): kept as written
  return `${tens}${last}${last === "2" ? "ND" : "RD"}`;
}

export function normalizeSuffix(raw: string): string {
  const clean = cleanText(raw);
  return suffixStandard(clean) ?? clean;
}

/** The standard abbreviation of a street type word: App. C1 (and its legacy forms) or a county spelling. */
export function suffixStandard(word: string): string | undefined {
  return standardSuffix(word) ?? suffixVariant(word);
}

export function normalizeDirectional(raw: string): string {
  const clean = cleanText(raw).replace(/ /g, "");
  return standardDirectional(clean) ?? clean;
}

/** Designators in App. C2 form; a lot word is its designator (`RR`, `Unit Rear` → `REAR`). */
export function normalizeUnitType(raw: string): string {
  if (raw === "") return "";
  const clean = cleanText(raw);
  return standardUnitDesignator(clean) ?? lotDesignator(clean) ?? clean;
}

/**
 * Unit numbers lose their `#` signs and spaces (`A&B` is `AB`, San Francisco's `UTILITY#` is
 * `UTILITY`); a lot word is its designator
 * (`#Rear`, `RR`, `Unit Rear` → `REAR`), so every spelling of a lot unit meets the stored one.
 */
export function normalizeUnitId(raw: string): string {
  if (raw === "") return "";
  const clean = cleanText(raw).replace(/#/g, " ").trim();
  return lotDesignator(clean) ?? clean.replace(/ /g, "");
}

export function normalizeState(raw: string): string {
  const clean = cleanText(raw);
  return standardState(clean) ?? clean;
}

export interface ZipParts {
  zip5: string;
  zip4: string;
}

/**
 * ZIP and ZIP+4 from `94103`, `94103-1234` or `941031234`. Spreadsheets drop leading zeros of
 * New England ZIPs (`2134` for `02134`), so 3- and 4-digit values are padded. Anything else is
 * invalid and answered as undefined.
 */
export function normalizeZip(raw: string): ZipParts | undefined {
  const digits = raw.trim();
  if (digits === "") return { zip5: "", zip4: "" };
  const match = /^(\d{3,5})(?:-?(\d{4}))?$/.exec(digits);
  if (!match) return undefined;
  return { zip5: (match[1] ?? "").padStart(5, "0"), zip4: match[2] ?? "" };
}

export interface StreetParts {
  predirectional: string;
  streetName: string;
  streetSuffix: string;
  postdirectional: string;
}

/**
 * Splits a whole street (`East Rezanof Drive`, `Main St N`) into Pub 28 parts. A directional or
 * suffix word is only taken when a name remains, so `NORTH ST` keeps `NORTH` as its name
 * (DECISIONS.md "Directionals") and `AVENUE B` keeps its leading type word (Pub 28 §233).
 */
export function splitStreet(raw: string): StreetParts {
  const words = cleanText(raw)
    .split(" ")
    .filter((word) => word !== "");
  const parts: StreetParts = { predirectional: "", streetName: "", streetSuffix: "", postdirectional: "" };
  const last = (): string => words[words.length - 1] ?? "";
  if (words.length >= 3 && standardDirectional(last()) && suffixStandard(words[words.length - 2] ?? "")) {
    parts.postdirectional = standardDirectional(words.pop() ?? "") ?? "";
  }
  if (words.length >= 2 && suffixStandard(last()))
    parts.streetSuffix = suffixStandard(words.pop() ?? "") ?? "";
  if (words.length >= 2 && standardDirectional(words[0] ?? "")) {
    parts.predirectional = standardDirectional(words.shift() ?? "") ?? "";
  }
  parts.streetName = standardHighway(words.join(" "));
  return parts;
}

/** A house number's parts: the number, its suffix, and a unit written with it (`2649#C`). */
export interface NumberParts {
  addressNumber: string;
  addressNumberSuffix: string;
  occupancyId: string;
}

/** A number suffix value: a suffix, or a unit written in the suffix column (`#1`, Yuba County). */
export type NumberSuffixParts = Omit<NumberParts, "addressNumber">;

const DIGITS = /^\d*$/;
const FRACTION = /^\d+\/\d+$/;
const NO_SUFFIX: NumberSuffixParts = { addressNumberSuffix: "", occupancyId: "" };
/** Digits and one letter, glued (`17417B`; `3742-A` and `3742 A` are cleaned into the spaced form). */
const LETTER_GLUED = /^(\d+)([A-Z])$/;
const SPACED_SUFFIX = /^(\S+) (\d+\/\d+|[A-Z])$/;
/** `3742-1/2`: the hyphen between digits survives cleaning, so the fraction is split here. */
const FRACTION_HYPHENATED = /^(\d+)-(\d+\/\d+)$/;

/**
 * House numbers (DECISIONS.md "House numbers"): `123 1/2` → number `123`, suffix `1/2`; a number of
 * digits with one letter (`17417B`, `3742-A`, `3742 A`) → number and letter suffix, as counties
 * with a suffix column record it; `2649#C` (Yuba County) → number `2649`, unit `C`. Grid numbers
 * (`N6W23001`) and Queens numbers (`112-10`) stay whole, without spaces; `0` is kept (Berkeley
 * writes it for unnumbered lots).
 */
export function splitNumber(raw: string): NumberParts {
  const clean = cleanText(raw);
  if (DIGITS.test(clean)) return { addressNumber: clean, addressNumberSuffix: "", occupancyId: "" };
  const match = LETTER_GLUED.exec(clean) ?? SPACED_SUFFIX.exec(clean) ?? FRACTION_HYPHENATED.exec(clean);
  if (match) return { addressNumber: match[1] ?? "", addressNumberSuffix: match[2] ?? "", occupancyId: "" };
  const hash = clean.indexOf("#");
  if (hash > 0)
    return { addressNumber: clean.slice(0, hash).replace(/ /g, ""), ...splitNumberSuffix(clean.slice(hash)) };
  return { addressNumber: clean.replace(/ /g, ""), addressNumberSuffix: "", occupancyId: "" };
}

/**
 * Number suffixes: `_1/2` and `-1/2` are `1/2` (cleaning drops the punctuation before a fraction);
 * a `#` value is a unit (`#1`, `#A`: Yuba County writes units there), except `#1/2`.
 */
export function splitNumberSuffix(raw: string): NumberSuffixParts {
  if (raw === "") return NO_SUFFIX;
  const clean = cleanText(raw).replace(/ /g, "");
  if (!clean.startsWith("#")) return { addressNumberSuffix: clean, occupancyId: "" };
  const value = clean.slice(1);
  return FRACTION.test(value)
    ? { addressNumberSuffix: value, occupancyId: "" }
    : { addressNumberSuffix: "", occupancyId: normalizeUnitId(value) };
}

/** The number suffix of a row or query: the suffix column wins over a suffix written in the number. */
export function numberSuffixOf(number: NumberParts, suffix: NumberSuffixParts): string {
  return suffix.addressNumberSuffix || number.addressNumberSuffix;
}

/**
 * The unit of a row or query, the same way on both sides: the unit value, else a unit written with
 * the number or in its suffix column, else a lone lot designator (`18 Elm St Rear`: occupancyType
 * `REAR` with no id is the unit `REAR`). `unitType` and `unitId` are normalized.
 */
export function unitOf(
  unitType: string,
  unitId: string,
  number: NumberParts,
  suffix: NumberSuffixParts,
): string {
  return unitId || suffix.occupancyId || number.occupancyId || lotUnit(unitType);
}

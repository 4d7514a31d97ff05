import { standardDirectional, standardState, standardSuffix, standardUnitDesignator } from "../usps/usps.js";

/**
 * Normalization shared by ingest and lookup, so that a value typed by a caller and the value a
 * county wrote meet in one spelling: uppercase, punctuation dropped (except `/` in fractions, `-`
 * inside numbers and the `#` designator, DECISIONS.md "Values"), whitespace collapsed, and the
 * Publication 28 standard forms of suffixes (App. C1), directionals (App. B), unit designators
 * (App. C2) and states (App. B). Words that are no standard form are kept as written.
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

export function normalizeStreetName(raw: string): string {
  return cleanText(raw);
}

export function normalizeSuffix(raw: string): string {
  const clean = cleanText(raw);
  return standardSuffix(clean) ?? clean;
}

export function normalizeDirectional(raw: string): string {
  const clean = cleanText(raw).replace(/ /g, "");
  return standardDirectional(clean) ?? clean;
}

export function normalizeUnitType(raw: string): string {
  const clean = cleanText(raw);
  return standardUnitDesignator(clean) ?? clean;
}

/** Unit numbers lose a leading `#` and spaces: `# 4B` and `4-B` stay distinguishable only by hyphen. */
export function normalizeUnitId(raw: string): string {
  return cleanText(raw).replace(/^#\s*/, "").replace(/ /g, "");
}

export function normalizeState(raw: string): string {
  const clean = cleanText(raw);
  return standardState(clean) ?? clean;
}

/** House numbers: uppercase, no spaces; `0` is kept (Berkeley writes it for unnumbered lots). */
export function normalizeNumber(raw: string): string {
  return cleanText(raw).replace(/ /g, "");
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
  if (words.length >= 3 && standardDirectional(last()) && standardSuffix(words[words.length - 2] ?? "")) {
    parts.postdirectional = standardDirectional(words.pop() ?? "") ?? "";
  }
  if (words.length >= 2 && standardSuffix(last()))
    parts.streetSuffix = standardSuffix(words.pop() ?? "") ?? "";
  if (words.length >= 2 && standardDirectional(words[0] ?? "")) {
    parts.predirectional = standardDirectional(words.shift() ?? "") ?? "";
  }
  parts.streetName = words.join(" ");
  return parts;
}

/** `123 1/2` → number `123`, suffix `1/2` (DECISIONS.md "House numbers"). */
export function splitNumber(raw: string): { addressNumber: string; addressNumberSuffix: string } {
  const clean = cleanText(raw);
  if (!clean.includes(" ")) return { addressNumber: clean, addressNumberSuffix: "" };
  const match = /^(\S+) (\d+\/\d+|[A-Z])$/.exec(clean);
  if (match) return { addressNumber: match[1] ?? "", addressNumberSuffix: match[2] ?? "" };
  return { addressNumber: clean.replace(/ /g, ""), addressNumberSuffix: "" };
}

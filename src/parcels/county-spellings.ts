import { C1_UNLISTED_SUFFIXES } from "../usps/generated-tables.js";
import { standardUnitDesignator } from "../usps/usps.js";
import { LOCAL_STREET_TYPES, LOT_DESIGNATORS, SUFFIX_VARIANTS } from "./generated-spellings.js";

/**
 * Spellings counties and callers use that Publication 28 lacks, over the tables in data/parcels
 * (generated into generated-tables.ts): local spellings of standard street types, street type
 * words that are no Pub 28 type, and the lot designators that name a unit without a number.
 * Inputs are cleaned uppercase words (normalize.ts `cleanText`).
 */

const suffixVariants = new Map(SUFFIX_VARIANTS.map((row) => [row[0] ?? "", row[1] ?? ""]));

/** The App. C1 standard of a county spelling of a street type (`CRT` → `CT`), or undefined. */
export function suffixVariant(word: string): string | undefined {
  return suffixVariants.get(word);
}

/** Type words no Pub 28 table lists (data/parcels/local-street-types.tsv): `GRTH`, `TURN` ... */
export const LOCAL_TYPES: readonly string[] = LOCAL_STREET_TYPES.map((row) => row[0] ?? "");
const keptTypes = new Set([...LOCAL_TYPES, ...C1_UNLISTED_SUFFIXES.map((row) => row[0] ?? "")]);

/**
 * Whether a word is a street type that normalization keeps as written (no C1 standard): a local
 * type (`TURN`) or a C1-unlisted one the parser reads as the suffix (`GRADE`, `GULCH`). Either
 * side may hold it in the name or as the suffix, so lookup tries both readings.
 */
export function isKeptStreetType(word: string): boolean {
  return keptTypes.has(word);
}

const lots = new Map(LOT_DESIGNATORS.map((row) => [row[0] ?? "", row[1] ?? ""]));
const lotStandards = new Set(lots.values());

/**
 * The lot designator a unit value names, as its App. C2 abbreviation: `REAR`, `RR`, `#REAR` (the
 * `#` already dropped) and `UNIT REAR` (a designator before the lot word) are all `REAR`.
 * Undefined for anything else (`A`, `4B`, `COM`).
 */
export function lotDesignator(value: string): string | undefined {
  const lot = lots.get(value);
  if (lot !== undefined) return lot;
  const space = value.lastIndexOf(" ");
  if (space < 0) return undefined;
  const designators = value.slice(0, space).split(" ");
  return designators.every((word) => standardUnitDesignator(word) !== undefined)
    ? lots.get(value.slice(space + 1))
    : undefined;
}

/** The unit a standard designator names on its own: a lot (`REAR`, `FRNT`), else none (`APT`). */
export function lotUnit(standardType: string): string {
  return lotStandards.has(standardType) ? standardType : "";
}

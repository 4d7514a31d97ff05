import {
  B_DIRECTIONALS,
  B_STATES,
  B_STATE_VARIANTS,
  C1_LEGACY_SUFFIXES,
  C1_STREET_SUFFIXES,
  C1_UNLISTED_SUFFIXES,
  C2_COUNTY_DESIGNATORS,
  C2_UNIT_DESIGNATORS,
  C2_UNIT_VARIANTS,
  H_SPANISH_PREFIXES,
  PR_DESCRIPTIVE_WORDS,
} from "./generated-tables.js";

/**
 * Publication 28 look-ups over the tables in data/usps (generated into generated-tables.ts).
 * Inputs are uppercase words without punctuation; answers are the standard forms to emit.
 */

function column(rows: ReadonlyArray<readonly string[]>, index: number): string[] {
  return rows.map((row) => row[index] ?? "");
}

function mapOf(rows: ReadonlyArray<readonly string[]>, key: number, value: number): Map<string, string> {
  return new Map(rows.map((row) => [row[key] ?? "", row[value] ?? ""]));
}

const suffixByInput = new Map<string, string>([
  // The primary name is not always among the listed forms (PLACE, HEIGHTS, INLET, MISSION).
  ...mapOf(C1_STREET_SUFFIXES, 2, 1),
  ...mapOf(C1_LEGACY_SUFFIXES, 0, 1),
  ...mapOf(C1_STREET_SUFFIXES, 0, 1),
  // Every standard abbreviation maps to itself (data/README: it is not always among the common forms).
  ...column(C1_STREET_SUFFIXES, 1).map((standard): [string, string] => [standard, standard]),
]);
const standardSuffixes = new Set(column(C1_STREET_SUFFIXES, 1));
const suffixNames = new Map(C1_STREET_SUFFIXES.map((row) => [row[1] ?? "", row[2] ?? ""]));

/** The Appendix C1 standard abbreviation of a street suffix word (`AVENUE` → `AVE`), or undefined. */
export function standardSuffix(word: string): string | undefined {
  return suffixByInput.get(word);
}

const unlistedSuffixes = new Set(column(C1_UNLISTED_SUFFIXES, 0));

/**
 * A street type word that Appendix C1 lacks (EXPWY, PY, GULCH ...): it may end a street name,
 * kept as typed (data/usps/c1-unlisted-suffixes.tsv).
 */
export function isUnlistedSuffix(word: string): boolean {
  return unlistedSuffixes.has(word);
}

/** True for a standard abbreviation of Appendix C1 (what the service emits). */
export function isStandardSuffix(abbreviation: string): boolean {
  return standardSuffixes.has(abbreviation);
}

/** The primary name of a standard suffix abbreviation (`AVE` → `AVENUE`). */
export function suffixName(abbreviation: string): string | undefined {
  return suffixNames.get(abbreviation);
}

export const STANDARD_SUFFIXES: ReadonlySet<string> = standardSuffixes;

const directionalByInput = new Map<string, string>([
  ...mapOf(B_DIRECTIONALS, 0, 1),
  ...column(B_DIRECTIONALS, 1).map((standard): [string, string] => [standard, standard]),
  // `SO` for SOUTH is common in written addresses (`8517 SO NASHVILLE`); `NO` is not read as
  // NORTH, since it also abbreviates "number" (`NO 5`).
  ["SO", "S"],
]);

/** `NORTH` → `N`, `NW` → `NW`; undefined for anything else. */
export function standardDirectional(word: string): string | undefined {
  return directionalByInput.get(word);
}

const designatorByInput = new Map<string, string>([
  ...mapOf(C2_UNIT_VARIANTS, 0, 1),
  ...mapOf(C2_UNIT_DESIGNATORS, 0, 1),
  ...column(C2_UNIT_DESIGNATORS, 1).map((standard): [string, string] => [standard, standard]),
]);
const designatorsNeedingNumber = new Set(
  C2_UNIT_DESIGNATORS.filter((row) => row[2] === "yes").map((row) => row[1]),
);

/** `APARTMENT` → `APT`, `#` → `#`; undefined when the word is no Appendix C2 designator. */
export function standardUnitDesignator(word: string): string | undefined {
  return designatorByInput.get(word);
}

/** Whether a standard designator requires a unit number (Appendix C2 "requires secondary range"). */
export function designatorNeedsNumber(standard: string): boolean {
  return designatorsNeedingNumber.has(standard);
}

const countyDesignators = mapOf(C2_COUNTY_DESIGNATORS, 0, 1);

/**
 * The Appendix C2 designator a county situs form stands for (`RR` → `REAR`), or undefined
 * (data/usps/c2-county-designators.tsv). Apart from standardUnitDesignator: `RR` opening a line
 * is a rural route, so only a word right after the street is read so.
 */
export function countyUnitDesignator(word: string): string | undefined {
  return countyDesignators.get(word);
}

export const STANDARD_UNIT_DESIGNATORS: ReadonlySet<string> = new Set(column(C2_UNIT_DESIGNATORS, 1));

export type StateKind = "state" | "federal_district" | "possession" | "military";

const stateByInput = new Map<string, string>([
  ...mapOf(B_STATE_VARIANTS, 0, 1),
  ...mapOf(B_STATES, 0, 1),
  // As the tokenizer writes them: ARMED FORCES EUROPE THE MIDDLE EAST AND CANADA.
  ...B_STATES.map((row): [string, string] => [wordsOf(row[0] ?? ""), row[1] ?? ""]),
  ...column(B_STATES, 1).map((code): [string, string] => [code, code]),
]);
function wordsOf(name: string): string {
  return name
    .replace(/[^A-Z ]/g, "")
    .replace(/ +/g, " ")
    .trim();
}

const stateKinds = new Map(B_STATES.map((row) => [row[1] ?? "", (row[2] ?? "state") as StateKind]));

/**
 * The two-letter code of a state, possession or military "state", from its code, full name or
 * a common variant (`CALIFORNIA`, `CALIF` → `CA`). Multi-word names are passed space-joined.
 */
export function standardState(text: string): string | undefined {
  return stateByInput.get(text);
}

export function stateKind(code: string): StateKind | undefined {
  return stateKinds.get(code);
}

/** Longest state name in words (`ARMED FORCES ...` aside), for multi-word matching. */
export const MAX_STATE_NAME_WORDS = Math.max(
  ...[...stateByInput.keys()]
    .filter((name) => !name.startsWith("ARMED"))
    .map((name) => name.split(" ").length),
);

export const SPANISH_STREET_PREFIXES: ReadonlySet<string> = new Set(column(H_SPANISH_PREFIXES, 0));

const prWords = mapOf(PR_DESCRIPTIVE_WORDS, 0, 1);

/** Abbreviation of a Puerto Rico descriptive word (`URBANIZACION` → `URB`), or undefined. */
export function puertoRicoAbbreviation(word: string): string | undefined {
  return prWords.get(word);
}

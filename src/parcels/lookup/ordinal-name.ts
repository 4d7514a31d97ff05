import { damerauDistance } from "./edit-distance.js";

/**
 * Numbered street names in both forms counties write them: `2ND` and `SECOND`, `21ST` and
 * `TWENTY FIRST` (Kodiak's address points spell out `First` to `Fifth`; Alameda's file writes
 * `19TH`). Near misses compare street numbers by this reading, so `SECOND` and `2ND` carry the
 * same number, and `THIRTIETH` / `THIRTEENTH` (two edits apart) different ones.
 */
const ORDINAL_SUFFIXES = ["TH", "ST", "ND", "RD"] as const;

/** The ordinal suffix of a number: 1ST, 2ND, 3RD, 4TH … 11TH, 12TH, 13TH … 21ST. */
export function ordinalSuffix(n: number): (typeof ORDINAL_SUFFIXES)[number] {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const last = n % 10;
  return teen || last > 3 ? "TH" : (ORDINAL_SUFFIXES[last] ?? "TH");
}

/** `21` → `21ST`. */
export function numberedOrdinal(n: number): string {
  return `${n}${ordinalSuffix(n)}`;
}

const UNITS = ["", "FIRST", "SECOND", "THIRD", "FOURTH", "FIFTH", "SIXTH", "SEVENTH", "EIGHTH", "NINTH"];
const TEENS = ["TENTH", "ELEVENTH", "TWELFTH", "THIRTEENTH", "FOURTEENTH", "FIFTEENTH", "SIXTEENTH"].concat([
  "SEVENTEENTH",
  "EIGHTEENTH",
  "NINETEENTH",
]);
const TENS = ["", "", "TWENTY", "THIRTY", "FORTY", "FIFTY", "SIXTY", "SEVENTY", "EIGHTY", "NINETY"];

/** `21` → `TWENTY FIRST`, `30` → `THIRTIETH`, for 1 to 99. */
export function spelledOrdinal(n: number): string {
  if (n < 10) return UNITS[n] ?? "";
  if (n < 20) return TEENS[n - 10] ?? "";
  const tens = TENS[Math.floor(n / 10)] ?? "";
  return n % 10 === 0 ? `${tens.slice(0, -1)}IETH` : `${tens} ${UNITS[n % 10] ?? ""}`;
}

/** Every spelled-out ordinal street name, with and without its space, and its numbered form. */
const SPELLED = new Map<string, string>();
for (let n = 1; n < 100; n++) {
  SPELLED.set(spelledOrdinal(n), numberedOrdinal(n));
  SPELLED.set(spelledOrdinal(n).replace(" ", ""), numberedOrdinal(n));
}
/** The letters (A to Z) in a text, one bit each. */
function letterMask(text: string): number {
  let mask = 0;
  for (let i = 0; i < text.length; i++) {
    const letter = text.charCodeAt(i) - 65;
    if (letter >= 0 && letter < 26) mask |= 1 << letter;
  }
  return mask;
}

/** Spelled-out ordinals by length, with their letters: those one typo away are one length apart. */
const BY_LENGTH = new Map<number, Array<{ name: string; letters: number }>>();
for (const name of SPELLED.keys()) {
  BY_LENGTH.set(name.length, [...(BY_LENGTH.get(name.length) ?? []), { name, letters: letterMask(name) }]);
}

/** Per spelled-out ordinal, those of other numbers within three edits (filled on first use). */
const RIVALS = new Map<string, string[]>();

function rivalsOf(name: string): string[] {
  let rivals = RIVALS.get(name);
  if (!rivals) {
    const number = SPELLED.get(name);
    rivals = [...SPELLED]
      .filter(([other, n]) => n !== number && damerauDistance(name, other) <= 3)
      .map(([other]) => other);
    RIVALS.set(name, rivals);
  }
  return rivals;
}

/** Whether a name spells a street number as written: `12`, `12TH`, `TWELFTH` (not `11ST`, `1TH2`). */
export function namesNumber(name: string): boolean {
  return /^\d+$/.test(name.replace(/ /g, "")) || ordinalReading(name) !== undefined;
}

/** The numbered form of an ordinal street name as written (`SECOND`, `2ND` → `2ND`), else undefined. */
export function ordinalReading(name: string): string | undefined {
  const spelled = SPELLED.get(name);
  if (spelled) return spelled;
  const match = /^(\d+)([A-Z]+)$/.exec(name.replace(/ /g, ""));
  return match && match[2] === ordinalSuffix(Number(match[1])) ? name.replace(/ /g, "") : undefined;
}

export interface FuzzyReading {
  /** The numbered form (`2ND`). */
  numbered: string;
  /** Edits from the query to the spelled-out ordinal it reads as (0 when written correctly). */
  edits: number;
}

/**
 * What number a query spells, one typo allowed in a spelled-out word: `SECODN` is `2ND`. Like a
 * street, a misspelled ordinal reads as a number only when no ordinal of another number is within
 * one more edit (`THIRTETH` is one edit from `THIRTIETH`, two from `THIRTEENTH`: no number); those
 * are among the ordinals within three edits of the one it is nearest (`rivalsOf`). Two typos are
 * too many: `IXTHE` is two edits from `SIXTH`, and a rival three edits from the query would go
 * unseen.
 */
export function fuzzyOrdinalReading(query: string): FuzzyReading | undefined {
  const exact = ordinalReading(query);
  if (exact) return { numbered: exact, edits: 0 };
  if (/\d/.test(query) || query.length < 4) return undefined;
  // One typo leaves out at most one of the ordinal's letters: a test on bits before any distance.
  const letters = letterMask(query);
  let best: string | undefined;
  for (let length = query.length - 1; length <= query.length + 1; length++) {
    for (const ordinal of BY_LENGTH.get(length) ?? []) {
      const missing = ordinal.letters & ~letters;
      if ((missing & (missing - 1)) !== 0 || damerauDistance(query, ordinal.name) > 1) continue;
      if (best !== undefined && SPELLED.get(best) !== SPELLED.get(ordinal.name)) return undefined;
      best = ordinal.name;
    }
  }
  const numbered = best === undefined ? undefined : SPELLED.get(best);
  if (best === undefined || numbered === undefined) return undefined;
  if (rivalsOf(best).some((rival) => damerauDistance(query, rival) <= 2)) return undefined;
  return { numbered, edits: 1 };
}

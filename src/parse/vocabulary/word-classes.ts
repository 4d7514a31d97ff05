import * as WORDS from "./generated-words.js";
import { wordList } from "./words.js";
import { F_HIGHWAY_EXAMPLES } from "../../usps/generated-tables.js";
import {
  puertoRicoAbbreviation,
  SPANISH_STREET_PREFIXES,
  standardDirectional,
  standardState,
  standardSuffix,
  standardUnitDesignator,
  isStandardSuffix,
} from "../../usps/usps.js";

/**
 * Word classes the CRF reads as features: membership of a token in the Publication 28 tables
 * and in the small closed vocabularies of delivery lines. Bits, so a token's classes are one
 * number and a neighbour's classes one feature.
 */
export const WORD_CLASS = {
  suffix: 1 << 0, // Appendix C1, any form
  standardSuffix: 1 << 1, // Appendix C1 standard abbreviation
  directional: 1 << 2, // Appendix B
  unitDesignator: 1 << 3, // Appendix C2
  state: 1 << 4, // Appendix B code, name or variant (one word)
  stateNamePart: 1 << 5, // a word of a multi-word state name (NEW, CAROLINA ...)
  highway: 1 << 6, // Appendix F highway words
  spanishPrefix: 1 << 7, // Appendix H
  puertoRico: 1 << 8, // §293 descriptive words (URB, URBANIZACION ...)
  poBox: 1 << 9, // §281 PO box words
  ruralRoute: 1 << 10, // §241, §251 route words
  military: 1 << 11, // §225 military words
  generalDelivery: 1 << 12, // §261
  intersection: 1 << 13, // words joining two streets
  firm: 1 << 14, // words typical of business and building names
  ordinal: 1 << 15, // 1ST, 22ND, FIRST ...
} as const;

// §281: PO box forms (DECISIONS.md "PO box" lists the input forms accepted).
const PO_BOX_WORDS: readonly string[] = wordList(WORDS.PO_BOX_WORDS);
// §241 rural route, §251 highway contract (DECISIONS.md "Rural route").
const RURAL_ROUTE_WORDS: readonly string[] = wordList(WORDS.RURAL_ROUTE_WORDS);
// §225: military unit and box words; APO/FPO/DPO cities; AA/AE/AP states.
const MILITARY_WORDS: readonly string[] = wordList(WORDS.MILITARY_WORDS);
const GENERAL_DELIVERY_WORDS: readonly string[] = wordList(WORDS.GENERAL_DELIVERY_WORDS);
const INTERSECTION_WORDS: readonly string[] = wordList(WORDS.INTERSECTION_WORDS);
// Common words of firm and building names in the hand-labelled corpus (Recipient, BuildingName).
const FIRM_WORDS: readonly string[] = wordList(WORDS.FIRM_WORDS);
const ORDINAL_WORDS: readonly string[] = wordList(WORDS.ORDINAL_WORDS);
const STATE_NAME_PARTS: readonly string[] = wordList(WORDS.STATE_NAME_PARTS);

const classes = new Map<string, number>();
function mark(words: Iterable<string>, bit: number): void {
  for (const word of words) classes.set(word, (classes.get(word) ?? 0) | bit);
}
const highwayWords = new Set(
  F_HIGHWAY_EXAMPLES.flatMap((row) => (row[0] ?? "").split(" ")).filter((w) => !/\d/.test(w)),
);
mark(highwayWords, WORD_CLASS.highway);
mark(["I", "IH", "US", "SR", "CR", "FM", "HWY", "INTERSTATE"], WORD_CLASS.highway);
mark(SPANISH_STREET_PREFIXES, WORD_CLASS.spanishPrefix);
mark(PO_BOX_WORDS, WORD_CLASS.poBox);
mark(RURAL_ROUTE_WORDS, WORD_CLASS.ruralRoute);
mark(MILITARY_WORDS, WORD_CLASS.military);
mark(GENERAL_DELIVERY_WORDS, WORD_CLASS.generalDelivery);
mark(INTERSECTION_WORDS, WORD_CLASS.intersection);
mark(FIRM_WORDS, WORD_CLASS.firm);
mark(ORDINAL_WORDS, WORD_CLASS.ordinal);
mark(STATE_NAME_PARTS, WORD_CLASS.stateNamePart);

const ORDINAL = /^\d+(ST|ND|RD|TH)$/;

/** The WORD_CLASS bits of one token text (uppercase, as the tokenizer gives it). */
export function wordClasses(word: string): number {
  let bits = classes.get(word) ?? 0;
  if (standardSuffix(word) !== undefined) bits |= WORD_CLASS.suffix;
  if (isStandardSuffix(word)) bits |= WORD_CLASS.standardSuffix;
  if (standardDirectional(word) !== undefined) bits |= WORD_CLASS.directional;
  if (standardUnitDesignator(word) !== undefined) bits |= WORD_CLASS.unitDesignator;
  if (standardState(word) !== undefined) bits |= WORD_CLASS.state;
  if (puertoRicoAbbreviation(word) !== undefined || word === "URB" || word === "COND")
    bits |= WORD_CLASS.puertoRico;
  if (ORDINAL.test(word)) bits |= WORD_CLASS.ordinal;
  return bits;
}

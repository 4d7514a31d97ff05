import * as WORDS from "../vocabulary/generated-words.js";
import { wordSet } from "../vocabulary/words.js";
import {
  isStandardSuffix,
  isUnlistedSuffix,
  standardDirectional,
  standardSuffix,
  suffixName,
} from "../../usps/usps.js";
import { coversExactly, matchHighway, startsWithDigit } from "../vocabulary/highway.js";
import type { Label } from "../labels.js";
import type { Token } from "../token.js";
import { COMMON_SUFFIXES, isAllDigits } from "../rules/rule-word-classes.js";
import { WORD_CLASS, wordClasses } from "../vocabulary/word-classes.js";
import { runEnd } from "./draft.js";

/**
 * DECISIONS.md's reading of a street, applied to any labelling before assembly. The rules label
 * streets so already; a labeller that learned from hand-labelled lines may not, because the
 * corpus is not consistent about these cases. Applied to every labelling, it gives both backends
 * the same components, and evaluation compares the corpus's lines under the same reading.
 * - A highway name is a highway word group, a route number and an optional BYPASS or FRONTAGE
 *   ROAD tail, all street name and never a suffix. A directional before it is the
 *   predirectional, and one after it the postdirectional (`E HIGHWAY 212`, `US 41 SW`).
 * - Any other name whose last word is a street type, on a line with no suffix, ends in that
 *   suffix (`N CENTRAL PARK`, `LINCOLN PARK WEST`): of suffix words, the last is the suffix.
 *   Street types here include local ones C1 lacks (`OAK GRTH`, `FOX RUN TURN`; isStreetType).
 * - A directional is named by its place: between the name and the suffix it is part of the name
 *   (Pub 28 §233.3: `NEW MEXICO NW AVE`), right after the street it is the postdirectional
 *   (`PEACHTREE RD NE`).
 * - Of two suffix words in a row only the last is the suffix; the others stay in the name
 *   (`AVALON RIDGE PARKWAY`, `PARK PLACE DR`), and so do a street type and a directional before
 *   the last type (`PARK CIRCLE EAST RD`); a street type labelled as a name word right after
 *   the suffix is the suffix (`AVON ST EXT`), and so is a local type labelled alone as the city
 *   there (`FOX RUN TURN, CA`).
 * - A lone letter after a numeric house number is the number's suffix (`400 A SOUTH BLVD`).
 * - A predirectional that is no directional word is the name's first word (`FLINT HILL RD`);
 *   a number labelled as a unit after words that make a highway with it is the highway's route
 *   number (`COUNTY ROAD 1220`); a postdirectional `N` or `S` and an `E` or `W` labelled otherwise
 *   after it are one directional (`N E`); with no city and no ZIP on the line, a state word right
 *   after the street is the street's (`PEACHTREE STREET, NE`, `6TH ST CT`), and an ordinal
 *   alone before FL a floor (`FOURTH FL`).
 * - A name and a street type right after a whole street are a building's name, a firm
 *   (`1840 ASHBOURNE RD LYNNEWOOD GARDENS`).
 * - Street types before the name are its first words (`8483 AL HIGHWAY 157`), and so is a
 *   letter before a name that is one street type (`4174 C AVENUE EXT`); on a line with no
 *   street type, a bare number ending the name and a letter directional after it are a unit
 *   (`1024 RANDOLPH 1 N`); a junction word opening the line before a route is an
 *   intersection's joining word (`JCT 4 & 13`); a NO right after the suffix that numbers
 *   nothing is the postdirectional (`21ST AVE NO STE 130`).
 * - A directional before a one-word name that is a common street type, on a line with no suffix,
 *   is the whole name and the type its suffix (`7322 SW FREEWAY`, as `100 NORTH ST`).
 * Returns `labels` itself when nothing changes.
 */
export function streetLabels(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  let read = labels;
  for (const reading of READINGS) read = reading(tokens, read);
  return read;
}

type Reading = (tokens: readonly Token[], labels: readonly Label[]) => readonly Label[];

/** The readings in the order they apply; each returns `labels` itself when it changes nothing. */
const READINGS: readonly Reading[] = [
  highwayPair,
  junctionWord,
  leadingType,
  numberSuffixLetter,
  letterBeforeType,
  unitAfterName,
  northAfterSuffix,
  directionalName,
  nameBeforeName,
  typeBeforeDirectional,
  typeAfterSuffix,
  directionalsByPlace,
  twoLetterDirectional,
  buildingAfterAbbreviatedType,
  complexAfterStreet,
  stateWithoutZip,
  highwayNumber,
  lastSuffixWord,
  namesAndHighways,
];

/**
 * `HWYS 16 & 63`, `HIGHWAY 28 AND 55` labelled as two streets meeting: one road signed with two
 * route numbers, one street (highway.ts), when the street, the joining word and the number after
 * it make exactly one highway name.
 */
function highwayPair(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const join = labels.indexOf("intersection");
  if (join < 1 || labels[join - 1] !== "streetName" || labels[join + 1] !== "streetName") return labels;
  let start = join - 1;
  while (start > 0 && labels[start - 1] === "streetName") start--;
  const end = runEnd(labels, join + 1);
  const words = tokens.slice(0, end).map((token) => token.text);
  return coversExactly(words, start, end) ? relabelled(labels, join, join + 1, "streetName") : labels;
}

/** Words that open a line naming where two roads meet (`JCT 4 & 13`, `CRSRDS HIGHWAY 139`). */
const JUNCTION_WORDS: ReadonlySet<string> = wordSet(WORDS.JUNCTION_WORDS);

/**
 * `JCT 4 & 13`, `CRSRDS HIGHWAY 139 A` with the first word labelled part of the street: a
 * junction word opening the line before a route number or a highway is no street's word but
 * says that roads meet there, the intersection's joining word.
 */
function junctionWord(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const first = labels[0];
  if (first !== "streetName" && first !== "streetSuffix") return labels;
  if (tokens.length < 2 || !JUNCTION_WORDS.has(tokens[0]!.text)) return labels;
  const words = tokens.map((token) => token.text);
  if (!startsWithDigit(words[1]!) && matchHighway(words, 1) === null) return labels;
  return relabelled(labels, 0, 1, "intersection");
}

/**
 * `8483 AL HIGHWAY 157` with AL HIGHWAY labelled a suffix: street types before the street's
 * name, with no name before them, are no suffix but the name's first words (DECISIONS.md: a
 * leading type word is part of the name, `AVENUE B`).
 */
function leadingType(_tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const suffix = labels.indexOf("streetSuffix");
  if (suffix < 0) return labels;
  const end = runEnd(labels, suffix);
  if (labels[end] !== "streetName") return labels;
  // The name's first run starts after the suffix: it is the one right after it.
  if (labels.indexOf("streetName") !== end) return labels;
  return relabelled(labels, suffix, end, "streetName");
}

/**
 * `1840 ASHBOURNE RD LYNNEWOOD GARDENS`: a name and a street type right after a whole street
 * (number, name, suffix) are no second part of it but the name of a building or a complex
 * there, a firm.
 */
function complexAfterStreet(_tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const number = labels.indexOf("addressNumber");
  const street = nameAndSuffix(labels);
  if (number < 0 || street === null || street.name < number) return labels;
  let end = street.end;
  if (labels[end] === "postdirectional") end = runEnd(labels, end);
  if (labels[end] !== "streetName") return labels;
  const typeAt = runEnd(labels, end);
  if (labels[typeAt] !== "streetSuffix") return labels;
  const after = runEnd(labels, typeAt);
  if (labels[after] === "streetName" || labels[after] === "postdirectional") return labels;
  return relabelled(labels, end, after, "firm");
}

/**
 * `4TH AVE S UPTOWN SQUARE`, `MARKET ST JAEGER PLAZA` labelled as one street whose last word is
 * the suffix: an abbreviated street type inside the name (perhaps with a directional after it)
 * ends the street, and the name and building word after it (a plaza, square, center, mall or
 * tower) are a building there, which complexAfterStreet then reads as the firm. Only a type
 * written abbreviated counts (`FOREST PARK PLAZA` keeps its name) and only building words end a
 * building's name (`PORT ST LUCIE BLVD` stays one street).
 */
function buildingAfterAbbreviatedType(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const street = nameAndAnySuffix(labels);
  if (street === null || street.end - street.nameEnd !== 1) return labels;
  if (!BUILDING_WORDS.has(tokens[street.nameEnd]!.text)) return labels;
  for (let t = street.start + 1; t < street.nameEnd - 1; t++) {
    const word = tokens[t]!.text;
    if (!isStandardSuffix(word) || suffixName(word) === word) continue;
    const post = standardDirectional(tokens[t + 1]!.text) !== undefined ? 1 : 0;
    if (t + 1 + post >= street.nameEnd) return labels;
    const copy = relabelled(labels, t, t + 1, "streetSuffix");
    return post === 1 ? relabelled(copy, t + 1, t + 2, "postdirectional") : copy;
  }
  return labels;
}

/** Words that end the name of a building or a complex, not of a street, after a whole street. */
const BUILDING_WORDS: ReadonlySet<string> = wordSet(WORDS.COMPLEX_WORDS);

/**
 * `5TH STREET N E 301` with E labelled a unit number or an unknown word: a postdirectional `N`
 * or `S` and an `E` or `W` right after it are one directional (`NE`).
 */
function twoLetterDirectional(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const post = labels.indexOf("postdirectional");
  if (post < 0 || runEnd(labels, post) !== post + 1) return labels;
  const next = labels[post + 1];
  if (next !== "other" && next !== "occupancyId") return labels;
  const words = tokens.map((token) => token.text);
  if (!isDirectional(words, post, post + 2)) return labels;
  return relabelled(labels, post + 1, post + 2, "postdirectional");
}

/**
 * A state word on a line with no ZIP that is no state standing alone but the street's or a
 * unit's. With no city either, right after the street: a directional is the postdirectional
 * (`1180 PEACHTREE STREET, NE` is no Nebraska address), a street type after the suffix is the
 * suffix (`4530 6TH ST CT`, the earlier type then joining the name). Ending the line after an
 * ordinal labelled the city, FL is a floor (`1750 TYSONS BLVD FOURTH FL`), no city of Florida.
 */
function stateWithoutZip(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const state = labels.indexOf("state");
  if (state < 1 || labels.includes("zip5")) return labels;
  const end = runEnd(labels, state);
  const before = labels[state - 1];
  if (before === "city") {
    if (end !== labels.length || tokens[state]!.text !== "FL" || labels[state - 2] === "city") return labels;
    if ((WORD_CLASS.ordinal & wordClasses(tokens[state - 1]!.text)) === 0) return labels;
    const copy = labels.slice();
    copy[state - 1] = "occupancyId";
    copy[state] = "occupancyType";
    return copy;
  }
  if (labels.includes("city") || (before !== "streetSuffix" && before !== "streetName")) return labels;
  if (end !== labels.length && labels[end] !== "zip4") return labels;
  const words = tokens.map((token) => token.text);
  if (isDirectional(words, state, end) && !labels.includes("postdirectional"))
    return relabelled(labels, state, end, "postdirectional");
  if (before === "streetSuffix" && end === state + 1 && standardSuffix(words[state]!) !== undefined)
    return relabelled(labels, state, end, "streetSuffix");
  return labels;
}

/**
 * `COUNTY ROAD 1220` with 1220 labelled a unit number (no designator before it): the route
 * number of the highway the street's words name.
 */
function highwayNumber(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const street = nameAndAnySuffix(labels);
  if (street === null) return labels;
  const { start, end } = street;
  if (labels[end] !== "occupancyId" || runEnd(labels, end) !== end + 1) return labels;
  const words = tokens.slice(start, end + 1).map((token) => token.text);
  if (!coversExactly(words, 0, words.length)) return labels;
  return relabelled(labels, start, end + 1, "streetName");
}

/**
 * `FLINT HILL RD` with FLINT labelled a predirectional: a word that is no directional (Appendix
 * B) before the name is the name's first word.
 */
function nameBeforeName(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const pre = labels.indexOf("predirectional");
  if (pre < 0 || labels[pre + 1] !== "streetName") return labels;
  if (standardDirectional(tokens[pre]!.text) !== undefined) return labels;
  return relabelled(labels, pre, pre + 1, "streetName");
}

/**
 * `AVON ST EXT` with EXT labelled part of the name: a street type right after the suffix is a
 * suffix word too, and of the two only the last is the suffix (lastSuffixWord, later). So is a
 * local type C1 lacks labelled alone as the city (`FOX RUN TURN, CA`): no town's name.
 */
function typeAfterSuffix(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const street = nameAndSuffix(labels);
  if (street === null) return labels;
  const after = street.end;
  if (after >= labels.length || runEnd(labels, after) !== after + 1) return labels;
  const word = tokens[after]!.text;
  const typed =
    labels[after] === "streetName" ? isStreetType(word) : labels[after] === "city" && isUnlistedSuffix(word);
  if (!typed) return labels;
  return relabelled(labels, after, after + 1, "streetSuffix");
}

/**
 * `PARK CIRCLE EAST RD`, labelled name, suffix, directional, suffix: the last street type is the
 * suffix, and the type and the directional before it are part of the name.
 */
function typeBeforeDirectional(_tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const street = nameAndSuffix(labels);
  if (street === null || !DIRECTIONAL.has(labels[street.end]!)) return labels;
  const last = runEnd(labels, street.end);
  if (labels[last] !== "streetSuffix") return labels;
  return relabelled(labels, street.suffix, last, "streetName");
}

/** The first street name run [start, nameEnd) and the suffix run after it if any, up to `end`. */
function nameAndAnySuffix(labels: readonly Label[]): { start: number; nameEnd: number; end: number } | null {
  const start = labels.indexOf("streetName");
  if (start < 0) return null;
  const nameEnd = runEnd(labels, start);
  return { start, nameEnd, end: labels[nameEnd] === "streetSuffix" ? runEnd(labels, nameEnd) : nameEnd };
}

/** The first street name run and the suffix run right after it (`name`, `suffix`, `end`), or null. */
function nameAndSuffix(labels: readonly Label[]): { name: number; suffix: number; end: number } | null {
  const street = nameAndAnySuffix(labels);
  if (street === null || street.end === street.nameEnd) return null;
  return { name: street.start, suffix: street.nameEnd, end: street.end };
}

/** `400 A SOUTH BLVD`: a lone letter after a numeric house number is the number's suffix. */
function numberSuffixLetter(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const start = labels.indexOf("addressNumber");
  if (start < 0 || labels[start + 1] !== "addressNumber" || labels[start + 2] === "addressNumber")
    return labels;
  if (!isAllDigits(tokens[start]!.text) || !isLetter(tokens[start + 1]!.text)) return labels;
  return relabelled(labels, start + 1, start + 2, "addressNumberSuffix");
}

/**
 * `4174 C AVENUE EXT` with C labelled the number's suffix: a letter before a name that is one
 * street type, with the suffix after it, is the name's first word (`C AVENUE`, as `AVENUE C`).
 */
function letterBeforeType(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const letter = labels.indexOf("addressNumberSuffix");
  if (letter < 0 || labels[letter + 1] !== "streetName" || labels[letter + 2] !== "streetSuffix")
    return labels;
  if (!isLetter(tokens[letter]!.text) || standardSuffix(tokens[letter + 1]!.text) === undefined)
    return labels;
  return relabelled(labels, letter, letter + 1, "streetName");
}

/**
 * `1024 RANDOLPH 1 N` with 1 labelled a name word and N the postdirectional, on a line with no
 * street type: a number ending a name of words and a one-letter directional after it are a unit
 * (`1N`), as a name that ends in a bare number with no type has no street to be. A highway's
 * route number (`N US 41 S`) is its own.
 */
function unitAfterName(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const start = labels.indexOf("streetName");
  if (start < 0 || labels.includes("streetSuffix")) return labels;
  const end = runEnd(labels, start);
  if (end - start < 2 || labels[end] !== "postdirectional" || labels[end + 1] === "postdirectional")
    return labels;
  const words = tokens.map((token) => token.text);
  if (!isAllDigits(words[end - 1]!) || !/^[NSEW]$/.test(words[end]!)) return labels;
  if (matchHighway(words, start, end) !== null) return labels;
  // Words of a name, not letters that may abbreviate a road (`C R 850 N`, a county road).
  for (let i = start; i < end - 1; i++)
    if (!/^[A-Z]{2,}$/.test(words[i]!) || standardSuffix(words[i]!) !== undefined) return labels;
  return relabelled(labels, end - 1, end + 1, "occupancyId");
}

/**
 * `14405 21ST AVE NO STE 130`, `2422 51ST ST NO ST PETERSBURG` with NO labelled a unit's
 * designator: right after the street's suffix, a NO that numbers nothing (no unit number after
 * it) is no number sign but the postdirectional NORTH, as written.
 */
function northAfterSuffix(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const suffix = labels.indexOf("streetSuffix");
  if (suffix < 0 || labels.includes("postdirectional")) return labels;
  const at = runEnd(labels, suffix);
  if (labels[at] !== "occupancyType" || tokens[at]!.text !== "NO" || labels[at + 1] === "occupancyId")
    return labels;
  return relabelled(labels, at, at + 1, "postdirectional");
}

/**
 * `7322 SW FREEWAY`, `3001 N BOULEVARD` labelled as a predirectional and a name: the directional
 * is the whole street name and the street type its suffix (DECISIONS.md "Directionals": `100
 * NORTH ST`). Only for the types most streets carry: before a rare one the directional leads the
 * name (`N WELLS`, `N PINE`), as the rules read it.
 */
function directionalName(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const pre = labels.indexOf("predirectional");
  if (pre < 0 || labels[pre + 1] !== "streetName" || labels[pre + 2] === "streetName") return labels;
  if (labels[pre - 1] === "streetName" || labels.includes("streetSuffix")) return labels;
  const type = standardSuffix(tokens[pre + 1]!.text);
  if (type === undefined || !COMMON_SUFFIXES.has(type)) return labels;
  const copy = labels.slice();
  copy[pre] = "streetName";
  copy[pre + 1] = "streetSuffix";
  return copy;
}

/**
 * The first street's suffix run of two words or more keeps only its last word as the suffix,
 * when that word is a street type (`TROON CIRCLE AUSTELL`, a city labelled as a suffix, is left
 * as labelled).
 */
function lastSuffixWord(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const name = labels.indexOf("streetName");
  const start = name < 0 ? labels.indexOf("streetSuffix") : runEnd(labels, name);
  if (start < 0 || labels[start] !== "streetSuffix") return labels;
  const end = runEnd(labels, start);
  if (end - start < 2 || !isStreetType(tokens[end - 1]!.text)) return labels;
  return relabelled(labels, start, end - 1, "streetName");
}

/**
 * A street type: an Appendix C1 form, or a local type C1 lacks that ends real streets (`FOX RUN
 * TURN`, `OAK GRTH`; data/usps/c1-unlisted-suffixes.tsv), kept as typed with `unknown_suffix`.
 */
function isStreetType(word: string): boolean {
  return standardSuffix(word) !== undefined || isUnlistedSuffix(word);
}

/**
 * A directional between the first name and its suffix joins the name; one right after the
 * street is the postdirectional.
 */
function directionalsByPlace(_tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const start = labels.indexOf("streetName");
  if (start < 0) return labels;
  const nameEnd = runEnd(labels, start);
  const between = DIRECTIONAL.has(labels[nameEnd]!) ? runEnd(labels, nameEnd) : nameEnd;
  if (between > nameEnd && labels[between] === "streetSuffix") {
    return relabelled(labels, nameEnd, between, "streetName");
  }
  const streetEnd = labels[nameEnd] === "streetSuffix" ? runEnd(labels, nameEnd) : nameEnd;
  if (labels[streetEnd] === "predirectional" && !labels.includes("postdirectional")) {
    return relabelled(labels, streetEnd, runEnd(labels, streetEnd), "postdirectional");
  }
  return labels;
}

const DIRECTIONAL: ReadonlySet<Label> = new Set(["predirectional", "postdirectional"]);

function relabelled(labels: readonly Label[], from: number, to: number, label: Label): Label[] {
  const copy = labels.slice();
  copy.fill(label, from, to);
  return copy;
}

/** The highway readings and the trailing street type, on the first street name and its suffix. */
function namesAndHighways(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const street = nameAndAnySuffix(labels);
  if (street === null) return labels;
  const { start, nameEnd: end, end: suffixEnd } = street;
  if (end - start < 2 && suffixEnd === end) return labels;
  const words = tokens.slice(start, suffixEnd).map((token) => token.text);
  const nameLength = end - start;
  let out = labels;
  // Word positions from the start of the name.
  const relabel = (from: number, to: number, label: Label): void => {
    out = relabelled(out, start + from, start + to, label);
  };

  // E HIGHWAY 212: the directional before the highway.
  let first = 0;
  if (
    nameLength >= 3 &&
    !labels.includes("predirectional") &&
    isDirectional(words, 0, 1) &&
    coversExactly(words, 1, nameLength)
  ) {
    relabel(0, 1, "predirectional");
    first = 1;
  }
  if (suffixEnd > end) {
    // I 10 FRONTAGE RD, HIGHWAY 6 BYPASS: the tail of the highway's name, not a suffix.
    if (coversExactly(words, first, words.length)) relabel(nameLength, words.length, "streetName");
    return out;
  }
  if (coversExactly(words, first, nameLength)) return out;
  // US 41 SW: the directional after the route number.
  if (!labels.includes("postdirectional")) {
    for (const tail of [1, 2]) {
      if (
        nameLength - first - tail >= 2 &&
        isDirectional(words, nameLength - tail, nameLength) &&
        coversExactly(words, first, nameLength - tail)
      ) {
        relabel(nameLength - tail, nameLength, "postdirectional");
        return out;
      }
    }
  }
  // CENTRAL PARK: a name of two words or more ending in a street type, and no suffix anywhere.
  if (nameLength - first >= 2 && !labels.includes("streetSuffix") && isStreetType(words[nameLength - 1]!)) {
    relabel(nameLength - 1, nameLength, "streetSuffix");
  }
  return out;
}

/** One letter alone (`400 A`, `C AVENUE`). */
function isLetter(word: string): boolean {
  return word.length === 1 && word >= "A" && word <= "Z";
}

/** `SW`, `SOUTHWEST`, or two words making one (`S W`). */
function isDirectional(words: readonly string[], from: number, to: number): boolean {
  return standardDirectional(words.slice(from, to).join("")) !== undefined;
}

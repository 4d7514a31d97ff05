import { SPANISH_STREET_PREFIXES } from "../../usps/usps.js";
import { matchHighway } from "../highway.js";
import type { Labelling } from "./labelling.js";
import { labelUnits } from "./unit-rules.js";
import {
  COMMON_SUFFIXES,
  NAME_CONNECTORS,
  OTHER_DESIGNATORS,
  designatorOf,
  directionalOf,
  SPELLED_ORDINALS,
  isFraction,
  isGridPart,
  isOrdinal,
  isUnitId,
  startsWithDigit,
  suffixOf,
} from "./word-classes.js";

/** Where one street (and what may follow it) is read: tokens [from, to). */
export interface StreetSpan {
  from: number;
  to: number;
  /** Whether tokens after the street (and its units) are the city. */
  cityAllowed: boolean;
  /** Whether a state or ZIP follows, so a city is expected between street and it. */
  cityExpected: boolean;
  hasNumber: boolean;
}

/**
 * One street: house number, fraction, predirectional, name, suffix, postdirectional, units,
 * then the city (Pub 28 §23x). Returns nothing; labels what it reads.
 */
export function labelStreet(l: Labelling, span: StreetSpan): void {
  let k = span.from;
  if (span.hasNumber) k = labelNumber(l, k, span.to);
  if (k >= span.to) return;
  const pre = directionalOf(l.text(k));
  if (pre !== undefined && isPredirectional(l, k, span)) {
    l.set(k, k + 1, "predirectional");
    k++;
  }
  const end = labelNameAndSuffix(l, k, span);
  const afterUnits = labelUnits(l, end, span.to);
  labelCity(l, afterUnits, span);
}

function labelNumber(l: Labelling, at: number, to: number): number {
  // W148 N9748: a Wisconsin grid number written in two parts is one house number.
  const pair = isGridPart(l.text(at)) && isGridPart(l.text(at + 1)) && at + 1 < to ? 2 : 1;
  l.set(at, at + pair, "addressNumber");
  const k = at + pair;
  const text = l.text(k);
  if (k >= to || text === undefined) return k;
  if (isFraction(text)) {
    l.set(k, k + 1, "addressNumberSuffix");
    return k + 1;
  }
  if (matchHighway(l.texts, k, to) !== null) return k; // 123 I 10: the I is the highway's
  // 123 A MAIN ST: a lone letter before a name that goes on is the number's suffix;
  // 123 B ST is street B (Pub 28 §233).
  const isLetter =
    text.length === 1 && text !== "#" && !startsWithDigit(text) && directionalOf(text) === undefined;
  const next = l.text(k + 1);
  const nameFollows = next !== undefined && next.length > 1 && suffixOf(next) === undefined;
  if (isLetter && k + 1 < to && nameFollows && designatorOf(next) === undefined) {
    l.set(k, k + 1, "addressNumberSuffix");
    return k + 1;
  }
  return k;
}

/**
 * A directional before a name (N MAIN) is the predirectional; before a suffix that ends the
 * street it is the name itself (100 NORTH ST, 100 S ST: DECISIONS.md "Directionals"), unless
 * it is abbreviated and the suffix word a rare one (N WELLS, S STONY ISLAND).
 */
function isPredirectional(l: Labelling, at: number, span: StreetSpan): boolean {
  const next = l.text(at + 1);
  if (at + 1 >= span.to || next === undefined || l.boundary(at + 1)) return false;
  if (matchHighway(l.texts, at + 1, firstBoundary(l, at + 2, span.to)) !== null) return true;
  const nextSuffix = suffixOf(next);
  if (nextSuffix === undefined) return designatorOf(next) === undefined || startsWithDigit(next);
  if (isLeadingType(l, at + 1)) return true;
  const limit = firstBoundary(l, at + 2, span.to);
  if (at + 2 < limit && !isUnitStart(l, at + 2)) {
    // N ST LOUIS vs NORTH ST SPRINGFIELD: with a city after and no comma, only a second suffix tells.
    if (span.cityExpected && limit === span.to) return hasSuffix(l, at + 2, limit);
    return true;
  }
  const abbreviated = l.text(at)!.length <= 2;
  return abbreviated && !COMMON_SUFFIXES.has(nextSuffix);
}

function hasSuffix(l: Labelling, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (suffixOf(l.text(i)) !== undefined) return true;
  return false;
}

/** Labels name, suffix and postdirectional from `q`; returns the index after them. */
function labelNameAndSuffix(l: Labelling, q: number, span: StreetSpan): number {
  const limit = firstBoundary(l, q + 1, span.to);
  const highway = matchHighway(l.texts, q, limit);
  if (highway !== null) {
    l.set(q, q + highway.length, "streetName");
    return labelPostdirectional(l, q + highway.length, span);
  }
  const suffix = chooseSuffix(l, q, limit, span);
  if (suffix >= 0) {
    l.set(q, suffix, "streetName");
    l.set(suffix, suffix + 1, "streetSuffix");
    return labelPostdirectional(l, suffix + 1, span);
  }
  const nameEnd = nameWithoutSuffix(l, q, limit, span);
  l.set(q, nameEnd, "streetName");
  return labelPostdirectional(l, nameEnd, span);
}

/** Names that follow ST / FT / MT in city names (ST LOUIS, FT MYERS): with a state after, a city. */
const SAINT_CITY_NAMES: ReadonlySet<string> = new Set([
  "LOUIS",
  "PAUL",
  "PETERSBURG",
  "CLOUD",
  "GEORGE",
  "CHARLES",
  "JOSEPH",
  "AUGUSTINE",
  "JOHNS",
  "CLAIR",
  "HELENA",
  "MARYS",
  "ALBANS",
  "LUCIE",
  "MYERS",
  "LAUDERDALE",
  "COLLINS",
  "WAYNE",
  "WORTH",
  "PIERCE",
  "VERNON",
  "PLEASANT",
  "AIRY",
  "JULIET",
  "KISCO",
  "SHASTA",
]);

function startsSaintCity(l: Labelling, s: number, span: StreetSpan): boolean {
  const word = l.text(s);
  if (
    word !== "ST" &&
    word !== "FT" &&
    word !== "MT" &&
    word !== "SAINT" &&
    word !== "FORT" &&
    word !== "MOUNT"
  ) {
    return false;
  }
  return span.cityExpected && s + 2 === span.to && SAINT_CITY_NAMES.has(l.text(s + 1)!);
}

function firstBoundary(l: Labelling, from: number, to: number): number {
  for (let i = from; i < to; i++) if (l.boundary(i)) return i;
  return to;
}

/**
 * The suffix among the suffix words of [q+1, limit). Preferred: one followed by the end of the
 * street part, a unit or a final directional; then a common street type (ST, AVE ...), taking the
 * second of two in a row (PARK PLACE DR); then any. With a city expected after the street and no
 * comma, reaching the end is no evidence (LAKE SHORE DR LAKE FOREST IL).
 */
function chooseSuffix(l: Labelling, q: number, limit: number, span: StreetSpan): number {
  const endIsEvidence = limit < span.to || !span.cityAllowed;
  let firstCommon = -1;
  let firstAny = -1;
  const leadingType = isLeadingType(l, q);
  for (let s = q + 1; s < limit; s++) {
    const standard = suffixOf(l.text(s));
    if (standard === undefined || (leadingType && s === q + 1) || startsSaintCity(l, s, span)) continue;
    if (endsStreet(l, s + 1, limit, endIsEvidence)) return s;
    if (firstCommon < 0 && COMMON_SUFFIXES.has(standard)) firstCommon = s;
    if (firstAny < 0) firstAny = s;
  }
  if (firstCommon >= 0) {
    const next = suffixOf(l.text(firstCommon + 1));
    const twoInARow = next !== undefined && COMMON_SUFFIXES.has(next) && firstCommon + 1 < limit;
    if (twoInARow && suffixOf(l.text(firstCommon + 2)) === undefined) return firstCommon + 1;
    if (l.text(firstCommon + 1) !== undefined && suffixOf(l.text(firstCommon + 1)) !== undefined)
      l.guess(0.1);
    return firstCommon;
  }
  if (firstAny >= 0 && span.cityExpected && limit === span.to) {
    l.guess(0.3);
    l.warn("ambiguous_city_street", firstAny, Math.min(firstAny + 2, span.to));
  }
  return firstAny;
}

/** After a suffix at `at - 1`: the end of the street part, a unit, or a last directional. */
function endsStreet(l: Labelling, at: number, limit: number, endIsEvidence: boolean): boolean {
  if (at >= limit) return endIsEvidence;
  const text = l.text(at)!;
  if (isUnitStart(l, at)) return true;
  const directional = directionalOf(text);
  if (directional === undefined) return false;
  if (at + 1 >= limit) return endIsEvidence || directional === text;
  return isUnitStart(l, at + 1);
}

function isUnitStart(l: Labelling, at: number): boolean {
  const text = l.text(at)!;
  if (text === "#") return true;
  if ((isOrdinal(text) || SPELLED_ORDINALS.has(text)) && designatorOf(l.text(at + 1)) === "FL") return true;
  const designator = designatorOf(text);
  if (designator !== undefined) return suffixOf(text) === undefined || isUnitId(l.text(at + 1));
  return OTHER_DESIGNATORS.has(text) && isUnitId(l.text(at + 1));
}

/**
 * `AVENUE B`, `AVENUE OF THE AMERICAS`, `CALLE A`: a type word or Spanish prefix leading the name
 * is part of it (DECISIONS.md "Suffix", Pub 28 §295.3).
 */
function isLeadingType(l: Labelling, q: number): boolean {
  const first = l.text(q)!;
  if (SPANISH_STREET_PREFIXES.has(first)) return true;
  const next = l.text(q + 1);
  if (suffixOf(first) === undefined || next === undefined) return false;
  return (next.length === 1 && !startsWithDigit(next)) || startsWithDigit(next) || NAME_CONNECTORS.has(next);
}

/**
 * A street with no suffix word (BROADWAY, CALLE A, 1700 S): up to the comma; with no comma and a
 * city expected, the name is a guess: the leading-type name and its connectors, or one word.
 */
function nameWithoutSuffix(l: Labelling, q: number, limit: number, span: StreetSpan): number {
  let end = q + 1;
  while (
    end < limit &&
    !isUnitStart(l, end) &&
    !isBareNumber(l.text(end)!) &&
    !endsWithDirectional(l, end, limit)
  ) {
    end++;
  }
  if (limit < span.to || !span.cityExpected || end === q + 1) return end;
  if (end < limit && isUnitStart(l, end)) return end;
  const next = l.text(q + 1)!;
  if (directionalOf(next) === next) return q + 1; // grid: 842 E 1700 S RICHFIELD
  if (isLeadingType(l, q)) {
    let k = q + 1;
    while (k < limit - 1 && NAME_CONNECTORS.has(l.text(k)!)) k++;
    return k + 1;
  }
  l.guess(0.3);
  l.warn("ambiguous_city_street", q, Math.min(q + 2, span.to));
  return q + 1;
}

/** A number after name words is a unit (WABASH 608), not part of the name; 5TH is a name word. */
function isBareNumber(text: string): boolean {
  return startsWithDigit(text) && !isOrdinal(text);
}

function endsWithDirectional(l: Labelling, at: number, limit: number): boolean {
  return directionalOf(l.text(at)) !== undefined && (at + 1 === limit || isUnitStart(l, at + 1));
}

/**
 * A directional after the street is its postdirectional; a spelled-out one followed by more
 * words before the state starts the city instead (NORTH LITTLE ROCK, WEST PALM BEACH).
 */
function labelPostdirectional(l: Labelling, at: number, span: StreetSpan): number {
  const text = l.text(at);
  if (at >= span.to || text === undefined || !l.free(at)) return at;
  const directional = directionalOf(text);
  if (directional === undefined) return at;
  const last = at + 1 >= span.to || l.boundary(at + 1) || isUnitStart(l, at + 1);
  // 1800 M ST, NW, WASHINGTON; 1105 BOLTON RD, NW ATLANTA: an abbreviated directional right after
  // the street is the street's, comma or not; cities are not written with NW.
  if (l.boundary(at) && directional !== text) return at;
  if (directional !== text && !last && span.cityAllowed) return at;
  l.set(at, at + 1, "postdirectional");
  return at + 1;
}

/** What follows the street and its units: the city (the last comma group), else `other`. */
function labelCity(l: Labelling, at: number, span: StreetSpan): void {
  if (at >= span.to || !span.cityAllowed) return;
  let from = at;
  for (let i = at + 1; i < span.to; i++) if (l.boundary(i)) from = i;
  l.set(from, span.to, "city");
}

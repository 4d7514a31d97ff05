import { matchHighway } from "../vocabulary/highway.js";
import { labelUnits } from "./unit-rules.js";
import {
  COMMON_SUFFIXES,
  designatorOf,
  directionalOf,
  isFraction,
  isGridPart,
  isUnitId,
  startsWithDigit,
  suffixOf,
  isAttentionWord,
} from "./rule-word-classes.js";
import type { Labelling } from "./labelling.js";
import { knownCityStart, lastGroupOf, labelCity } from "./city-boundary.js";
import type { StreetSpan } from "./street-words.js";
import { firstBoundary, hasSuffix, isUnitStart, isLeadingType, endsWithDirectional } from "./street-words.js";
import { streetLimit, chooseSuffix, nameWithoutSuffix } from "./suffix-choice.js";

/**
 * One street: house number, fraction, predirectional, name, suffix, postdirectional, units,
 * then the city (Pub 28 §23x). Returns nothing; labels what it reads.
 */
export function labelStreet(l: Labelling, whole: StreetSpan): void {
  const city = knownCityStart(l, whole);
  if (city >= 0) l.set(city, whole.to, "city");
  const span = city >= 0 ? { ...whole, to: city, cityAllowed: false, cityExpected: false } : whole;
  let k = span.from;
  if (span.hasNumber) k = labelNumber(l, k, span.to);
  // 6910 # G MARY CAROLINE CIR: a unit written between the number and the name.
  if (span.hasNumber && l.text(k) === "#" && isUnitId(l.text(k + 1)) && k + 2 < span.to) {
    l.set(k, k + 1, "occupancyType");
    l.set(k + 1, k + 2, "occupancyId");
    k += 2;
  }
  if (k >= span.to) return;
  const pre = directionalOf(l.text(k));
  if (pre !== undefined && isPredirectional(l, k, span)) {
    l.set(k, k + 1, "predirectional");
    k++;
  }
  const end = labelNameAndSuffix(l, k, span);
  let afterUnits = labelUnits(l, end, span.to);
  // ATTN DAVID ALLMAN, C/O SMITH after the street: a recipient, up to the city or the end.
  if (isRecipientStart(l, afterUnits)) {
    const to = city >= 0 ? city : span.cityExpected ? lastGroupOf(l, afterUnits, span.to) : span.to;
    l.set(afterUnits, to, "firm");
    afterUnits = to;
  }
  // 15955 FREDERICK RD THE REED, ROCKVILLE: words between the street and the city's comma
  // group name a building or recipient.
  if (city >= 0 && afterUnits < city && l.boundary(city)) l.set(afterUnits, city, "firm");
  labelCity(l, afterUnits, span);
}

function isRecipientStart(l: Labelling, at: number): boolean {
  const text = l.text(at);
  return isAttentionWord(text) || (text === "C" && l.text(at + 1) === "O");
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
  // The suffix word is the name when it is a common type ending the street (100 NORTH ST,
  // 641 S ST NW); before a rare one the directional leads the name (N WELLS, EAST LAKE).
  const nameIsDirectional = !COMMON_SUFFIXES.has(nextSuffix);
  const endsAfterNext = at + 2 >= limit || isUnitStart(l, at + 2) || endsWithDirectional(l, at + 2, limit);
  if (endsAfterNext) return nameIsDirectional;
  // N ST LOUIS vs NORTH ST SPRINGFIELD: with a city after and no comma, only a later suffix tells.
  if (span.cityExpected && limit === span.to) return hasSuffix(l, at + 2, limit) || nameIsDirectional;
  return true;
}

/** Labels name, suffix and postdirectional from `q`; returns the index after them. */
function labelNameAndSuffix(l: Labelling, q: number, span: StreetSpan): number {
  const highway = matchHighway(l.texts, q, firstBoundary(l, q + 1, span.to));
  const limit = streetLimit(l, q, span);
  if (highway !== null) {
    l.set(q, q + highway.length, "streetName");
    return labelPostdirectional(l, q + highway.length, span);
  }
  const suffix = chooseSuffix(l, q, limit, span);
  if (suffix >= 0) {
    l.set(q, suffix, "streetName");
    l.set(suffix, suffix + 1, "streetSuffix");
    // A rare type word (ISLAND, GROVE) is as often the end of a name with no suffix.
    if (!COMMON_SUFFIXES.has(suffixOf(l.text(suffix))!)) l.guess(0.1);
    return labelPostdirectional(l, suffix + 1, span);
  }
  l.guess(0.1); // no suffix word: where the name ends is less certain
  const nameEnd = nameWithoutSuffix(l, q, limit, span);
  l.set(q, nameEnd, "streetName");
  return labelPostdirectional(l, nameEnd, span);
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

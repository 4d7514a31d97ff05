import { designatorNeedsNumber, isUnlistedSuffix } from "../../usps/usps.js";
import {
  COMMON_SUFFIXES,
  NAME_CONNECTORS,
  designatorOf,
  directionalOf,
  isUnitId,
  startsWithDigit,
  suffixOf,
} from "./rule-word-classes.js";
import type { Labelling } from "./labelling.js";
import { startsSaintCity } from "./city-boundary.js";
import type { StreetSpan } from "./street-words.js";
import {
  firstBoundary,
  hasCommonSuffix,
  hasSuffix,
  isUnitStart,
  isLeadingType,
  isBareNumber,
  endsWithDirectional,
} from "./street-words.js";

/** Which suffix word ends the street, and where a street with none ends (Pub 28 §233). */
/**
 * Where the street must end at the latest: the first comma, the first unit with its number
 * (`6641 N 2200 W APT D304 PARK CITY`), or, with a city after, an abbreviated directional
 * before plain words (`193 BRAYBROOK SE CEDAR RAPIDS`).
 */
export function streetLimit(l: Labelling, q: number, span: StreetSpan): number {
  const to = firstBoundary(l, q + 1, span.to);
  for (let i = q + 1; i < to; i++) {
    const text = l.text(i)!;
    if (
      text === "#" ||
      (designatorNeedsNumber(designatorOf(text) ?? "") &&
        suffixOf(text) === undefined &&
        isUnitId(l.text(i + 1)))
    ) {
      return i;
    }
    // 123 MAIN ST 456 ELM ST: a bare number after a suffix ends the street (a unit or noise);
    // OLD 41 RD keeps it.
    if (isBareNumber(text) && hasSuffix(l, q + 1, i)) return i;
    const next = l.text(i + 1);
    const abbreviated = text.length <= 2 && directionalOf(text) !== undefined;
    // FRANK W DAVIS ST: an initial, since a common street type follows.
    const plainAfter = i + 1 < to && suffixOf(next) === undefined && !startsWithDigit(next);
    if (abbreviated && span.cityExpected && plainAfter && !hasCommonSuffix(l, i + 1, to)) return i;
  }
  return to;
}

/**
 * The suffix among the suffix words of [q+1, limit). Preferred: one followed by the end of the
 * street part, a unit or a final directional; then a common street type (ST, AVE ...), taking the
 * second of two in a row (PARK PLACE DR); then any. With a city expected after the street and no
 * comma, reaching the end is no evidence (LAKE SHORE DR LAKE FOREST IL).
 */
export function chooseSuffix(l: Labelling, q: number, limit: number, span: StreetSpan): number {
  const endIsEvidence = limit < span.to || !span.cityAllowed;
  let firstCommon = -1;
  let firstAny = -1;
  let firstUnlisted = -1;
  const leadingType = isLeadingType(l, q);
  for (let s = q + 1; s < limit; s++) {
    const standard = suffixOf(l.text(s));
    if (standard === undefined && isUnlistedSuffix(l.text(s)!)) {
      if (endsStreet(l, s + 1, limit, endIsEvidence)) return s; // MOPAC EXPWY BLDG 300
      if (firstUnlisted < 0) firstUnlisted = s;
    }
    if (standard === undefined || (leadingType && s === q + 1) || startsSaintCity(l, s, span)) continue;
    if (isSpanishArticle(l, s)) continue;
    if (endsStreet(l, s + 1, limit, endIsEvidence)) return s;
    if (firstCommon < 0 && COMMON_SUFFIXES.has(standard)) firstCommon = s;
    if (firstAny < 0) firstAny = s;
  }
  // FOX RUN TURN: a type word C1 lacks, ending the street right after a suffix word, is the
  // suffix; of two suffix words in a row only the last is (DECISIONS.md "Suffix").
  const last = limit - 1;
  if (firstUnlisted === last && last > q + 1 && suffixOf(l.text(last - 1)) !== undefined) return last;
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
  if (firstAny < 0 && firstUnlisted >= 0) {
    // A non-Pub 28 type word taken as the suffix: where the city starts is a guess (SPEC ambiguous_type).
    l.guess(0.3);
    l.warn("ambiguous_type", firstUnlisted, firstUnlisted + 1);
    return firstUnlisted;
  }
  return firstAny;
}

/** DE LA, DE LOS: LA after DE is the Spanish article, not LANE (ALAMEDA DE LA PULGA). */
export function isSpanishArticle(l: Labelling, s: number): boolean {
  return l.text(s - 1) === "DE" || l.text(s - 1) === "DEL";
}

/** After a suffix at `at - 1`: the end of the street part, a unit, or a last directional. */
export function endsStreet(l: Labelling, at: number, limit: number, endIsEvidence: boolean): boolean {
  if (at >= limit) return endIsEvidence;
  const text = l.text(at)!;
  if (isUnitStart(l, at)) return true;
  const directional = directionalOf(text);
  if (directional === undefined) return false;
  if (at + 1 >= limit) return endIsEvidence || directional === text;
  return isUnitStart(l, at + 1);
}

/**
 * A street with no suffix word (BROADWAY, CALLE A, 1700 S): up to the comma; with no comma and a
 * city expected, the name is a guess: the leading-type name and its connectors, or one word.
 */
export function nameWithoutSuffix(l: Labelling, q: number, limit: number, span: StreetSpan): number {
  // AVENUE E, BOULEVARD EAST: after a lone type word a directional is the name's.
  const typeThenDirectional = suffixOf(l.text(q)) !== undefined && directionalOf(l.text(q + 1)) !== undefined;
  // CALLE 5, AVENUE 50: a number right after a leading type word is the name's, not a unit's.
  const typeThenNumber = q + 1 < limit && isBareNumber(l.text(q + 1)!) && isLeadingType(l, q);
  let end = (typeThenDirectional && q + 1 < limit) || typeThenNumber ? q + 2 : q + 1;
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

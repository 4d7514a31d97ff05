import * as WORDS from "../vocabulary/generated-words.js";
import { wordSet } from "../vocabulary/words.js";
import { countyUnitDesignator, designatorNeedsNumber } from "../../usps/usps.js";
import type { Labelling } from "./labelling.js";
import { isFloorNumberFirst, mailDesignatorLength } from "./street-words.js";
import {
  OTHER_DESIGNATORS,
  designatorOf,
  directionalOf,
  hasDigit,
  isOrdinal,
  isUnitId,
  startsWithDigit,
  suffixOf,
} from "./rule-word-classes.js";

/**
 * Secondary units from `at` on (Pub 28 §213): `APT 4B`, `# 5`, `STE 300`, `APT # 4`, `REAR`,
 * `2ND FLOOR`, and a bare number right after the street (`123 MAIN ST 4B`: a unit without
 * designator, DECISIONS.md). Returns the index after the last unit.
 */
export function labelUnits(l: Labelling, at: number, end: number, afterStreet = true): number {
  let e = at;
  while (e < end && l.free(e)) {
    const taken = unitAt(l, e, end, afterStreet && e === at);
    if (taken === 0) break;
    e += taken;
  }
  return e;
}

function unitAt(l: Labelling, e: number, end: number, rightAfterStreet: boolean): number {
  const text = l.text(e)!;
  const mail = mailDesignatorLength(l, e, end);
  if (mail > 0) {
    l.set(e, e + mail, "occupancyType");
    l.set(e + mail, e + mail + 1, "occupancyId");
    return mail + 1;
  }
  const next = l.text(e + 1);
  // 2ND FLOOR, SECOND FL: the number before the designator (usaddress labels them so), and
  // LOWER LEVEL, UPPER FLOOR the same way.
  if (e + 1 < end && isFloorNumberFirst(text, next)) {
    l.set(e, e + 1, "occupancyId");
    l.set(e + 1, e + 2, "occupancyType");
    return 2;
  }
  // 18 ELM ST RR: a county's rear-lot designator right after the street, with no number after
  // it (data/usps/c2-county-designators.tsv); RR 2 BOX 5 is a route, which box-rules.ts reads.
  if (rightAfterStreet && countyUnitDesignator(text) !== undefined && !isUnitId(next) && next !== "#") {
    l.set(e, e + 1, "occupancyType");
    return 1;
  }
  const designator = designatorOf(text);
  if (designator !== undefined || OTHER_DESIGNATORS.has(text)) return designated(l, e, end, designator);
  // 1 SUMMIT CT B, 720 10TH AVE SW A MOUNT VERNON: a lone letter right after the street is a unit.
  if (
    rightAfterStreet &&
    text.length === 1 &&
    !startsWithDigit(text) &&
    directionalOf(text) === undefined &&
    text !== "&"
  ) {
    l.set(e, e + 1, "occupancyId");
    return 1;
  }
  // 123 MAIN ST 4B, 801 S CANAL ST C1S: a number right after the street is a unit (DECISIONS.md).
  if (rightAfterStreet && hasDigit(text) && text.length < 6 && !isOrdinal(text)) {
    l.set(e, e + 1, "occupancyId");
    return 1;
  }
  return 0;
}

/**
 * `UNIT A&B`, `APT 1 & 2`: two short ids joined by `&` name one unit (a lot's two halves); the
 * words are its id (assembly drops the `&`, DECISIONS.md "Values"). Returns the id's length
 * from `k`: 3 for such a pair, else 1.
 */
function pairedIdLength(l: Labelling, k: number, end: number): number {
  const second = l.text(k + 2);
  const short = (text: string | undefined) => text !== undefined && text.length <= 3 && isUnitId(text);
  const paired =
    k + 2 < end &&
    l.text(k + 1) === "&" &&
    second !== "&" &&
    short(l.text(k)) &&
    short(second) &&
    !l.boundary(k + 1) &&
    !l.boundary(k + 2);
  return paired ? 3 : 1;
}

/**
 * A word as a unit's id: `#COMMERCIAL`, `UNIT PARKG,` (San Francisco's and Berkeley's condo
 * parcels name their commercial and parking units so). Taken after `#` written against it, or
 * after a designator that needs a number when the word ends the delivery part (a comma or the end
 * follows), so `APT SPRINGFIELD IL` keeps its city.
 */
function isWordUnitId(
  l: Labelling,
  e: number,
  k: number,
  end: number,
  designator: string | undefined,
): boolean {
  const word = l.text(k);
  if (word === undefined || !/^[A-Z][A-Z0-9]{1,14}$/.test(word) || l.boundary(k)) return false;
  if (suffixOf(word) !== undefined || directionalOf(word) !== undefined) return false;
  const glued = l.text(k - 1) === "#" && l.tokens[k - 1]!.end === l.tokens[k]!.start;
  const needsNumber = designator !== undefined && designatorNeedsNumber(designator);
  return glued || (needsNumber && k === e + 1 && (k + 1 === end || l.boundary(k + 1)));
}

/**
 * Designators that are never the first word of a city, so one with no number is still a unit
 * (`123 MAIN ST APT SPRINGFIELD`); KEY, LOT, PIER ... may start a city (KEY WEST) and are not here.
 */
/** Words for "number" written between a unit's designator and its number (`APT NO 12`). */
const UNIT_NUMBER_WORDS: ReadonlySet<string> = wordSet(WORDS.NUMBER_WORDS);

const BARE_DESIGNATORS: ReadonlySet<string> = wordSet(WORDS.BARE_UNIT_DESIGNATORS);

function designated(l: Labelling, e: number, end: number, designator: string | undefined): number {
  let k = e + 1;
  // APT # 5, APT NO. 12, SUITE NUMBER 300: a number sign between the designator and its number.
  if (k < end && (l.text(k) === "#" || (UNIT_NUMBER_WORDS.has(l.text(k)!) && isUnitId(l.text(k + 1))))) k++;
  if (
    k < end &&
    isUnitId(l.text(k)) &&
    !(designator !== undefined && !designatorNeedsNumber(designator) && !startsWithDigit(l.text(k)))
  ) {
    l.set(e, k, "occupancyType");
    // APT 13 C, UNIT 2 EAST, # 3 SOUTH: a letter or direction closing the line is part of the number.
    const tail = k + 2 === end || (k + 2 < end && l.boundary(k + 2)) ? 1 : 0;
    const last = l.text(k + 1);
    const joins =
      tail === 1 && last !== undefined && (last.length === 1 || directionalOf(last) !== undefined);
    const idEnd = k + (joins ? 2 : pairedIdLength(l, k, end));
    l.set(k, idEnd, "occupancyId");
    return idEnd - e;
  }
  if (k < end && isWordUnitId(l, e, k, end, designator)) {
    l.set(e, k, "occupancyType");
    l.set(k, k + 1, "occupancyId");
    return k + 1 - e;
  }
  if (designator === undefined) return 0;
  // A designator with no number: fine for REAR, FRNT ...; flagged later for APT, STE ...
  if (!designatorNeedsNumber(designator) || k === end || l.boundary(k) || BARE_DESIGNATORS.has(designator)) {
    l.set(e, k, "occupancyType");
    return k - e;
  }
  return 0;
}

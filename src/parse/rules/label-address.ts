import * as WORDS from "../vocabulary/generated-words.js";
import { wordSet } from "../vocabulary/words.js";
import type { Label } from "../labels.js";
import type { Warning } from "../parse-answer.js";
import type { Token } from "../token.js";
import { puertoRicoAbbreviation } from "../../usps/usps.js";
import { matchHighway } from "../vocabulary/highway.js";
import { isMilitaryCity, labelBoxes } from "./box-rules.js";
import { cityStartBefore } from "./city-boundary.js";
import { labelStreet } from "./street-rules.js";
import { isUnitStart } from "./street-words.js";
import { labelTail } from "./tail-rules.js";
import { labelUnits } from "./unit-rules.js";
import {
  COMMON_SUFFIXES,
  OTHER_DESIGNATORS,
  designatorOf,
  directionalOf,
  hasDigit,
  isHouseNumber,
  isUnitId,
  startsWithDigit,
  suffixOf,
} from "./rule-word-classes.js";
import { foreignSpan } from "../assembly/foreign-signals.js";
import { Labelling } from "./labelling.js";
import { isFirmStretch, labelFirm, labelPlace } from "./firm-rules.js";
import { intersectionAt, labelIntersection } from "./intersection-rules.js";
import type { Segment, SegmentRole } from "./segment.js";

export interface RuleLabelling {
  labels: Label[];
  confidence: number;
  /** Guesses the rules flag themselves (`ambiguous_city_street`). */
  warnings: Warning[];
}

/**
 * The rule-based labeller: boxes and general delivery anywhere, then the last line from the
 * right (ZIP, state), then each stretch of words left: firm, street, units, city.
 */
export function labelAddress(tokens: readonly Token[]): RuleLabelling {
  const l = new Labelling(tokens);
  labelBoxes(l);
  const tail = labelTail(l);
  const segments = freeSegments(l, tail.start);
  const hasTail = tail.hasState || tail.hasZip;
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1 && segment.to === tail.start && !tail.cityAfterState;
    labelSegment(l, segment, {
      cityAllowed: last,
      cityExpected: last && hasTail,
      only: segments.length === 1,
    });
  });
  penalizeLeftovers(l, tail.country);
  if (numberInCity(l)) l.guess(0.3);
  const labels = l.finish();
  // A non-US line is read by US rules as well as they can: the labels are a guess.
  if (foreignSpan(tokens, labels) !== null) l.guess(0.5);
  return { labels, confidence: l.confidence(), warnings: l.warnings };
}

function freeSegments(l: Labelling, end: number): Segment[] {
  const segments: Segment[] = [];
  let from = -1;
  for (let i = 0; i <= end; i++) {
    const free = i < end && l.free(i);
    if (free && from < 0) from = i;
    if (!free && from >= 0) {
      segments.push({ from, to: i });
      from = -1;
    }
  }
  return segments;
}

function labelSegment(l: Labelling, segment: Segment, role: SegmentRole): void {
  if (role.cityAllowed && segment.to - segment.from > 1 && isMilitaryCity(l.text(segment.to - 1))) {
    // USNS COMFORT FPO AA: the city is APO/FPO/DPO alone; what comes before names the unit or ship.
    l.set(segment.to - 1, segment.to, "city");
    const rest = { from: segment.from, to: segment.to - 1 };
    return labelSegment(l, rest, { cityAllowed: false, cityExpected: false, only: false });
  }
  const { to } = segment;
  // DEPT 0669 PO BOX 120001: units first in the stretch.
  const from = labelUnits(l, segment.from, to, false);
  if (from >= to) return;
  const number = houseNumberAt(l, from, to);
  // CENTER RIDGE, AR: words the gazetteer knows as a city in that state are the city.
  if (number < 0 && role.cityExpected && cityStartBefore(l, from, to) === from)
    return l.set(from, to, "city");
  if (number < 0 && isFirmStretch(l, from, to)) return labelFirm(l, { from, to }, role);
  if (number < 0) {
    const intersection = intersectionAt(l, from, to);
    if (intersection >= 0) return labelIntersection(l, segment, intersection, role);
    if (!hasStreetSignal(l, from, to, role)) return labelPlace(l, { from, to }, role);
    return labelStreet(l, { from, to, ...role, hasNumber: false });
  }
  if (number > from) labelPrefix(l, from, number);
  const street = streetAfterBuilding(l, number, to);
  if (street >= 0) {
    l.set(number, street, "firm");
    return labelStreet(l, { from: street, to, ...role, hasNumber: true });
  }
  const urbanization = urbanizationAfter(l, number + 1, to);
  if (urbanization >= 0) {
    labelUrbanization(l, urbanization, to, role);
    return labelStreet(l, { from: number, to: urbanization, ...NO_CITY, hasNumber: true });
  }
  labelStreet(l, { from: number, to, ...role, hasNumber: true });
}

const NO_CITY = { cityAllowed: false, cityExpected: false } as const;

/** Street types that also name buildings and complexes (`LINCOLN CTR`, `CATHEDRAL PL`). */
const BUILDING_TYPES: ReadonlySet<string> = wordSet(WORDS.BUILDING_TYPES);

/**
 * `1 LINCOLN CTR 5400 LBJ FWY`, `1000 CATHEDRAL PL 925 W GEORGIA ST`: a number and words ending
 * in a street type that also names buildings, then a second house number and its street: the
 * first is the building's name, a firm, and the second the street that delivers (the corpora
 * label such lines so). Returns where the second street starts, or -1. Two streets of other types
 * (`123 MAIN ST 456 ELM ST`) stay a street and what follows it.
 */
function streetAfterBuilding(l: Labelling, number: number, to: number): number {
  for (let i = number + 1; i < to; i++) {
    const text = l.text(i)!;
    if (!hasDigit(text)) continue;
    const type = suffixOf(l.text(i - 1));
    const named = i - number >= 3 && type !== undefined && BUILDING_TYPES.has(type);
    if (!named || !isHouseNumber(text)) return -1;
    for (let j = i + 2; j < to; j++) if (suffixOf(l.text(j)) !== undefined) return i;
    return -1;
  }
  return -1;
}

function isUrbanizationWord(text: string | undefined): boolean {
  return text === "URB" || (text !== undefined && puertoRicoAbbreviation(text) === "URB");
}

/** Where an urbanization written after the street starts (`123 CALLE 5 URB VILLA CAROLINA`), or -1. */
function urbanizationAfter(l: Labelling, from: number, to: number): number {
  for (let i = from; i < to - 1; i++) if (isUrbanizationWord(l.text(i))) return i;
  return -1;
}

/**
 * The urbanization from its URB word (§292) to the city: where a state or ZIP follows, the city
 * the gazetteer knows at the stretch's end; else what follows a comma; else nothing.
 */
function labelUrbanization(l: Labelling, from: number, to: number, role: SegmentRole): void {
  let end = to;
  if (role.cityAllowed) {
    const city = role.cityExpected ? cityStartBefore(l, from + 2, to) : -1;
    let comma = from + 2;
    while (comma < to && !l.boundary(comma)) comma++;
    end = city >= from + 2 ? city : comma;
  }
  l.set(from, end, "urbanization");
  if (end < to) l.set(end, to, "city");
}

/** The first house number of the stretch that is not a unit's number (`APT 5 123 MAIN ST`). */
function houseNumberAt(l: Labelling, from: number, to: number): number {
  // HIGHWAY 80, US HIGHWAY 22, EAST HIGHWAY 212: the route number is no house number.
  if (matchHighway(l.texts, from, to) !== null) return -1;
  if (directionalOf(l.text(from)) !== undefined && matchHighway(l.texts, from + 1, to) !== null) return -1;
  // ONE S DEARBORN ST, FIFTY N FRONT ST: a spelled number leading a street.
  if (SPELLED_NUMBERS.has(l.text(from)!) && to - from >= 3 && !l.boundary(from + 1)) return from;
  for (let i = from; i < to; i++) {
    if (!isHouseNumber(l.text(i))) continue;
    const before = l.text(i - 1);
    const unitBefore = designatorOf(before) !== undefined && suffixOf(before) === undefined;
    if (i > from && (before === "#" || unitBefore || OTHER_DESIGNATORS.has(before!))) continue;
    return i;
  }
  return -1;
}

const SPELLED_NUMBERS: ReadonlySet<string> = wordSet(WORDS.SPELLED_NUMBERS);

/**
 * Words with no house number read as a street when a common street type follows the first word
 * (MAIN ST), a highway starts them, or the line is nothing else; otherwise as the city
 * (CEDAR RAPIDS IA: RAPIDS is a suffix word, but a city name's).
 */
function hasStreetSignal(l: Labelling, from: number, to: number, role: SegmentRole): boolean {
  if (matchHighway(l.texts, from) !== null) return true;
  for (let i = from + 1; i < to; i++) {
    const suffix = suffixOf(l.text(i));
    if (suffix !== undefined && COMMON_SUFFIXES.has(suffix)) return true;
    if (designatorOf(l.text(i)) !== undefined && isUnitId(l.text(i + 1)) && i + 1 < to) return true;
  }
  return role.only && !role.cityExpected;
}

/** Words before the house number: a Puerto Rico urbanization (§292), units, or a firm. */
function labelPrefix(l: Labelling, from: number, to: number): void {
  const first = l.text(from)!;
  if (isUrbanizationWord(first)) {
    l.set(from, to, "urbanization");
    return;
  }
  const afterUnits = labelUnits(l, from, to, false);
  if (afterUnits >= to) return;
  // COND TORRE DEL MAR APT 1204: a building's name, then its units up to the house number.
  // Otherwise the words are one firm (units labelled on the way are overwritten), never two.
  let units = afterUnits + 1;
  while (units < to && !isUnitStart(l, units)) units++;
  const unitsToNumber = units < to && labelUnits(l, units, to, false) === to;
  l.set(afterUnits, unitsToNumber ? units : to, "firm");
  l.guess(0.05);
}

const PLACE_LABELS: ReadonlySet<Label> = new Set(["city", "state", "zip5", "zip4", "firm"]);

/** Unplaced words lower confidence; country words after the ZIP (`USA`) do not. */
function penalizeLeftovers(l: Labelling, country: number): void {
  let placed = false;
  for (let i = 0; i < l.length; i++) {
    const label = l.labels[i];
    if (label === undefined && i < country) l.guess(0.1);
    if (label !== undefined && !PLACE_LABELS.has(label)) placed = true;
  }
  // Only place words: no delivery part, the type is undeterminable. A firm line (C/O SMITH,
  // ACME INC, SPRINGFIELD IL) is likelier read right than bare words.
  if (!placed) l.guess(l.labels.includes("firm") ? 0.35 : 0.5);
}

/**
 * A number read into the city (ST 2 MIDLOTHIAN): US city names hold none, so words before the
 * city were left over, most often a unit the rules do not know.
 */
function numberInCity(l: Labelling): boolean {
  return l.labels.some((label, i) => label === "city" && startsWithDigit(l.texts[i]));
}

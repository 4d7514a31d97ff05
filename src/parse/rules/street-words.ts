import { SPANISH_STREET_PREFIXES } from "../../usps/usps.js";
import {
  COMMON_SUFFIXES,
  NAME_CONNECTORS,
  OTHER_DESIGNATORS,
  designatorOf,
  directionalOf,
  hasDigit,
  SPELLED_ORDINALS,
  isOrdinal,
  isUnitId,
  startsWithDigit,
  suffixOf,
} from "./rule-word-classes.js";
import type { Labelling } from "./labelling.js";

/** Word tests shared by the street rules: boundaries, units ahead, suffix words, bare numbers. */
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

export function firstBoundary(l: Labelling, from: number, to: number): number {
  for (let i = from; i < to; i++) if (l.boundary(i)) return i;
  return to;
}

export function hasCommonSuffix(l: Labelling, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const suffix = suffixOf(l.text(i));
    if (suffix !== undefined && COMMON_SUFFIXES.has(suffix)) return true;
  }
  return false;
}

export function hasSuffix(l: Labelling, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (suffixOf(l.text(i)) !== undefined) return true;
  return false;
}

export function isUnitStart(l: Labelling, at: number): boolean {
  const text = l.text(at)!;
  if (text === "#" || mailDesignatorLength(l, at, l.length) > 0) return true;
  const next = l.text(at + 1);
  if (isFloorNumberFirst(text, next)) return true;
  const designator = designatorOf(text);
  if (designator !== undefined) return suffixOf(text) === undefined || isUnitId(next);
  return OTHER_DESIGNATORS.has(text) && isUnitId(next);
}

/**
 * `AVENUE B`, `AVENUE OF THE AMERICAS`, `CALLE A`: a type word or Spanish prefix leading the name
 * is part of it (DECISIONS.md "Suffix", Pub 28 §295.3).
 */
export function isLeadingType(l: Labelling, q: number): boolean {
  const first = l.text(q)!;
  if (SPANISH_STREET_PREFIXES.has(first)) return true;
  const next = l.text(q + 1);
  if (suffixOf(first) === undefined || next === undefined) return false;
  return (next.length === 1 && !startsWithDigit(next)) || startsWithDigit(next) || NAME_CONNECTORS.has(next);
}

/** A number after name words is a unit (WABASH 608), not part of the name; 5TH is a name word. */
export function isBareNumber(text: string): boolean {
  return startsWithDigit(text) && !isOrdinal(text);
}

export function endsWithDirectional(l: Labelling, at: number, limit: number): boolean {
  return directionalOf(l.text(at)) !== undefined && (at + 1 === limit || isUnitStart(l, at + 1));
}

/**
 * A mail code or mail stop with its number (`MAIL CODE 5021`, `M/C 050`, `MS 5-230`): the
 * mailroom's internal address, which the hand-labelled corpora label as a unit; kept as typed,
 * with `unknown_unit_designator` (Appendix C2 lacks it). Returns the designator's words, or 0.
 * Only before a number, as `MS` and `MC` are also a state and a name's first word (`MC CALL`).
 */
export function mailDesignatorLength(l: Labelling, at: number, end: number): number {
  const text = l.text(at);
  const next = l.text(at + 1);
  const words =
    (text === "MAIL" && (next === "CODE" || next === "STOP")) ||
    (text === "M" && (next === "C" || next === "S") && !l.boundary(at + 1))
      ? 2
      : text === "MS" || text === "MC" || text === "MAILSTOP" || text === "MAILCODE"
        ? 1
        : 0;
  const id = l.text(at + words);
  return words > 0 && at + words < end && id !== undefined && hasDigit(id) && !l.boundary(at + words)
    ? words
    : 0;
}

/** FL and LEVEL (LVL): the designators whose number may come first (`2ND FLOOR`, `LOWER LEVEL`). */
export function isFloorWord(text: string | undefined): boolean {
  return designatorOf(text) === "FL" || text === "LEVEL" || text === "LVL";
}

/** LOWER and UPPER before a floor word: which floor, as an ordinal would say (`LOWER LEVEL`). */
export function isLevelWord(text: string, next: string | undefined): boolean {
  const designator = designatorOf(text);
  return (designator === "LOWR" || designator === "UPPR") && isFloorWord(next);
}

/** A floor's number written before its floor word (`2ND FLOOR`, `SECOND FL`, `LOWER LEVEL`). */
export function isFloorNumberFirst(text: string, next: string | undefined): boolean {
  return ((isOrdinal(text) || SPELLED_ORDINALS.has(text)) && isFloorWord(next)) || isLevelWord(text, next);
}

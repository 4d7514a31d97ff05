import * as WORDS from "../vocabulary/generated-words.js";
import { wordSet } from "../vocabulary/words.js";
import { standardState } from "../../usps/usps.js";
import type { Label } from "../labels.js";
import { cityGazetteer } from "./city-gazetteer.js";
import { labelUnits } from "./unit-rules.js";
import { designatorOf, startsWithDigit, suffixOf } from "./rule-word-classes.js";
import type { Labelling } from "./labelling.js";
import type { StreetSpan } from "./street-words.js";

/** Where the city starts after a street: the ZIP gazetteer, the last comma group, SAINT cities. */

/** With a state or ZIP after the street, where a city the gazetteer knows starts; -1 if none. */
export function knownCityStart(l: Labelling, span: StreetSpan): number {
  if (!span.cityExpected) return -1;
  return cityStartBefore(l, span.from + (span.hasNumber ? 2 : 1), span.to);
}

/**
 * With a state or ZIP at `to`, the longest run of words before it that the ZIP gazetteer knows
 * as a city (in that state) starts the city; after a comma only the whole last comma group
 * counts (`1 FIRST ST, E SAN JOSE CA`). -1 when none; never before `earliest`.
 */
export function cityStartBefore(l: Labelling, earliest: number, to: number): number {
  let lastComma = -1;
  for (let i = earliest; i < to; i++) if (l.boundary(i)) lastComma = i;
  const gazetteer = cityGazetteer();
  const from = gazetteer.cityStart(l.texts, Math.max(earliest, lastComma), to, stateAt(l, to));
  if (lastComma >= 0 && from !== lastComma) return -1;
  // STREET (MD) and LANE (KS) are towns, but a lone suffix word there is the street's suffix.
  if (from === to - 1 && suffixOf(l.text(from)) !== undefined) return -1;
  return from;
}

/**
 * The standard code of the state labelled from `at`, if any: of the rules' labelling, or of any
 * line's words and labels (the model backend's, city-directional.ts).
 */
export function stateAt(
  l: { readonly texts: readonly string[]; readonly labels: readonly (Label | undefined)[] },
  at: number,
): string | undefined {
  let end = at;
  while (l.labels[end] === "state") end++;
  return end === at ? undefined : standardState(l.texts.slice(at, end).join(" "));
}

export function lastGroupOf(l: Labelling, from: number, to: number): number {
  let start = to;
  for (let i = from + 1; i < to; i++) if (l.boundary(i)) start = i;
  return start;
}

/** Names that follow ST / FT / MT in city names (ST LOUIS, FT MYERS): with a state after, a city. */
export const SAINT_CITY_NAMES: ReadonlySet<string> = wordSet(WORDS.SAINT_CITY_NAMES);

export function startsSaintCity(l: Labelling, s: number, span: StreetSpan): boolean {
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
  return span.cityExpected && s + 2 >= span.to - 1 && s + 1 < span.to && SAINT_CITY_NAMES.has(l.text(s + 1)!);
}

/** What follows the street and its units: the city (the last comma group), else `other`. */
export function labelCity(l: Labelling, at: number, span: StreetSpan): void {
  if (at >= span.to || !span.cityAllowed) return;
  let from = at;
  for (let i = at + 1; i < span.to; i++) if (l.boundary(i)) from = i;
  // Words after the street with no state or ZIP to anchor them and no comma: a guessed city.
  if (!span.cityExpected && !l.boundary(from)) l.guess(0.2);
  if (from > at && l.free(at)) l.set(at, from, "firm"); // a building before the city's comma group
  // PANORAMA TOWER, UNIT 24-L MIAMI: a numbered unit that starts the comma group is no city's.
  if (designatorOf(l.text(from)) !== undefined && startsWithDigit(l.text(from + 1)))
    from = labelUnits(l, from, span.to, false);
  l.set(from, span.to, "city");
}

import * as WORDS from "../vocabulary/generated-words.js";
import { wordSet } from "../vocabulary/words.js";
import { cityStartBefore } from "./city-boundary.js";
import { labelStreet } from "./street-rules.js";
import type { Labelling } from "./labelling.js";
import type { Segment, SegmentRole } from "./segment.js";
import { lastGroupStart } from "./segment.js";

/** Stretches with no house number: firms (C/O, ATTN, INC ...), cities, streets without number. */

/**
 * Words that mark a firm or recipient (C/O, ATTN, INC, LLC ...): a stretch with one and no house
 * number is a firm, not a street.
 */
export const FIRM_WORDS: ReadonlySet<string> = wordSet(WORDS.FIRM_MARKERS);

export function isFirmStretch(l: Labelling, from: number, to: number): boolean {
  if (l.text(from) === "C" && l.text(from + 1) === "O") return true;
  const end = lastGroupStart(l, from, to);
  for (let i = from; i < (end > from ? end : to); i++) if (FIRM_WORDS.has(l.text(i)!)) return true;
  return false;
}

/** A firm stretch: the firm, and the city in its last comma group when a city may follow. */
export function labelFirm(l: Labelling, segment: Segment, role: SegmentRole): void {
  // C/O G THOMAS COLLINS, JR: with no state or ZIP after, the last comma group is no city.
  // BUDD INSURANCE AGENCY COLDWATER MI: with no comma, a city the gazetteer knows.
  const known = role.cityExpected ? cityStartBefore(l, segment.from + 1, segment.to) : -1;
  const city =
    known >= 0 ? known : role.cityExpected ? lastGroupStart(l, segment.from, segment.to) : segment.from;
  if (city > segment.from) {
    l.set(segment.from, city, "firm");
    l.set(city, segment.to, "city");
  } else {
    l.set(segment.from, segment.to, "firm");
  }
}

/**
 * A stretch with no street signal: the city when it may be one (its last comma group; a group
 * before it is a street without number: `MAIN, ASHLAND, NH`), a firm before a box.
 */
export function labelPlace(l: Labelling, segment: Segment, role: SegmentRole): void {
  if (role.cityAllowed) {
    let from = segment.from;
    for (let i = from + 1; i < segment.to; i++) if (l.boundary(i)) from = i;
    // MAIN, ASHLAND, NH: one word before the city is a street; THE EMPIRE, SIOUX FALLS a firm.
    if (from - segment.from === 1) {
      labelStreet(l, {
        from: segment.from,
        to: from,
        cityAllowed: false,
        cityExpected: false,
        hasNumber: false,
      });
      l.guess(0.2);
    } else if (from > segment.from) {
      l.set(segment.from, from, "firm");
      l.guess(0.2);
    }
    l.set(from, segment.to, "city");
    return;
  }
  l.set(segment.from, segment.to, "firm");
  l.guess(0.1);
}

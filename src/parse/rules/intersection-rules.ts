import * as WORDS from "../vocabulary/generated-words.js";
import { wordSet } from "../vocabulary/words.js";
import { labelStreet } from "./street-rules.js";
import { INTERSECTION_WORDS } from "./rule-word-classes.js";
import type { Labelling } from "./labelling.js";
import type { Segment, SegmentRole } from "./segment.js";

/** Intersections (SPEC `unsupported_intersection`): MAIN ST & ELM ST, CORNER OF 5TH AND MAIN. */

export const CORNER_WORDS: ReadonlySet<string> = wordSet(WORDS.CORNER_WORDS);

/** `MAIN ST & ELM ST`, `CORNER OF 5TH AND MAIN`: the joining word, with a street each side. */
export function intersectionAt(l: Labelling, from: number, to: number): number {
  for (let i = from + 1; i < to - 1; i++) if (INTERSECTION_WORDS.has(l.text(i)!)) return i;
  return -1;
}

export function labelIntersection(l: Labelling, segment: Segment, at: number, role: SegmentRole): void {
  let from = segment.from;
  while (from < at - 1 && CORNER_WORDS.has(l.text(from)!)) from++;
  if (from > segment.from) l.set(segment.from, from, "intersection");
  l.set(at, at + 1, "intersection");
  labelStreet(l, { from, to: at, cityAllowed: false, cityExpected: false, hasNumber: false });
  labelStreet(l, { from: at + 1, to: segment.to, ...role, hasNumber: false });
  l.guess(0.5);
}

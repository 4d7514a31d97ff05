import type { Labelling } from "./labelling.js";

/** A stretch of words the tail and box rules left, and what may follow it. */

export interface Segment {
  from: number;
  to: number;
}

export interface SegmentRole {
  cityAllowed: boolean;
  cityExpected: boolean;
  only: boolean;
}

export function lastGroupStart(l: Labelling, from: number, to: number): number {
  let start = from;
  for (let i = from + 1; i < to; i++) if (l.boundary(i)) start = i;
  return start;
}

import * as WORDS from "../vocabulary/generated-words.js";
import { wordSet } from "../vocabulary/words.js";
import type { Label } from "../labels.js";
import type { Token } from "../token.js";

/**
 * `…, SEATTLE, KING COUNTY, WA`: a county named in the line is no part of a Pub 28 address and
 * never the city. The county's words (back to the comma before them, or the one word before
 * COUNTY without one) labelled as place words become `other`; a place group right before it
 * that was taken for a firm because the county seemed the city is the city again.
 * Returns `labels` itself when nothing changes.
 */
export function countyAsOther(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const at = countyWordAt(tokens, labels);
  if (at < 1) return labels;
  let from = at - 1;
  while (from > 0 && !tokens[from]!.boundaryBefore && PLACE_LABELS.has(labels[from - 1]!)) from--;
  if (!tokens[from]!.boundaryBefore) from = at - 1;
  if (!labels.slice(from, at).every((label) => PLACE_LABELS.has(label))) return labels;
  const copy = labels.slice();
  copy.fill("other", from, at + 1);
  if (!copy.includes("city")) cityBefore(tokens, copy, from);
  return copy;
}

/** Where COUNTY (or PARISH, BOROUGH) closes a place group before the state, ZIP or end. */
function countyWordAt(tokens: readonly Token[], labels: readonly Label[]): number {
  for (let t = 1; t < tokens.length; t++) {
    if (!COUNTY_WORDS.has(tokens[t]!.text) || !PLACE_LABELS.has(labels[t]!)) continue;
    const next = labels[t + 1];
    if (next === undefined || next === "state" || next === "zip5" || tokens[t + 1]!.boundaryBefore) return t;
  }
  return -1;
}

/** The firm-labelled group right before `from`, after a comma, read as the city. */
function cityBefore(tokens: readonly Token[], labels: Label[], from: number): void {
  let start = from;
  while (start > 0 && labels[start - 1] === "firm") {
    start--;
    if (tokens[start]!.boundaryBefore) break;
  }
  if (start < from && tokens[start]!.boundaryBefore) labels.fill("city", start, from);
}

const COUNTY_WORDS: ReadonlySet<string> = wordSet(WORDS.COUNTY_WORDS);
const PLACE_LABELS: ReadonlySet<Label> = new Set(["city", "firm", "other"]);

import { standardDirectional, standardSuffix } from "../../usps/usps.js";
import { matchHighway } from "../highway.js";
import type { Label } from "../labels.js";
import type { Token } from "../token.js";
import { runEnd } from "./draft.js";

/**
 * DECISIONS.md's reading of a street, applied to any labelling before assembly. The rules label
 * streets so already; a labeller that learned from hand-labelled lines may not, because the
 * corpus is not consistent about these cases. Applied to every labelling, it gives both backends
 * the same components, and evaluation compares the corpus's lines under the same reading.
 * - A highway name is a highway word group, a route number and an optional BYPASS or FRONTAGE
 *   ROAD tail, all street name and never a suffix. A directional before it is the
 *   predirectional, and one after it the postdirectional (`E HIGHWAY 212`, `US 41 SW`).
 * - Any other name whose last word is a street type, on a line with no suffix, ends in that
 *   suffix (`N CENTRAL PARK`, `LINCOLN PARK WEST`): of suffix words, the last is the suffix.
 * - A directional is named by its place: between the name and the suffix it is part of the name
 *   (Pub 28 §233.3: `NEW MEXICO NW AVE`), right after the street it is the postdirectional
 *   (`PEACHTREE RD NE`).
 * - Of two suffix words in a row only the last is the suffix; the others stay in the name
 *   (`AVALON RIDGE PARKWAY`, `PARK PLACE DR`).
 * Returns `labels` itself when nothing changes.
 */
export function streetLabels(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  return namesAndHighways(tokens, lastSuffixWord(tokens, directionalsByPlace(labels)));
}

/**
 * The first street's suffix run of two words or more keeps only its last word as the suffix,
 * when that word is a street type (`TROON CIRCLE AUSTELL`, a city labelled as a suffix, is left
 * as labelled).
 */
function lastSuffixWord(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const name = labels.indexOf("streetName");
  const start = name < 0 ? labels.indexOf("streetSuffix") : runEnd(labels, name);
  if (start < 0 || labels[start] !== "streetSuffix") return labels;
  const end = runEnd(labels, start);
  if (end - start < 2 || standardSuffix(tokens[end - 1]!.text) === undefined) return labels;
  return relabelled(labels, start, end - 1, "streetName");
}

/**
 * A directional between the first name and its suffix joins the name; one right after the
 * street is the postdirectional.
 */
function directionalsByPlace(labels: readonly Label[]): readonly Label[] {
  const start = labels.indexOf("streetName");
  if (start < 0) return labels;
  const nameEnd = runEnd(labels, start);
  const between = DIRECTIONAL.has(labels[nameEnd]!) ? runEnd(labels, nameEnd) : nameEnd;
  if (between > nameEnd && labels[between] === "streetSuffix") {
    return relabelled(labels, nameEnd, between, "streetName");
  }
  const streetEnd = labels[nameEnd] === "streetSuffix" ? runEnd(labels, nameEnd) : nameEnd;
  if (labels[streetEnd] === "predirectional" && !labels.includes("postdirectional")) {
    return relabelled(labels, streetEnd, runEnd(labels, streetEnd), "postdirectional");
  }
  return labels;
}

const DIRECTIONAL: ReadonlySet<Label> = new Set(["predirectional", "postdirectional"]);

function relabelled(labels: readonly Label[], from: number, to: number, label: Label): Label[] {
  const copy = labels.slice();
  copy.fill(label, from, to);
  return copy;
}

/** The highway readings and the trailing street type, on the first street name and its suffix. */
function namesAndHighways(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const start = labels.indexOf("streetName");
  if (start < 0) return labels;
  const end = runEnd(labels, start);
  const suffixEnd = labels[end] === "streetSuffix" ? runEnd(labels, end) : end;
  if (end - start < 2 && suffixEnd === end) return labels;
  const words = tokens.slice(start, suffixEnd).map((token) => token.text);
  const nameLength = end - start;
  let out = labels;
  // Word positions from the start of the name.
  const relabel = (from: number, to: number, label: Label): void => {
    out = relabelled(out, start + from, start + to, label);
  };

  // E HIGHWAY 212: the directional before the highway.
  let first = 0;
  if (
    nameLength >= 3 &&
    !labels.includes("predirectional") &&
    isDirectional(words, 0, 1) &&
    coversExactly(words, 1, nameLength)
  ) {
    relabel(0, 1, "predirectional");
    first = 1;
  }
  if (suffixEnd > end) {
    // I 10 FRONTAGE RD, HIGHWAY 6 BYPASS: the tail of the highway's name, not a suffix.
    if (coversExactly(words, first, words.length)) relabel(nameLength, words.length, "streetName");
    return out;
  }
  if (coversExactly(words, first, nameLength)) return out;
  // US 41 SW: the directional after the route number.
  if (!labels.includes("postdirectional")) {
    for (const tail of [1, 2]) {
      if (
        nameLength - first - tail >= 2 &&
        isDirectional(words, nameLength - tail, nameLength) &&
        coversExactly(words, first, nameLength - tail)
      ) {
        relabel(nameLength - tail, nameLength, "postdirectional");
        return out;
      }
    }
  }
  // CENTRAL PARK: a name of two words or more ending in a street type, and no suffix anywhere.
  if (
    nameLength - first >= 2 &&
    !labels.includes("streetSuffix") &&
    standardSuffix(words[nameLength - 1]!) !== undefined
  ) {
    relabel(nameLength - 1, nameLength, "streetSuffix");
  }
  return out;
}

/** The highway name starting at `words[from]` takes exactly the words up to `to`. */
function coversExactly(words: readonly string[], from: number, to: number): boolean {
  const match = matchHighway(words, from, to);
  return match !== null && match.length === to - from;
}

/** `SW`, `SOUTHWEST`, or two words making one (`S W`). */
function isDirectional(words: readonly string[], from: number, to: number): boolean {
  return standardDirectional(words.slice(from, to).join("")) !== undefined;
}

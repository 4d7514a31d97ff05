import * as WORDS from "../vocabulary/generated-words.js";
import { wordSet } from "../vocabulary/words.js";
import { standardDirectional, standardState, standardUnitDesignator } from "../../usps/usps.js";
import type { Label } from "../labels.js";
import { cityGazetteer } from "../rules/city-gazetteer.js";
import { hasDigit, isAttentionWord, startsWithDigit } from "../rules/rule-word-classes.js";
import type { Token } from "../token.js";
import { runEnd } from "./draft.js";

/**
 * Words that name a recipient, read as the firm they are (SPEC: "Business or recipient name in
 * the line"), whatever a labeller made of them:
 * - an attention line (`ATTN DEPT # 528`, `ATTN A/R`), as the rules read it;
 * - a number and words ending in a building word, on a line with no other street
 *   (`1700 WELLS FARGO TOWER`);
 * - words opening the city that make no city of the line's state (`… STE 110 BURNS PROF BLG
 *   BLUE RIDGE GA`).
 * The hand-labelled corpora label all three so. Returns `labels` itself when nothing changes.
 */
export function firmLabels(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  return namesBeforeCity(tokens, buildingName(tokens, attentionLine(tokens, labels)));
}

/**
 * `ATTN` (or `ATTENTION`) and the words after it, up to the next comma, the city, state or ZIP,
 * or a number (one right after `#` belongs to the line: `ATTN DEPT # 528`), and before a unit
 * designator with its number (`ATTN J SMITH STE 200`).
 */
function attentionLine(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const from = tokens.findIndex((token) => isAttentionWord(token.text));
  if (from < 0) return labels;
  let to = from + 1;
  while (to < tokens.length && !tokens[to]!.boundaryBefore && !PLACE.has(labels[to]!)) {
    const text = tokens[to]!.text;
    if (startsWithDigit(text) && tokens[to - 1]!.text !== "#") break;
    const next = tokens[to + 1]?.text;
    if (standardUnitDesignator(text) !== undefined && labels[to] === "occupancyType" && startsWithDigit(next))
      break;
    to++;
  }
  let copy: Label[] | undefined;
  for (let t = from; t < to; t++) {
    if (labels[t] === "firm") continue;
    copy ??= labels.slice();
    copy[t] = "firm";
  }
  return copy ?? labels;
}

const PLACE: ReadonlySet<Label> = new Set(["city", "state", "zip5", "zip4"]);

/** Words that end a building's name (Pub 28 C2's BLDG among them). */
const BUILDING_WORDS: ReadonlySet<string> = wordSet(WORDS.BUILDING_WORDS);

/**
 * `1700 WELLS FARGO TOWER`, `1600 CRESTAR BANK BLDG`: where the house number's street has no
 * street type and its words end in a building word with no number of its own, they name a
 * building, and the number before them (as often its suite as a house) goes with the name: all
 * a firm. `1 MEDICAL PARK TOWER 5` (the tower numbered) and a line with another street keep
 * their labels.
 */
function buildingName(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const number = labels.indexOf("addressNumber");
  if (number < 0 || labels.includes("streetSuffix") || labels.includes("intersection")) return labels;
  if (labels.indexOf("addressNumber", number + 1) >= 0) return labels;
  let building = number + 1;
  while (building < tokens.length && labels[building] === "streetName") {
    if (BUILDING_WORDS.has(tokens[building]!.text)) break;
    building++;
  }
  if (building === number + 1 || !BUILDING_WORDS.has(tokens[building]?.text ?? "")) return labels;
  const after = building + 1;
  const numbered =
    after < tokens.length &&
    !tokens[after]!.boundaryBefore &&
    !PLACE.has(labels[after]!) &&
    labels[after] !== "occupancyType";
  if (numbered) return labels;
  const copy = labels.slice();
  copy.fill("firm", number, after);
  return copy;
}

/**
 * Where the ZIP gazetteer knows a city of the line's state ending the city's words, and the words
 * before it make no longer city there, they name a building, a department or a recipient written
 * between the street and its city (`500 NORTH BREAKERS SAINT SIMONS ISLAND GEORGIA`). Of the
 * 17,741 lines of the hand-labelled corpora one labels a city so (`CANDELARIA MARFA TX`).
 * A lone directional is left to city-directional.ts, words with a digit are no name, and a line
 * with a firm elsewhere keeps its labels (one firm per line). Without a state, or when the
 * gazetteer knows no city ending the words, the labels stand.
 */
function namesBeforeCity(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const from = labels.indexOf("city");
  if (from < 1 || labels.includes("firm")) return labels;
  const to = runEnd(labels, from);
  if (to - from < 2 || labels[to] !== "state" || labels.indexOf("city", to) >= 0) return labels;
  // The city's words and the state's, from the city's first.
  const words: string[] = [];
  for (let t = from, end = runEnd(labels, to); t < end; t++) words.push(tokens[t]!.text);
  const state = standardState(words.slice(to - from).join(" "));
  if (state === undefined) return labels;
  const known = cityGazetteer().cityStart(words, 0, to - from, state);
  if (known <= 0) return labels;
  if (known === 1 && standardDirectional(words[0]!) !== undefined) return labels;
  // A number among them is more likely a unit's or a house's (`ST 2 MIDLOTHIAN VA`) than a name's.
  if (words.slice(0, known).some(hasDigit)) return labels;
  const copy = labels.slice();
  copy.fill("firm", from, from + known);
  return copy;
}

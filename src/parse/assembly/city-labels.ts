import { standardDirectional } from "../../usps/usps.js";
import type { Label } from "../labels.js";
import { stateAt } from "../rules/city-boundary.js";
import { cityGazetteer } from "../rules/city-gazetteer.js";
import { hasDigit } from "../rules/word-classes.js";
import type { Token } from "../token.js";
import { runEnd } from "./draft.js";

/**
 * Words that open the city but are no part of a city name, read as the firm they are: where the
 * ZIP gazetteer knows a city of the line's state ending the city's words, and the words before
 * it make no longer city there, they name a building, a department or a recipient written
 * between the street and its city (`2855 OLD HWY 5 STE 110 BURNS PROF BLG BLUE RIDGE GA`,
 * `500 NORTH BREAKERS SAINT SIMONS ISLAND GEORGIA`). The hand-labelled corpora label such words
 * as a firm, and of their 17,741 lines one labels a city so (`CANDELARIA MARFA TX`).
 * A lone directional is left to city-directional.ts, words with a digit are no name, and a line
 * with a firm elsewhere keeps its labels (one firm per line). Without a state, or when the gazetteer knows no city ending the
 * words, the labels stand. Returns `labels` itself when nothing changes.
 */
export function cityLabels(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const from = labels.indexOf("city");
  if (from < 1 || labels.includes("firm")) return labels;
  const to = runEnd(labels, from);
  if (to - from < 2 || labels.indexOf("city", to) >= 0) return labels;
  const texts = tokens.map((token) => token.text);
  const state = stateAt({ texts, labels }, to);
  if (state === undefined) return labels;
  const cityFrom = cityGazetteer().cityStart(texts, from, to, state);
  if (cityFrom <= from) return labels;
  if (cityFrom - from === 1 && standardDirectional(texts[from]!) !== undefined) return labels;
  // A number among them is more likely a unit's or a house's (`ST 2 MIDLOTHIAN VA`) than a name's.
  if (texts.slice(from, cityFrom).some(hasDigit)) return labels;
  const copy = labels.slice();
  copy.fill("firm", from, cityFrom);
  return copy;
}

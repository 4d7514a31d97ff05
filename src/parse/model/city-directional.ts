import { standardDirectional } from "../../usps/usps.js";
import { runEnd } from "../assembly/draft.js";
import type { Label } from "../labels.js";
import { stateAt } from "../rules/city-boundary.js";
import { cityGazetteer } from "../rules/city-gazetteer.js";
import type { Token } from "../token.js";

/**
 * Whether a directional between the street and the city is the street's postdirectional or the
 * city's first word, read from the ZIP gazetteer as the rules read it (rules/city-boundary.ts):
 * it belongs to the city when the two make a city of the line's state (`W PALM BEACH FL`,
 * `NORTH LITTLE ROCK AR`), and to the street when only the words after it do (`123 MAIN ST
 * NORTH SPRINGFIELD IL`, `1 FIRST ST, E SAN JOSE CA`). The model learns this boundary from
 * the words alone and errs both ways on cities it has seen little of; the gazetteer has every
 * city of a ZIP.
 * Needs the state: without it, or when the gazetteer knows neither reading, the labels stand.
 * Returns `labels` itself when nothing changes.
 */
export function directionalBeforeCity(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const cityAt = labels.indexOf("city");
  if (cityAt < 1) return labels;
  const cityEnd = runEnd(labels, cityAt);
  // The word before the city: the street's last, or the directional in question.
  const directional = cityAt - 1;
  const before = labels[directional];
  // The model's city starts with a directional right after the street …
  const cityFirst =
    (before === "streetSuffix" || before === "streetName") &&
    cityEnd - cityAt >= 2 &&
    isDirectional(tokens[cityAt]!) &&
    !labels.includes("postdirectional");
  // … or its postdirectional runs into the city with no comma between.
  const streetFirst =
    before === "postdirectional" &&
    labels[directional - 1] !== "postdirectional" &&
    !tokens[cityAt]!.boundaryBefore &&
    isDirectional(tokens[directional]!);
  if (!cityFirst && !streetFirst) return labels;
  if (labels.includes("intersection")) return labels;
  const texts = tokens.map((token) => token.text);
  const state = stateAt({ texts, labels }, cityEnd);
  if (state === undefined) return labels;
  const gazetteer = cityGazetteer();
  if (cityFirst && gazetteer.cityStart(texts, cityAt, cityEnd, state) === cityAt + 1) {
    return relabelled(labels, cityAt, "postdirectional");
  }
  if (streetFirst && gazetteer.cityStart(texts, directional, cityEnd, state) === directional) {
    return relabelled(labels, directional, "city");
  }
  return labels;
}

function isDirectional(token: Token): boolean {
  return standardDirectional(token.text) !== undefined;
}

function relabelled(labels: readonly Label[], at: number, label: Label): Label[] {
  const copy = labels.slice();
  copy[at] = label;
  return copy;
}

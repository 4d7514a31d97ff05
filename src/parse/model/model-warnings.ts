import { SPANISH_STREET_PREFIXES, standardDirectional, standardSuffix } from "../../usps/usps.js";
import { warningMessage } from "../assembly/warning-messages.js";
import { nationalGazetteer } from "../../places/gazetteer.js";
import type { Label } from "../labels.js";
import type { Warning, WarningCode } from "../parse-answer.js";
import { COMMON_SUFFIXES } from "../rules/rule-word-classes.js";
import type { Token } from "../token.js";

/**
 * The warning of a guessed street/city boundary for the model backend, raised where the rules
 * raise it (docs/parser.md "Confidence"), so both backends warn alike: the street runs straight
 * into the city with no comma between, and what ends the street is either a rare suffix word
 * (`103 MAPLE ARCADE ANYTOWN`) or no suffix at all (`123 BROADWAY NEW YORK`): the boundary is
 * then a guess whatever the labeller (`ambiguous_city_street`). A suffix that is no Publication
 * 28 word at all (`123 MAIN BLVRD ANYTOWN`) gives `ambiguous_type`, as SPEC words that case.
 * A grid name (`842 E 1700 S`), a highway number (`FM 1960`) or a leading type word (`AVENUE
 * B`, `CALLE A`) marks its own end and raises nothing; so does a city the gazetteer knows (`123
 * BROADWAY NEW YORK NY`), and an intersection (no street to end).
 */
export function streetCityGuess(tokens: readonly Token[], labels: readonly Label[]): Warning | undefined {
  if (labels.includes("intersection")) return undefined;
  for (let i = 1; i < tokens.length; i++) {
    if (labels[i] !== "city" || tokens[i]!.boundaryBefore) continue;
    if (isKnownCity(tokens, labels, i)) return undefined;
    const before = labels[i - 1];
    if (before === "streetSuffix") {
      const standard = standardSuffix(tokens[i - 1]!.text);
      if (standard === undefined) return spanning("ambiguous_type", tokens[i - 1]!, tokens[i - 1]!);
      return COMMON_SUFFIXES.has(standard)
        ? undefined
        : spanning("ambiguous_city_street", tokens[i - 1]!, tokens[i]!);
    }
    if (before !== "streetName") return undefined;
    let q = i - 1;
    while (q > 0 && labels[q - 1] === "streetName") q--;
    const first = tokens[q]!.text;
    // A name ending in a number (`I10`, `COUNTY ROAD 1185`, `KENTUCKY 440`) ends there.
    const numbered = /^\d/.test(tokens[i - 1]!.text);
    const selfEnding =
      numbered ||
      standardDirectional(first) === first ||
      SPANISH_STREET_PREFIXES.has(first) ||
      (standardSuffix(first) !== undefined && i - q > 1);
    return selfEnding
      ? undefined
      : spanning("ambiguous_city_street", tokens[q]!, tokens[Math.min(q + 1, tokens.length - 1)]!);
  }
  return undefined;
}

/** The city run starting at `from` is a known US city name: the boundary is no guess then. */
function isKnownCity(tokens: readonly Token[], labels: readonly Label[], from: number): boolean {
  let name = tokens[from]!.text;
  for (let k = from + 1; k < tokens.length && labels[k] === "city" && !tokens[k]!.boundaryBefore; k++) {
    name += ` ${tokens[k]!.text}`;
  }
  return nationalGazetteer().placeWords().isCityName(name);
}

/** A warning spanning the tokens from `first` to `last`, both included. */
function spanning(code: WarningCode, first: Token, last: Token): Warning {
  return { code, message: warningMessage(code), start: first.start, end: last.end };
}

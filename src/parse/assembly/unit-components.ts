import * as WORDS from "../vocabulary/generated-words.js";
import { wordSet } from "../vocabulary/words.js";
import { countyUnitDesignator, designatorNeedsNumber, standardUnitDesignator } from "../../usps/usps.js";
import { isFloorWord } from "../rules/street-words.js";
import type { SecondaryUnit } from "../parse-answer.js";
import type { Draft, Run } from "./draft.js";

export interface UnitRuns {
  type?: Run;
  id?: Run;
  /** The id comes before its designator (`SECOND FLOOR`). */
  idFirst?: boolean;
}

/**
 * Secondary units in input order (Pub 28 §213): each designator run starts a unit and takes the
 * number right after it. A number with no designator gets `#` (`unit_id_without_type`); a number
 * right before a designator that has none after it belongs to it (`SECOND FLOOR`).
 */
export function addUnitComponents(draft: Draft): void {
  const units = pairUnits(draft.runs);
  if (units.length === 0) return;
  const answer: SecondaryUnit[] = units.map((unit) => standardUnit(draft, unit));
  const last = answer[answer.length - 1]!;
  draft.components.occupancyType = last.type;
  if (last.id !== undefined) draft.components.occupancyId = last.id;
  if (answer.length > 1) draft.components.secondaryUnits = answer;
}

/** The units of a line's runs in input order: each designator with the number that goes with it. */
export function pairUnits(runs: readonly Run[]): UnitRuns[] {
  const units: UnitRuns[] = [];
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i]!;
    if (run.label === "occupancyType") {
      units.push({ type: run });
      continue;
    }
    if (run.label !== "occupancyId") continue;
    const last = units[units.length - 1];
    if (last?.type !== undefined && last.id === undefined && last.type.to === run.from) {
      last.id = run;
      continue;
    }
    const next = runs[i + 1];
    const afterNext = runs[i + 2];
    const nextTakesNoId = afterNext?.label !== "occupancyId" || afterNext.from !== next?.to;
    if (next?.label === "occupancyType" && next.from === run.to && nextTakesNoId) {
      units.push({ type: next, id: run, idFirst: true });
      i++;
      continue;
    }
    units.push({ id: run });
  }
  return units;
}

/**
 * `UNIT REAR`, `APT FRONT`, `# REAR` with no number: the unit is the lot designator, a C2
 * designator that takes no number (DECISIONS.md "Units"), and the designator before it only
 * says a unit follows, as `#` does in `APT #`. A floor word keeps its words (`FL UPPER` is
 * the upper floor, docs/parser.md). Undefined when the words are no such unit.
 */
function lotDesignator(words: readonly string[], id: string | undefined): string | undefined {
  if (id !== undefined || words.length < 2) return undefined;
  const last = words[words.length - 1]!;
  const lot = standardUnitDesignator(last) ?? countyUnitDesignator(last);
  if (lot === undefined || designatorNeedsNumber(lot)) return undefined;
  return words.slice(0, -1).every(opensUnit) ? lot : undefined;
}

/**
 * A designator that only says a unit follows: `#` or one that needs a number, but no floor word
 * (`FL UPPER` names the upper floor).
 */
export function opensUnit(word: string): boolean {
  const designator = standardUnitDesignator(word);
  return designator !== undefined && designatorNeedsNumber(designator) && !isFloorWord(word);
}

/** `UNIT A&B`: the `&` joining a unit's two halves is punctuation (DECISIONS.md "Values"). */
function unitId(words: readonly string[]): string {
  const kept = words.filter((word) => word !== "&");
  return (kept.length > 0 ? kept : words).join(" ");
}

function standardUnit(draft: Draft, unit: UnitRuns): SecondaryUnit {
  const idWords = unit.id ? draft.words(unit.id.from, unit.id.to) : [];
  // `# 2510`, `NO 2202`, `STE 5300` labelled all as the number (the hand-labelled corpus does
  // at times): the first word is the designator. After a designator, only a number sign is.
  const designator = idWords.length > 1 ? standardUnitDesignator(idWords[0]!) : undefined;
  const leading = unit.type === undefined ? designator !== undefined : designator === "#";
  const id = idWords.length === 0 ? undefined : unitId(leading ? idWords.slice(1) : idWords);
  if (unit.type === undefined) {
    // `500 ELM ST #` with the sign labelled as the number: a designator with no number.
    if (idWords.every((word) => word === "#")) {
      draft.warn("unit_without_id", unit.id!.from, unit.id!.to);
      return { type: "#" };
    }
    // `REAR`, `LOBBY`, `FRNT` labelled alone as the number: a designator that takes none.
    const alone = idWords.length === 1 ? standardUnitDesignator(idWords[0]!) : undefined;
    if (alone !== undefined && !designatorNeedsNumber(alone)) return { type: alone };
    if (designator === undefined) draft.warn("unit_id_without_type", unit.id!.from, unit.id!.to);
    return { type: designator ?? "#", id: id! };
  }
  const words = draft.words(unit.type.from, unit.type.to);
  // `APT #`, `APT NO`, `SUITE NUMBER` are written with a number sign; the designator is what counts.
  const named = words.filter((word, at) => word !== "#" && (at === 0 || !UNIT_NUMBER_SIGNS.has(word)));
  const typed = named.length > 0 ? named.join(" ") : "#";
  // RR stands for REAR only alone (`18 ELM ST RR`); `RR 2` is a route mislabelled, kept as typed.
  const county = id === undefined ? countyUnitDesignator(typed) : undefined;
  let type = standardUnitDesignator(typed) ?? county ?? lotDesignator(named, id);
  if (type === undefined) {
    // The span is the designator's words, not a number sign after them (`BIN # 150003`).
    let to = unit.type.to;
    while (draft.tokens[to - 1]!.text === "#") to--;
    draft.warn("unknown_unit_designator", unit.type.from, to);
    type = typed;
  }
  if (id === undefined) {
    if (designatorNeedsNumber(type) || !standardUnitDesignator(type)) {
      draft.warn("unit_without_id", unit.type.from, unit.type.to);
    }
    return { type };
  }
  return { type, id };
}

/** Words for "number" after a unit's designator (`APT NO 12`, `SUITE NUMBER 300`). */
const UNIT_NUMBER_SIGNS: ReadonlySet<string> = wordSet(WORDS.NUMBER_WORDS);

import * as WORDS from "../vocabulary/generated-words.js";
import { wordList } from "../vocabulary/words.js";
import { countyUnitDesignator, designatorNeedsNumber, standardUnitDesignator } from "../../usps/usps.js";
import type { Label } from "../labels.js";
import { isUnitId, startsWithDigit } from "../rules/rule-word-classes.js";
import type { Token } from "../token.js";
import { labelRuns, type Run } from "./draft.js";
import { opensUnit, pairUnits } from "./unit-components.js";
import { isLevelWord } from "../rules/street-words.js";

/**
 * A unit's designator labelled as part of its number, relabelled as the designator it is, as
 * addUnitComponents reads it (unit-components.ts `standardUnit`), so that the labels say which
 * component each token ends up in:
 * - the first word of a number with no designator, when it is one (`NO 2202`, `STE 5300`, `# A`
 *   labelled all as the number; the hand-labelled corpus does at times);
 * - a number sign right after a designator (`APT # 5` with `# 5` the number);
 * - a designator that takes no number labelled alone as the number (`REAR`, `LOBBY`, `FRNT`);
 * - a designator that needs a number labelled as another designator's number (`APT APT`): it
 *   numbers nothing, and joins the designator's words.
 * - `LOWER LEVEL` labelled as LOWER the designator and LEVEL its number: LEVEL is the designator
 *   and LOWER its number, in the order of `SECOND FLOOR`.
 * - a designator that takes no number labelled as the number of one that opens a unit (`APT
 *   REAR`, `# REAR` with the `#` labelled REAR's number): a lot designator, whose words are all
 *   the designator (unit-components.ts `lotDesignator` reads them as REAR).
 * A number before its designator (`SECOND FLOOR`), and a lone word right before another unit's
 * designator, are left as they are: there the words would join that unit's.
 * Returns `given` itself when nothing changes.
 */
export function unitLabels(tokens: readonly Token[], given: readonly Label[]): readonly Label[] {
  const numbered = numberAfterSign(tokens, given);
  if (!numbered.includes("occupancyId")) return numbered;
  const labels = floorsInOrder(tokens, numbered);
  let copy: Label[] | undefined;
  for (const unit of pairUnits(labelRuns(labels))) {
    const id = unit.id;
    if (id === undefined) continue;
    const first = tokens[id.from]!.text;
    const many = id.to - id.from > 1;
    if (unit.idFirst === true) {
      // `# REAR` with the number sign labelled REAR's number: it numbers nothing.
      if (first === "#" && !many && isLotWord(tokens[unit.type!.to - 1]!.text)) {
        copy ??= labels.slice();
        copy[id.from] = "occupancyType";
      }
      continue;
    }
    const designator = standardUnitDesignator(first) ?? (many ? undefined : countyUnitDesignator(first));
    if (designator === undefined) continue;
    const relabel =
      unit.type !== undefined
        ? many
          ? designator === "#"
          : designatorNeedsNumber(designator) || opensUnitOnly(tokens, unit.type)
        : many || (!designatorNeedsNumber(designator) && labels[id.to] !== "occupancyType");
    if (!relabel) continue;
    copy ??= labels.slice();
    copy[id.from] = "occupancyType";
    // `# REAR` labelled all as the number: the designator and a lot word, no number.
    const lot = unit.type === undefined && id.to - id.from === 2 && opensUnit(first);
    if (lot && isLotWord(tokens[id.from + 1]!.text)) copy[id.from + 1] = "occupancyType";
  }
  return copy ?? labels;
}

/**
 * `APT NO 12` with 12 labelled other: the number after a designator that ends in a number sign
 * (`#`, `NO`, `NUMBER`) is that unit's number. Returns `labels` itself when nothing changes.
 */
function numberAfterSign(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  let copy: Label[] | undefined;
  for (let t = 1; t < labels.length; t++) {
    if (labels[t] !== "other" || labels[t - 1] !== "occupancyType") continue;
    if (!NUMBER_SIGN_WORDS.has(tokens[t - 1]!.text) || !isUnitId(tokens[t]!.text)) continue;
    copy ??= labels.slice();
    copy[t] = "occupancyId";
  }
  return copy ?? labels;
}

const NUMBER_SIGN_WORDS: ReadonlySet<string> = new Set(["#", ...wordList(WORDS.NUMBER_WORDS)]);

/** A designator that takes no number (`REAR`, `FRNT`, the county's `RR`): a lot's unit. */
function isLotWord(word: string): boolean {
  const designator = standardUnitDesignator(word) ?? countyUnitDesignator(word);
  return designator !== undefined && !designatorNeedsNumber(designator);
}

/** Whether every word of `run` only says a unit follows (`APT`, `UNIT`, `#`; unit-components.ts). */
function opensUnitOnly(tokens: readonly Token[], run: Run): boolean {
  for (let t = run.from; t < run.to; t++) if (!opensUnit(tokens[t]!.text)) return false;
  return true;
}

/**
 * `LOWER LEVEL` labelled as the designator LOWR and its number: the floor word is the designator
 * and LOWER which floor, as the rules read it (`2ND FLOOR`).
 */
function floorsInOrder(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  let copy: Label[] | undefined;
  for (let t = 0; t + 1 < tokens.length; t++) {
    if (labels[t] !== "occupancyType" || labels[t + 1] !== "occupancyId") continue;
    if (!isLevelWord(tokens[t]!.text, tokens[t + 1]!.text)) continue;
    copy ??= labels.slice();
    copy[t] = "occupancyId";
    copy[t + 1] = "occupancyType";
  }
  return copy ?? labels;
}

/** Labels a street may end in, before a lot designator right after it. */
const STREET_END: ReadonlySet<Label | undefined> = new Set(["streetName", "streetSuffix", "postdirectional"]);
/** What may follow a lot designator: the last line, a recipient, leftovers, or nothing. */
const AFTER_LOT: ReadonlySet<Label | undefined> = new Set([
  undefined,
  "city",
  "state",
  "zip5",
  "firm",
  "other",
]);

/**
 * `18 ELM ST RR, OAKLAND` with RR labelled the city, a firm, a directional or a suffix: a
 * county's lot designator (data/usps/c2-county-designators.tsv) right after a numbered street,
 * with the last line, a recipient or nothing after it, is the street's unit, as the rules read
 * it (rules/unit-rules.ts). Before the street readings, so that a suffix it was labelled as does
 * not count. `RR 2 BOX 5` keeps its route: a number follows. Returns `labels` itself when
 * nothing changes.
 */
export function lotAfterStreet(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  let copy: Label[] | undefined;
  let numbered = false;
  for (let t = 1; t < tokens.length; t++) {
    if (labels[t - 1] === "addressNumber") numbered = true;
    if (!numbered || labels[t] === "occupancyType" || !STREET_END.has(labels[t - 1])) continue;
    if (countyUnitDesignator(tokens[t]!.text) === undefined || !AFTER_LOT.has(labels[t + 1])) continue;
    const next = tokens[t + 1];
    if (next !== undefined && labels[t + 1] !== "zip5" && startsWithDigit(next.text)) continue;
    copy ??= labels.slice();
    copy[t] = "occupancyType";
  }
  return copy ?? labels;
}

/**
 * A number sign and one word labelled as the end of the street name (`HIGHWAY 70 # Q` from
 * `1234 HIGHWAY 70 #Q`): the unit they are (`#` and `Q`), never street words, since DECISIONS.md
 * keeps `#` only as a designator. Returns `labels` itself when nothing changes.
 */
export function unitSignInStreet(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  let copy: Label[] | undefined;
  for (let t = 1; t + 1 < tokens.length; t++) {
    if (tokens[t]!.text !== "#" || labels[t] !== "streetName" || labels[t - 1] !== "streetName") continue;
    if (labels[t + 1] !== "streetName" || labels[t + 2] === "streetName") continue;
    copy ??= labels.slice();
    copy[t] = "occupancyType";
    copy[t + 1] = "occupancyId";
  }
  return copy ?? labels;
}

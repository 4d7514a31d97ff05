import { designatorNeedsNumber, standardUnitDesignator } from "../../usps/usps.js";
import type { Label } from "../labels.js";
import type { Token } from "../token.js";
import { labelRuns } from "./draft.js";
import { pairUnits } from "./unit-components.js";
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
 * A number before its designator (`SECOND FLOOR`), and a lone word right before another unit's
 * designator, are left as they are: there the words would join that unit's.
 * Returns `given` itself when nothing changes.
 */
export function unitLabels(tokens: readonly Token[], given: readonly Label[]): readonly Label[] {
  if (!given.includes("occupancyId")) return given;
  const labels = floorsInOrder(tokens, given);
  let copy: Label[] | undefined;
  for (const unit of pairUnits(labelRuns(labels))) {
    const id = unit.id;
    if (id === undefined || unit.idFirst === true) continue;
    const first = tokens[id.from]!.text;
    const designator = standardUnitDesignator(first);
    if (designator === undefined) continue;
    const many = id.to - id.from > 1;
    const relabel =
      unit.type !== undefined
        ? many
          ? designator === "#"
          : designatorNeedsNumber(designator)
        : many || (!designatorNeedsNumber(designator) && labels[id.to] !== "occupancyType");
    if (!relabel) continue;
    copy ??= labels.slice();
    copy[id.from] = "occupancyType";
  }
  return copy ?? labels;
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

import type { Label } from "../labels.js";
import type { Token } from "../token.js";
import { ROUTE_TYPES } from "./box-components.js";
import { runEnd } from "./draft.js";

/**
 * DECISIONS.md's reading of a box group, applied to any labelling before assembly (as
 * `streetLabels` is to streets). The hand-labelled corpus labels a rural route's or a military
 * box group's designator as a PO box type (`RR 422 BOX`, `CMR 411 BOX 3568`: usaddress's
 * `USPSBoxType`), and a labeller that learned from it does too; DECISIONS.md makes them
 * ruralRouteType and ruralRouteId. So on a line with no route labelled:
 * - a box-type run that is a route or military designator becomes the route's type, and the
 *   box number right after it the route's number (a later `BOX 3568` is then the route's box);
 * - a route number run that starts with the designator (`RR2` split as `RR 2`) gives it up as
 *   the route's type.
 * Returns `labels` itself when nothing changes.
 */
export function boxLabels(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  if (labels.includes("ruralRouteType")) return labels;
  const box = labels.indexOf("poBoxType");
  const boxEnd = box < 0 ? box : runEnd(labels, box);
  if (box >= 0 && isRouteDesignator(tokens, box, boxEnd)) {
    const copy = labels.slice();
    copy.fill("ruralRouteType", box, boxEnd);
    if (labels[boxEnd] === "poBoxId") copy.fill("ruralRouteId", boxEnd, runEnd(labels, boxEnd));
    return copy;
  }
  const id = labels.indexOf("ruralRouteId");
  if (id >= 0 && isRouteDesignator(tokens, id, id + 1) && labels[id + 1] === "ruralRouteId") {
    const copy = labels.slice();
    copy[id] = "ruralRouteType";
    return copy;
  }
  return labels;
}

function isRouteDesignator(tokens: readonly Token[], from: number, to: number): boolean {
  let text = tokens[from]!.text;
  for (let i = from + 1; i < to; i++) text += ` ${tokens[i]!.text}`;
  return ROUTE_TYPES.has(text);
}

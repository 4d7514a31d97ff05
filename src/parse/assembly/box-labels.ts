import * as WORDS from "../vocabulary/generated-words.js";
import { wordSet } from "../vocabulary/words.js";
import { coversExactly } from "../vocabulary/highway.js";
import type { Label } from "../labels.js";
import type { Token } from "../token.js";
import { NUMBER_SIGNS, ROUTE_TYPES } from "./box-components.js";
import { runEnd } from "./draft.js";

/**
 * DECISIONS.md's reading of a box group, applied to any labelling before assembly (as
 * `streetLabels` is to streets). The hand-labelled corpus labels a rural route's or a military
 * box group's designator as a PO box type (`RR 422 BOX`, `CMR 411 BOX 3568`: usaddress's
 * `USPSBoxType`), and a labeller that learned from it does too; DECISIONS.md makes them
 * ruralRouteType and ruralRouteId. A box designator with no number of its own is numbered by a
 * unit number labelled right after it (`P O BOX 88`), and a highway labelled as a route whose
 * designator is no route's is the street (`FM 170 BOX 77`). Then, on a line with no route
 * labelled:
 * - a box-type run that is a route or military designator becomes the route's type, and the
 *   box number right after it the route's number (a later `BOX 3568` is then the route's box);
 * - a route number run that starts with the designator (`RR2` split as `RR 2`) gives it up as
 *   the route's type;
 * and on a line with no route:
 * - a box with no number labelled, followed at once by a ZIP, is numbered by it (`POB 19060`:
 *   a box type needs its number, and a ZIP right after the designator, before any city, is it);
 * - of two box groups one is kept as the box (keepOneBoxGroup).
 * Returns `labels` itself when nothing changes.
 */
export function boxLabels(tokens: readonly Token[], given: readonly Label[]): readonly Label[] {
  // Most lines have no box or route: they are left alone after one look (assembly runs on
  // every parse).
  if (!given.some(isBoxOrRoute)) return given;
  const labels = unitNumberAfterBox(highwayNotRoute(tokens, given));
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
  if (box >= 0 && labels[boxEnd] === "zip5" && !labels.includes("poBoxId")) {
    const copy = labels.slice();
    copy.fill("poBoxId", boxEnd, runEnd(labels, boxEnd));
    return copy;
  }
  // Most lines have no second box group: they are left alone without a copy (assembly runs on
  // every parse).
  if (box < 0 || boxGroupCount(labels) < 2) return labels;
  const copy = labels.slice();
  keepOneBoxGroup(
    tokens.map((token) => token.text),
    copy,
  );
  return copy;
}

function isBoxOrRoute(label: Label): boolean {
  return label === "poBoxType" || label === "ruralRouteType" || label === "ruralRouteId";
}

/**
 * `FM 170 BOX 77` with FM 170 labelled a route: a designator that is no route's (ROUTE_TYPES)
 * and makes a highway with its number (Appendix F: FARM TO MARKET 170) is the street. So is a
 * route with no box that meets another road (`ROUTE 30 & ROUTE 45`): a rural route is no road.
 */
function highwayNotRoute(tokens: readonly Token[], labels: readonly Label[]): readonly Label[] {
  const type = labels.indexOf("ruralRouteType");
  if (type < 0) return labels;
  const typeEnd = runEnd(labels, type);
  if (labels[typeEnd] !== "ruralRouteId") return labels;
  const end = runEnd(labels, typeEnd);
  const meetsRoad =
    (labels[end] === "intersection" || labels[type - 1] === "intersection") &&
    !labels.includes("poBoxType") &&
    !labels.includes("poBoxId");
  if (isRouteDesignator(tokens, type, typeEnd) && !meetsRoad) return labels;
  const words = tokens.slice(type, end).map((token) => token.text);
  if (!coversExactly(words, 0, words.length)) return labels;
  const copy = labels.slice();
  copy.fill("streetName", type, end);
  return copy;
}

/**
 * `P O BOX 88` with 88 labelled a unit number: a box designator with no number of its own is
 * numbered by the unit number right after it (a unit number follows its own designator).
 */
function unitNumberAfterBox(labels: readonly Label[]): readonly Label[] {
  const box = labels.indexOf("poBoxType");
  if (box < 0 || labels.includes("poBoxId")) return labels;
  const boxEnd = runEnd(labels, box);
  if (labels[boxEnd] !== "occupancyId") return labels;
  const copy = labels.slice();
  copy.fill("poBoxId", boxEnd, runEnd(labels, boxEnd));
  return copy;
}

/**
 * With two box groups on a line (`BIN 141987 PO BOX 1627`, `PO BOX 790322 BIN 150003`,
 * `LOCKBOX 9351 PO BOX 8500`), one is the box and the others are sorting codes, kept as units
 * with their designators as typed; their numbers are never run together into one box number.
 * The box is the last group whose designator names a post office box (PO BOX, POB, …), or
 * the last group when none does. A group is a poBoxType run and the poBoxId run right after
 * it. Relabels `labels` in place (the rules' labeller and assembly share this).
 */
export function keepOneBoxGroup(texts: readonly string[], labels: Array<Label | undefined>): void {
  // Most labellings have no second group: nothing to list (the rules label every line).
  if (boxGroupCount(labels) < 2) return;
  const groups: Array<{ from: number; to: number; postOffice: boolean }> = [];
  for (let i = 0; i < labels.length; i++) {
    if (!startsBoxGroup(labels, i)) continue;
    const typeEnd = runEnd(labels, i);
    const to = labels[typeEnd] === "poBoxId" ? runEnd(labels, typeEnd) : typeEnd;
    groups.push({ from: i, to, postOffice: POST_OFFICE_BOXES.has(designator(texts, i, typeEnd)) });
  }
  const kept = groups.findLast((group) => group.postOffice) ?? groups[groups.length - 1]!;
  for (const group of groups) {
    if (group === kept) continue;
    for (let i = group.from; i < group.to; i++)
      labels[i] = labels[i] === "poBoxType" ? "occupancyType" : "occupancyId";
  }
}

/** How many box groups (poBoxType runs) a labelling has. */
function boxGroupCount(labels: readonly (Label | undefined)[]): number {
  let count = 0;
  for (let i = 0; i < labels.length; i++) if (startsBoxGroup(labels, i)) count++;
  return count;
}

function startsBoxGroup(labels: readonly (Label | undefined)[], i: number): boolean {
  return labels[i] === "poBoxType" && labels[i - 1] !== "poBoxType";
}

/** Designators that name a post office box (DECISIONS.md "PO box"; a number sign after them aside). */
const POST_OFFICE_BOXES: ReadonlySet<string> = wordSet(WORDS.PO_BOX_FORMS);

function designator(texts: readonly string[], from: number, to: number): string {
  let end = to;
  while (end > from + 1 && NUMBER_SIGNS.has(texts[end - 1]!)) end--;
  return texts.slice(from, end).join(" ");
}

function isRouteDesignator(tokens: readonly Token[], from: number, to: number): boolean {
  let text = tokens[from]!.text;
  for (let i = from + 1; i < to; i++) text += ` ${tokens[i]!.text}`;
  return ROUTE_TYPES.has(text);
}

import * as WORDS from "../vocabulary/generated-words.js";
import { wordList, wordSet } from "../vocabulary/words.js";
import type { Draft } from "./draft.js";

/**
 * Rural route, highway contract and military box designators (Pub 28 §24x, §25x, §225) to their
 * standard forms (DECISIONS.md "Rural route / highway contract", "Military").
 */
export const ROUTE_TYPES: ReadonlyMap<string, string> = new Map([
  ["RR", "RR"],
  ["R R", "RR"],
  ["RFD", "RR"],
  ["R F D", "RR"],
  ["RD", "RR"],
  ["RURAL ROUTE", "RR"],
  ["RURAL RT", "RR"],
  ["RURAL RTE", "RR"],
  ["RURAL", "RR"],
  ["RUTA RURAL", "RR"],
  ["ROUTE", "RR"],
  ["RT", "RR"],
  ["RTE", "RR"],
  ["HC", "HC"],
  ["HC ROUTE", "HC"],
  ["HC RTE", "HC"],
  ["HC RT", "HC"],
  ["STAR RTE", "HC"],
  ["HCR", "HC"],
  ["STAR ROUTE", "HC"],
  ["STAR RT", "HC"],
  ["HIGHWAY CONTRACT", "HC"],
  ["HIGHWAY CONTRACT ROUTE", "HC"],
  ["HIGHWAY CONTRACT RTE", "HC"],
  ["HWY CONTRACT ROUTE", "HC"],
  ["HWY CONTRACT RTE", "HC"],
  ["HWY CONTRACT", "HC"],
  ["PSC", "PSC"],
  ["CMR", "CMR"],
  ["UNIT", "UNIT"],
  ["OPC", "OPC"],
  ["CPR", "CPR"],
  ["UPR", "UPR"],
]);

/** Military box designators (Pub 28 §225; CMR is pre-2023 but still in real mail, data/README). */
export const MILITARY_BOX_TYPES: ReadonlySet<string> = wordSet(WORDS.MILITARY_BOX_TYPES);

const BOX_WORDS: ReadonlySet<string> = wordSet(WORDS.BOX_WORDS);

/** PO box (poBoxType is always `PO BOX`, Pub 28 §281) and rural route / military box groups. */
export function addBoxComponents(draft: Draft): void {
  const c = draft.components;
  const boxType = draft.joined("poBoxType");
  const boxId = draft.joined("poBoxId");
  const route = draft.joined("ruralRouteType");
  // `RR 2 BOX 152` labelled with a bare BOX as a PO box (usaddress does): the box of the route.
  const boxOfRoute =
    route !== undefined && (boxType === undefined || boxType.text.split(" ").every((w) => BOX_WORDS.has(w)));
  if (route) {
    const typed = route.text.replace(/ (#|NO)$/, "");
    c.ruralRouteType = ROUTE_TYPES.get(typed) ?? typed;
    const idWords = draft.joined("ruralRouteId")?.text.split(" ") ?? [];
    if (boxOfRoute && boxId) idWords.push("BOX", ...boxId.text.split(" "));
    const id = standardRouteId(idWords);
    if (id !== "") c.ruralRouteId = id;
  }
  if ((boxType || boxId) && !(boxOfRoute && route)) {
    c.poBoxType = "PO BOX";
    if (boxId) c.poBoxId = poBoxNumber(draft, boxId);
  }
}

/** Words that only say "number" before a box's number (`PO BOX # 123`, `BOX NO 5`). */
export const NUMBER_SIGNS: ReadonlySet<string> = new Set(["#", ...wordList(WORDS.NUMBER_WORDS)]);

function poBoxNumber(draft: Draft, id: { text: string; from: number; to: number }): string {
  const words = id.text.split(" ");
  // The number sign is no part of the box's number (DECISIONS.md: the line is `PO BOX 123`),
  // nor of the span a warning about the number points at. Each word is one token.
  const signed = words.length > 1 && NUMBER_SIGNS.has(words[0]!);
  if (signed) words.shift();
  const text = words.join("");
  const stripped = stripZeros(text);
  if (stripped !== text) draft.warn("leading_zero_removed", signed ? id.from + 1 : id.from, id.to);
  return stripped;
}

/** `02 BX 0152` → `2 BOX 152`: box word standardized, leading zeros of the numbers dropped. */
function standardRouteId(words: string[]): string {
  const out: string[] = [];
  for (const word of words) {
    if (BOX_WORDS.has(word)) {
      // RR # 2: a number sign before the route number is no box.
      if (out.length > 0 && out[out.length - 1] !== "BOX") out.push("BOX");
    } else {
      out.push(stripZeros(word));
    }
  }
  return out.join(" ");
}

function stripZeros(text: string): string {
  let i = 0;
  while (i < text.length - 1 && text.charCodeAt(i) === 48) i++;
  return i === 0 ? text : text.slice(i);
}

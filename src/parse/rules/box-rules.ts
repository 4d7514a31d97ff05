import * as WORDS from "../vocabulary/generated-words.js";
import { wordSet } from "../vocabulary/words.js";
import { keepOneBoxGroup } from "../assembly/box-labels.js";
import { isUnitId, startsWithDigit } from "./rule-word-classes.js";
import type { Labelling } from "./labelling.js";

/**
 * Delivery groups that are not streets, found anywhere in the line: general delivery (Pub 28
 * §26x), rural routes and highway contracts (§24x, §25x), military boxes (§225) and PO boxes
 * (§28x). Each rule labels the words it recognizes and leaves the rest.
 */
export function labelBoxes(l: Labelling): void {
  for (let i = 0; i < l.length; i++) {
    if (!FIRST_WORDS.has(l.texts[i]!) || !l.free(i)) continue;
    const taken = generalDelivery(l, i) || route(l, i) || military(l, i) || poBox(l, i);
    if (taken > 0) i += taken - 1;
  }
  // Two box groups: one is the box, the others units (assembly reads any labelling so too).
  keepOneBoxGroup(l.texts, l.labels);
}

type Phrase = readonly string[];

function phraseAt(l: Labelling, at: number, phrases: readonly Phrase[]): number {
  for (const phrase of phrases) {
    let k = 0;
    while (k < phrase.length && l.free(at + k) && l.text(at + k) === phrase[k]) k++;
    if (k === phrase.length) return k;
  }
  return 0;
}

const GENERAL_DELIVERY: readonly Phrase[] = [
  ["GENERAL", "DELIVERY"],
  ["GEN", "DEL"],
  ["ENTREGA", "GENERAL"],
];

function generalDelivery(l: Labelling, at: number): number {
  const n = phraseAt(l, at, GENERAL_DELIVERY);
  if (n > 0) l.set(at, at + n, "generalDelivery");
  return n;
}

/** Longest first. ROUTE/RT/RD alone are also highway and street words: they need a BOX after. */
const ROUTE_WORDS: readonly Phrase[] = [
  ["HIGHWAY", "CONTRACT", "ROUTE"],
  ["HIGHWAY", "CONTRACT", "RTE"],
  ["HWY", "CONTRACT", "ROUTE"],
  ["HWY", "CONTRACT", "RTE"],
  ["HIGHWAY", "CONTRACT"],
  ["HWY", "CONTRACT"],
  ["STAR", "ROUTE"],
  ["STAR", "RT"],
  ["STAR", "RTE"],
  ["HC", "ROUTE"],
  ["HC", "RTE"],
  ["HC", "RT"],
  ["RURAL", "ROUTE"],
  ["RURAL", "RT"],
  ["RURAL", "RTE"],
  ["RUTA", "RURAL"],
  ["R", "F", "D"],
  ["R", "R"],
  ["RR"],
  ["RFD"],
  ["HC"],
  ["HCR"],
];
const WEAK_ROUTE_WORDS: readonly Phrase[] = [["ROUTE"], ["RTE"], ["RT"], ["RD"]];
const BOX_WORDS: ReadonlySet<string> = wordSet(WORDS.BOX_WORDS);

function route(l: Labelling, at: number): number {
  let n = phraseAt(l, at, ROUTE_WORDS);
  const weak = n === 0;
  if (weak) n = phraseAt(l, at, WEAK_ROUTE_WORDS);
  if (n === 0) return 0;
  // RR # 2, RT # 1 BOX 254: the number sign is written but is no part of the route number.
  if ((l.text(at + n) === "#" || l.text(at + n) === "NO") && startsWithDigit(l.text(at + n + 1))) n++;
  if (!startsWithDigit(l.text(at + n)) || !l.free(at + n)) return 0;
  const box = boxAfter(l, at + n + 1);
  if (weak && box === 0) return 0;
  l.set(at, at + n, "ruralRouteType");
  l.set(at + n, at + n + 1 + box, "ruralRouteId");
  return n + 1 + box;
}

/** `BOX 152`, `BX 15`, `# 15` after a route number: part of the route's id (DECISIONS.md). */
function boxAfter(l: Labelling, at: number): number {
  let k = at;
  if (!BOX_WORDS.has(l.text(k) ?? "") || !l.free(k)) return 0;
  k++;
  if (l.text(k) === "#" || l.text(k) === "NO") k++;
  if (!isUnitId(l.text(k)) || !l.free(k)) return 0;
  // RR 4 BOX 164 A: a letter after the box number is part of it.
  const letter = l.text(k + 1);
  const more =
    letter !== undefined && letter.length === 1 && !startsWithDigit(letter) && !l.boundary(k + 1) ? 1 : 0;
  return k + 1 + more - at;
}

const MILITARY_WORDS: ReadonlySet<string> = wordSet(WORDS.MILITARY_BOX_WORDS);
const MILITARY_CITIES: ReadonlySet<string> = wordSet(WORDS.MILITARY_POST_OFFICES);

/** `PSC 1234 BOX 5678`, `UNIT 2050 BOX 4190`, `CMR 450 BOX 1` (Pub 28 §225). */
function military(l: Labelling, at: number): number {
  const word = l.text(at)!;
  if (!MILITARY_WORDS.has(word) && word !== "UNIT") return 0;
  if (!startsWithDigit(l.text(at + 1)) || !l.free(at + 1)) return 0;
  const box = boxAfter(l, at + 2);
  // UNIT is also a unit designator (UNIT 5): military only with a box or an APO/FPO/DPO after.
  if (word === "UNIT" && box === 0 && !MILITARY_CITIES.has(l.text(at + 2) ?? "")) return 0;
  l.set(at, at + 1, "ruralRouteType");
  l.set(at + 1, at + 2 + box, "ruralRouteId");
  return 2 + box;
}

/** PO box designators (DECISIONS.md "PO box"), longest first. */
const PO_BOX_WORDS: readonly Phrase[] = [
  ["POST", "OFFICE", "BOX"],
  ["P", "O", "BOX"],
  ["PO", "BOX"],
  ["P", "O", "BX"],
  ["PO", "BX"],
  ["FIRM", "CALLER"],
  ["GPO", "BOX"],
  ["POST", "BOX"],
  ["P", "O", "B"],
  ["POB"],
  ["BOX"],
  ["BX"],
  ["CALLER"],
  ["BIN"],
  ["LOCKBOX"],
  ["LOCK", "BOX"],
  ["LBX"],
  ["POST", "OFFICE"],
  ["DRAWER"],
  ["APARTADO"],
  ["PO"],
];

function poBox(l: Labelling, at: number): number {
  const n = phraseAt(l, at, PO_BOX_WORDS);
  if (n === 0) return 0;
  let k = at + n;
  if ((l.text(k) === "#" || l.text(k) === "NO" || l.text(k) === "NUMBER") && isUnitId(l.text(k + 1))) k++;
  const id = l.text(k);
  const hasId =
    l.free(k) && id !== undefined && (startsWithDigit(id) || (id.length <= 2 && isUnitId(id) && n > 1));
  // A bare BOX/BIN/PO needs its number; PO BOX alone is still a (numberless) box.
  if (!hasId && (n === 1 || l.text(at) === "P")) return 0;
  l.set(at, k, "poBoxType");
  if (!hasId) return k - at;
  l.set(k, k + 1, "poBoxId");
  return k + 1 - at;
}

/** Words that can start a box group: only tokens among them are tried (speed). */
const FIRST_WORDS: ReadonlySet<string> = new Set([
  ...[GENERAL_DELIVERY, ROUTE_WORDS, WEAK_ROUTE_WORDS, PO_BOX_WORDS].flatMap((phrases) =>
    phrases.map((p) => p[0]!),
  ),
  ...MILITARY_WORDS,
  "UNIT",
]);

/** Military last line: APO/FPO/DPO is the city (Pub 28 §225). */
export function isMilitaryCity(text: string | undefined): boolean {
  return text !== undefined && MILITARY_CITIES.has(text);
}

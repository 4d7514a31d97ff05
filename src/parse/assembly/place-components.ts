import { puertoRicoAbbreviation, standardState } from "../../usps/usps.js";
import { COUNTRY_NAMES } from "../vocabulary/country-names.js";
import type { Draft } from "./draft.js";

/**
 * The country written after a US address: no part of it (Pub 28 lines carry no country) and no
 * error. Closing the line it is dropped; elsewhere it stays in `other`, without a warning.
 */
const US_NAMES: ReadonlySet<string> = new Set(COUNTRY_NAMES.map((words) => words.join(" ")));

/** Firm, urbanization, city, state, ZIP and `other` (DECISIONS.md "States", "Last line"). */
export function addPlaceComponents(draft: Draft, quietOther: boolean): void {
  const c = draft.components;
  const firm = draft.joined("firm");
  if (firm) c.firm = firm.text;
  const urbanization = draft.joined("urbanization");
  if (urbanization) c.urbanization = urbanizationName(urbanization.text);
  const city = draft.joined("city");
  if (city) c.city = city.text;
  addState(draft);
  addZip(draft);
  for (const run of draft.runsOf("other")) {
    if (run.to === draft.tokens.length && US_NAMES.has(draft.text(run))) continue;
    draft.addOther(run.from, draft.text(run));
    if (!quietOther && !US_NAMES.has(draft.text(run))) draft.warn("unknown_tokens", run.from, run.to);
  }
  draft.finishOther();
}

/** `URB LAS GLADIOLAS` → `LAS GLADIOLAS`: the descriptive word is the line's, not the name's (§292). */
function urbanizationName(text: string): string {
  const space = text.indexOf(" ");
  if (space < 0) return text;
  return puertoRicoAbbreviation(text.slice(0, space)) === "URB" || text.startsWith("URB ")
    ? text.slice(space + 1)
    : text;
}

function addState(draft: Draft): void {
  const state = draft.joined("state");
  if (!state) return;
  const code =
    standardState(state.text) ?? standardState(state.text.replace(/ /g, "")) ?? repeatedState(state.text);
  if (code !== undefined) {
    draft.components.state = code;
    return;
  }
  draft.addOther(state.from, state.text);
  draft.warn("invalid_state", state.from, state.to);
}

/**
 * A state code written twice (`SPRINGFIELD IL IL 62701`) is that state: the repetition says
 * nothing more. Only codes: `NEW YORK NEW YORK` is a city and its state.
 */
function repeatedState(text: string): string | undefined {
  return text.length === 5 && text[2] === " " && text.slice(0, 2) === text.slice(3)
    ? standardState(text.slice(0, 2))
    : undefined;
}

/** A ZIP is 5 digits and its add-on 4 (Pub 28 §235); anything else goes to `other`. */
function addZip(draft: Draft): void {
  const zip = draft.joined("zip5");
  const plus4 = draft.joined("zip4");
  if (zip) {
    const words = zip.text.split(" ");
    const [five, four] = words;
    if (words.length <= 2 && isDigits(five!, 5) && (four === undefined || isDigits(four, 4))) {
      draft.components.zip5 = five!;
      if (four !== undefined) draft.components.zip4 = four;
    } else if (words.length === 2 && isDigits(five!, 5) && isDigits(four!, 5) && zip.to - zip.from === 2) {
      // Two ZIPs in a row (`IL 62701 62702`): the first, after the state, is the ZIP; the other
      // fits nothing, as the rules read it.
      const [first, second] = words as [string, string];
      const secondAt = zip.to - 1;
      draft.components.zip5 = first;
      draft.addOther(secondAt, second);
      draft.warn("unknown_tokens", secondAt, zip.to);
    } else {
      draft.addOther(zip.from, zip.text);
      draft.warn("invalid_zip", zip.from, zip.to);
    }
  }
  if (plus4) {
    if (
      isDigits(plus4.text, 4) &&
      draft.components.zip5 !== undefined &&
      draft.components.zip4 === undefined
    ) {
      draft.components.zip4 = plus4.text;
    } else {
      draft.addOther(plus4.from, plus4.text);
      draft.warn("invalid_zip", plus4.from, plus4.to);
    }
  }
}

function isDigits(text: string, length: number): boolean {
  if (text.length !== length) return false;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

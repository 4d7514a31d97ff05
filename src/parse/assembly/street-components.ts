import { standardDirectional, standardSuffix } from "../../usps/usps.js";
import { matchHighway } from "../vocabulary/highway.js";
import type { Draft } from "./draft.js";

/**
 * House number, directionals, street name and suffix, standardized per DECISIONS.md: only the
 * suffix (Appendix C1), directionals (Appendix B) and highway words (Appendix F) change; name
 * words stay as typed.
 */
export function addStreetComponents(draft: Draft): void {
  const c = draft.components;
  const number = draft.joined("addressNumber");
  if (number) c.addressNumber = number.text;
  const numberSuffix = draft.joined("addressNumberSuffix");
  if (numberSuffix) c.addressNumberSuffix = numberSuffix.text;
  const pre = draft.joined("predirectional");
  if (pre) c.predirectional = directional(pre.text);
  const name = draft.joined("streetName");
  if (name) c.streetName = standardStreetName(name.text.split(" "));
  const suffix = draft.joined("streetSuffix");
  if (suffix) {
    const standard = standardSuffix(suffix.text) ?? standardSuffix(suffix.text.replace(/ /g, ""));
    if (standard === undefined) draft.warn("unknown_suffix", suffix.from, suffix.to);
    c.streetSuffix = standard ?? suffix.text;
  }
  const post = draft.joined("postdirectional");
  if (post) c.postdirectional = directional(post.text);
  // `209 E, Wheatland`: a directional that is the whole street is its name, as typed
  // (DECISIONS.md "Directionals"); Wheatland and Marysville name streets so.
  if (
    c.streetName === undefined &&
    c.addressNumber !== undefined &&
    (pre === undefined) !== (post === undefined)
  ) {
    c.streetName = (pre ?? post)!.text;
    delete c.predirectional;
    delete c.postdirectional;
  }
}

/** `NORTH` → `N`; `N E` or `NORTH EAST` (two tokens) → `NE`; anything else as typed. */
function directional(text: string): string {
  return standardDirectional(text) ?? standardDirectional(text.replace(/ /g, "")) ?? text;
}

/** Appendix F highway forms are rewritten (`HWY 6` → `HIGHWAY 6`); other names stay as typed. */
export function standardStreetName(words: string[]): string {
  const highway = matchHighway(words, 0);
  if (highway === null) return words.join(" ");
  return [...highway.standard, ...words.slice(highway.length)].join(" ");
}

import { STRING_COMPONENTS, type StringComponent } from "./parse-answer.js";

/**
 * The labels a parse backend assigns to tokens: one per component of SPEC.md (derived from
 * STRING_COMPONENTS, in its order: the model file stores labels by index), plus
 * `generalDelivery` (the words GENERAL DELIVERY), `intersection` (AND, &, AT, CORNER OF ...
 * joining two streets) and `other` (fits nowhere). Both backends label tokens with these and
 * hand them to the one assembly path (src/parse/assemble.ts).
 */
export const LABELS = [
  ...(STRING_COMPONENTS.filter((name) => name !== "other") as Exclude<StringComponent, "other">[]),
  "generalDelivery",
  "intersection",
  "other",
] as const;

export type Label = (typeof LABELS)[number];

export const LABEL_INDEX: ReadonlyMap<Label, number> = new Map(LABELS.map((label, index) => [label, index]));

/**
 * The labels a parse backend assigns to tokens: one per component of SPEC.md, plus
 * `generalDelivery` (the words GENERAL DELIVERY), `intersection` (AND, &, AT, CORNER OF ...
 * joining two streets) and `other` (fits nowhere). Both backends label tokens with these and
 * hand them to the one assembly path (src/parse/assemble.ts).
 */
export const LABELS = [
  "addressNumber",
  "addressNumberSuffix",
  "predirectional",
  "streetName",
  "streetSuffix",
  "postdirectional",
  "occupancyType",
  "occupancyId",
  "poBoxType",
  "poBoxId",
  "ruralRouteType",
  "ruralRouteId",
  "firm",
  "urbanization",
  "city",
  "state",
  "zip5",
  "zip4",
  "generalDelivery",
  "intersection",
  "other",
] as const;

export type Label = (typeof LABELS)[number];

export const LABEL_INDEX: ReadonlyMap<Label, number> = new Map(LABELS.map((label, index) => [label, index]));

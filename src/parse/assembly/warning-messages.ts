import type { WarningCode } from "../parse-answer.js";

/** People-facing wording of each warning (SPEC: wording may change; clients branch on `code`). */
const MESSAGES: Record<WarningCode, string> = {
  missing_address_number: "A street name was found without a house number.",
  missing_street_name: "No street name was found.",
  missing_city: "No city was found.",
  missing_state: "No state was found.",
  missing_zip: "No ZIP Code was found.",
  invalid_zip: "The ZIP Code is not 5 digits, or the ZIP+4 add-on is not 4 digits; it was put in other.",
  invalid_state: "This is not a Publication 28 state or possession abbreviation; it was put in other.",
  unit_without_id: "A unit designator has no unit number.",
  unit_id_without_type: "A unit number has no designator; # was used.",
  unknown_suffix: "The street suffix is not a Publication 28 suffix; it was kept as typed.",
  unknown_unit_designator: "The unit designator is not a Publication 28 one; it was kept as typed.",
  unknown_tokens: "Some words fit no component; they are listed in components.other.",
  discontiguous_component: "A component appeared in separate parts of the line; the parts were joined.",
  leading_zero_removed: "Leading zeros were removed from the PO box number.",
  line_overflow: "A standardized line is longer than 40 characters.",
  dual_address: "The line holds both a street address and a PO box or rural route.",
  ambiguous_type: "The address type could not be determined with certainty.",
  ambiguous_city_street: "A word could belong to the street name or the city; the boundary is a guess.",
  unsupported_intersection: "The line looks like a street intersection, not a delivery address.",
  possibly_foreign: "The line looks like a non-US address.",
  low_confidence: "The confidence of this parse is below 0.6.",
  empty_input: "The line is empty.",
  model_unavailable: "The model could not run; the rule-based parser answered.",
  model_output_invalid: "The model's labels were inconsistent; the rule-based parse was used.",
};

export function warningMessage(code: WarningCode): string {
  return MESSAGES[code];
}

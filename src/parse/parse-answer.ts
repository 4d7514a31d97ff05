/** The parse answer of SPEC.md ("Parse answer", "Components", "Warning object"). */

export const ADDRESS_TYPES = [
  "street",
  "po_box",
  "rural_route",
  "military",
  "general_delivery",
  "dual",
  "ambiguous",
] as const;
export type AddressType = (typeof ADDRESS_TYPES)[number];

export const WARNING_CODES = [
  "missing_address_number",
  "missing_street_name",
  "missing_city",
  "missing_state",
  "missing_zip",
  "invalid_zip",
  "invalid_state",
  "unit_without_id",
  "unit_id_without_type",
  "unknown_suffix",
  "unknown_unit_designator",
  "unknown_tokens",
  "discontiguous_component",
  "leading_zero_removed",
  "line_overflow",
  "dual_address",
  "ambiguous_type",
  "ambiguous_city_street",
  "unsupported_intersection",
  "possibly_foreign",
  "low_confidence",
  "empty_input",
  "model_unavailable",
  "model_output_invalid",
] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

export interface Warning {
  code: WarningCode;
  message: string;
  /** UTF-16 offsets into `input`, end exclusive, for warnings about one part of the input. */
  start?: number;
  end?: number;
}

export interface SecondaryUnit {
  type: string;
  id?: string;
}

/** String components in the order SPEC.md lists them. */
export const STRING_COMPONENTS = [
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
  "other",
] as const;
export type StringComponent = (typeof STRING_COMPONENTS)[number];

export type Components = { [K in StringComponent]?: string } & { secondaryUnits?: SecondaryUnit[] };

export type ParseBackend = "model" | "heuristic";

export interface ModelInfo {
  name: string;
  version: string;
  backend: ParseBackend;
}

export interface ParseAnswer {
  input: string;
  type: AddressType;
  components: Components;
  lines: string[];
  warnings: Warning[];
  confidence: number;
  model: ModelInfo;
}

/** The longest `line` accepted (SPEC.md "Limits"), counted in characters (code points). */
export const MAX_LINE_LENGTH = 256;

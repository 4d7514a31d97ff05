import type { TextField } from "./parcel-row.js";
import { TEXT_FIELDS } from "./parcel-row.js";

/**
 * How the columns of an input file become parcel fields. The three ingest formats are mappings:
 * the canonical CSV of DECISIONS.md, OpenAddresses, and any county file through a JSON mapping
 * (`--mapping FILE.json`). Besides the text fields, a mapping may name `street` (the whole street
 * in one column, split per Pub 28), `lat`, `lon` and `parentApns`; `constants` fill fields the
 * file lacks (a county FIPS for the whole file, a state).
 */
export type MappedField = TextField | "street" | "address" | "lat" | "lon" | "parentApns";

/** Values that mean "no value" unless a mapping lists its own (`missing`); compared ignoring case. */
export const DEFAULT_MISSING = ["NA", "N/A", "NULL", "<Null>", "None", "-"] as const;

export interface ColumnMapping {
  columns: Partial<Record<MappedField, string>>;
  constants?: Partial<Record<TextField, string>>;
  /** Fields whose column may be missing from the header (read as empty). */
  optional?: MappedField[];
  delimiter?: string;
  /** Values that mean "no value" (besides empty and whitespace); DEFAULT_MISSING when absent. */
  missing?: string[];
}

export const CANONICAL_COLUMNS = [...TEXT_FIELDS, "lat", "lon", "parent_apns"] as const;

export const CANONICAL_MAPPING: ColumnMapping = {
  columns: {
    ...Object.fromEntries(CANONICAL_COLUMNS.filter((name) => name !== "parent_apns").map((n) => [n, n])),
    parentApns: "parent_apns",
  },
  optional: ["parentApns"],
};

/** OpenAddresses CSV (https://openaddresses.io): LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH. */
export const OPENADDRESSES_MAPPING: ColumnMapping = {
  columns: {
    lon: "LON",
    lat: "LAT",
    addressNumber: "NUMBER",
    street: "STREET",
    occupancyId: "UNIT",
    city: "CITY",
    state: "REGION",
    zip5: "POSTCODE",
    apn: "ID",
  },
};

export const FORMATS = { canonical: CANONICAL_MAPPING, openaddresses: OPENADDRESSES_MAPPING } as const;

const FIELDS = new Set<string>([...CANONICAL_COLUMNS, "street", "address", "parentApns"]);

/** Checks a mapping read from JSON; throws with every problem named. */
export function parseMapping(json: unknown): ColumnMapping {
  const problems: string[] = [];
  const object = (value: unknown): value is Record<string, unknown> =>
    typeof value === "object" && value !== null && !Array.isArray(value);
  if (!object(json) || !object(json.columns)) throw new Error('a mapping is an object with "columns"');
  for (const [field, column] of Object.entries(json.columns)) {
    if (!FIELDS.has(field) || field === "parent_apns") problems.push(`unknown field "${field}"`);
    if (typeof column !== "string") problems.push(`column of "${field}" must be a string`);
  }
  if (json.constants !== undefined && !object(json.constants)) problems.push('"constants" must be an object');
  for (const [field, value] of Object.entries(object(json.constants) ? json.constants : {})) {
    if (
      !FIELDS.has(field) ||
      ["street", "address", "lat", "lon", "parentApns", "parent_apns"].includes(field)
    )
      problems.push(`unknown constant "${field}"`);
    if (typeof value !== "string") problems.push(`constant "${field}" must be a string`);
  }
  if (json.delimiter !== undefined && (typeof json.delimiter !== "string" || json.delimiter.length !== 1))
    problems.push('"delimiter" must be one character');
  if (
    json.missing !== undefined &&
    !(Array.isArray(json.missing) && json.missing.every((v) => typeof v === "string"))
  )
    problems.push('"missing" must be a list of strings');
  if (problems.length > 0) throw new Error(`invalid mapping: ${problems.join("; ")}`);
  return json as unknown as ColumnMapping;
}

import type { TextField } from "../parcel-row.js";
import { TEXT_FIELDS } from "../parcel-row.js";
import type { RecordSource, SourceFormat } from "../sources/record-source.js";
import { isSourceFormat, SOURCE_FORMATS } from "../sources/record-source.js";

/**
 * How the fields of an input file become parcel fields, whatever the file's format (a CSV column,
 * a DBF field, a GeoJSON property). The built-in layouts are mappings: the canonical CSV of
 * DECISIONS.md and OpenAddresses (CSV, or GeoJSON-lines); any county file goes through a JSON
 * mapping (`--mapping FILE.json`). Besides the text fields, a mapping may name `street` (the whole
 * street in one field, split per Pub 28), `address` (the whole address in one field, split by the
 * address parser), `lat`, `lon` (else a geometry format's point is used) and `parentApns`;
 * `constants` fill fields the file lacks (a county FIPS for the whole file, a state).
 */
export type MappedField = TextField | "street" | "address" | "lat" | "lon" | "parentApns";

export interface ColumnMapping {
  columns: Partial<Record<MappedField, string>>;
  constants?: Partial<Record<TextField, string>>;
  /** Fields whose column may be missing from the file (read as empty). */
  optional?: MappedField[];
  /** CSV: the field delimiter (default ","). */
  delimiter?: string;
  /** The file format, when it is not to be detected (the command line's `--format` wins). */
  format?: SourceFormat;
  /** The layer to read from a zip of shapefiles or a GDAL dataset with several (`--layer` wins). */
  layer?: string;
  /** Values that mean "no value" in this file (see DEFAULT_MISSING). */
  missing?: string[];
}

/** Placeholders counties write for an empty field (`<Null>` is ArcGIS's export of a null). */
export const DEFAULT_MISSING = ["NA", "N/A", "NULL", "<Null>", "None", "-"] as const;

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

/**
 * OpenAddresses GeoJSON-lines, its current per-source output: the same fields as properties in
 * lower case (`id, unit, number, street, city, district, region, postcode, hash`), the point from
 * the geometry. Only number and street are required: a source's output may leave out the others.
 */
export const OPENADDRESSES_GEOJSON_MAPPING: ColumnMapping = {
  columns: {
    addressNumber: "number",
    street: "street",
    occupancyId: "unit",
    city: "city",
    state: "region",
    zip5: "postcode",
    apn: "id",
  },
  optional: ["occupancyId", "city", "state", "zip5", "apn"],
};

/** Column layouts by name: `mapped` is a JSON mapping file. */
export const LAYOUTS = ["canonical", "openaddresses", "mapped"] as const;
export type Layout = (typeof LAYOUTS)[number];

/** The mapping of a built-in layout for a file of that format (OpenAddresses: CSV or GeoJSON). */
export function layoutMapping(layout: Exclude<Layout, "mapped">, format: SourceFormat): ColumnMapping {
  if (layout === "canonical") return CANONICAL_MAPPING;
  return format === "csv" ? OPENADDRESSES_MAPPING : OPENADDRESSES_GEOJSON_MAPPING;
}

const FIELDS = new Set<string>([...CANONICAL_COLUMNS, "street", "address", "parentApns"]);
const NOT_CONSTANT = new Set(["street", "address", "lat", "lon", "parentApns", "parent_apns"]);
const KEYS = new Set(["columns", "constants", "optional", "delimiter", "format", "layer", "missing"]);

/** Checks a mapping read from JSON; throws with every problem named. */
export function parseMapping(json: unknown): ColumnMapping {
  const problems: string[] = [];
  const object = (value: unknown): value is Record<string, unknown> =>
    typeof value === "object" && value !== null && !Array.isArray(value);
  const strings = (value: unknown): value is string[] =>
    Array.isArray(value) && value.every((item) => typeof item === "string");
  if (!object(json) || !object(json.columns)) throw new Error('a mapping is an object with "columns"');
  for (const key of Object.keys(json)) if (!KEYS.has(key)) problems.push(`unknown key "${key}"`);
  for (const [field, column] of Object.entries(json.columns)) {
    if (!FIELDS.has(field) || field === "parent_apns") problems.push(`unknown field "${field}"`);
    if (typeof column !== "string") problems.push(`column of "${field}" must be a string`);
  }
  if (json.constants !== undefined && !object(json.constants)) problems.push('"constants" must be an object');
  for (const [field, value] of Object.entries(object(json.constants) ? json.constants : {})) {
    if (!FIELDS.has(field) || NOT_CONSTANT.has(field)) problems.push(`unknown constant "${field}"`);
    if (typeof value !== "string") problems.push(`constant "${field}" must be a string`);
  }
  if (json.optional !== undefined && !(strings(json.optional) && json.optional.every((f) => FIELDS.has(f))))
    problems.push('"optional" must be a list of field names');
  if (json.delimiter !== undefined && (typeof json.delimiter !== "string" || json.delimiter.length !== 1))
    problems.push('"delimiter" must be one character');
  if (json.format !== undefined && (typeof json.format !== "string" || !isSourceFormat(json.format)))
    problems.push(`"format" must be one of ${SOURCE_FORMATS.join(", ")}`);
  if (json.layer !== undefined && typeof json.layer !== "string") problems.push('"layer" must be a string');
  if (json.missing !== undefined && !strings(json.missing))
    problems.push('"missing" must be a list of strings');
  if (problems.length > 0) throw new Error(`invalid mapping: ${problems.join("; ")}`);
  return json as unknown as ColumnMapping;
}

/**
 * Throws, naming the file, its format and its fields, when the mapping names a field the file does
 * not have (and that is not optional): a GeoJSON file read with a CSV layout is told as such.
 */
export function checkMappedFields(source: RecordSource, mapping: ColumnMapping): void {
  const names = new Set(source.fields.map((name) => name.trim()));
  const missing = Object.entries(mapping.columns)
    .filter(([field, column]) => !names.has(column) && !mapping.optional?.includes(field as MappedField))
    .map(([, column]) => column);
  if (missing.length === 0) return;
  const kind = source.format === "csv" ? "header has no column" : `${source.format} file has no field`;
  const shown = source.fields.slice(0, 40).join(", ");
  throw new Error(
    `${source.file}: the ${kind} ${missing.join(", ")} (its fields: ${shown || "none"}${source.fields.length > 40 ? ", …" : ""})`,
  );
}

import type { ColumnMapping, MappedField } from "./column-mapping.js";
import type { Gazetteer } from "./gazetteer.js";
import {
  cleanText,
  normalizeDirectional,
  normalizeState,
  normalizeStreetName,
  normalizeSuffix,
  normalizeUnitId,
  normalizeUnitType,
  normalizeZip,
  numberSuffixOf,
  splitNumber,
  splitNumberSuffix,
  splitStreet,
  unitOf,
} from "./normalize.js";
import type { IngestRow } from "./parcel-row.js";
import { emptyIngestRow, TEXT_FIELDS } from "./parcel-row.js";

/** A row that cannot be used: reported with file, line and reason, and counted. */
export interface Reject {
  file: string;
  line: number;
  reason: string;
}

export type RowResult = { row: IngestRow } | { reject: Reject };

/** What was filled in from elsewhere than the row, counted for the ingest report. */
export interface InferenceCounts {
  zipFromCity: number;
  zipFromCoordinates: number;
  cityFromZip: number;
}

/**
 * A normalizer answering repeated values from a memo (county files repeat a few thousand values),
 * and the empty value and a repeat of the previous value (files are often sorted) without a lookup.
 */
function memoized<T>(normalize: (raw: string) => T, limit = 50_000): (raw: string) => T {
  const memo = new Map<string, T>();
  const empty = normalize("");
  let lastRaw = "";
  let last = empty;
  return (raw) => {
    if (raw === "") return empty;
    if (raw === lastRaw) return last;
    let value = memo.get(raw);
    if (value === undefined) {
      value = normalize(raw);
      if (memo.size >= limit) memo.clear();
      memo.set(raw, value);
    }
    lastRaw = raw;
    last = value;
    return value;
  };
}

/** `06001`, or `6001` with its lost leading zero back, and whether that is a FIPS code (five digits). */
function countyFips(raw: string): { fips: string; valid: boolean } {
  const trimmed = raw.trim();
  const fips = trimmed.padStart(trimmed ? 5 : 0, "0");
  return { fips, valid: /^\d{5}$/.test(fips) };
}

/**
 * The normalizers of normalize.ts (the code lookup uses), memoized per reader: every distinct
 * value is normalized once, and rows share the resulting strings instead of holding copies.
 */
class RowNormalizers {
  readonly fips = memoized(countyFips);
  readonly street = memoized(splitStreet);
  readonly streetName = memoized(normalizeStreetName);
  readonly suffix = memoized(normalizeSuffix);
  readonly directional = memoized(normalizeDirectional);
  readonly number = memoized(splitNumber);
  readonly numberSuffix = memoized(splitNumberSuffix);
  readonly unitType = memoized(normalizeUnitType);
  readonly unitId = memoized(normalizeUnitId);
  readonly city = memoized(cleanText);
  readonly state = memoized(normalizeState);
  readonly zip = memoized(normalizeZip);
  readonly zip4 = memoized((raw: string) => normalizeZip(raw)?.zip4 || raw.trim());
}

/** Slots of the raw values of one row, read by constant index (`values[APN]`), not by field name. */
const MAPPED_FIELDS = [
  ...TEXT_FIELDS,
  "street",
  "lat",
  "lon",
  "parentApns",
] as const satisfies readonly MappedField[];
const SLOT = Object.fromEntries(MAPPED_FIELDS.map((field, i) => [field, i])) as Record<MappedField, number>;
const { apn: APN, fips: FIPS, addressNumber: NUMBER, addressNumberSuffix: NUMBER_SUFFIX } = SLOT;
const { predirectional: PREDIRECTIONAL, postdirectional: POSTDIRECTIONAL, street: STREET } = SLOT;
const { streetName: STREET_NAME, streetSuffix: STREET_SUFFIX, occupancyType: UNIT_TYPE } = SLOT;
const { occupancyId: UNIT_ID, city: CITY, state: STATE, zip5: ZIP5, zip4: ZIP4 } = SLOT;
const { lat: LAT, lon: LON, parentApns: PARENT_APNS } = SLOT;

/**
 * Turns the records of one file into parcel rows through a column mapping. Created per file from
 * its header; throws at once when the mapping names a column the header lacks.
 */
export class RowReader {
  /** (slot, column, constant) of every mapped column: a constant fills the column's empty values. */
  private readonly columns: Array<[number, number, string]> = [];
  /** The raw values of the row being read: constants, overwritten by the row's non-empty values. */
  private readonly values: string[] = MAPPED_FIELDS.map(() => "");
  private readonly normalize = new RowNormalizers();
  readonly inferred: InferenceCounts = { zipFromCity: 0, zipFromCoordinates: 0, cityFromZip: 0 };

  constructor(
    private readonly file: string,
    header: string[],
    mapping: ColumnMapping,
    private readonly gazetteer: Gazetteer,
    private readonly width = header.length,
  ) {
    const trimmed = header.map((name) => name.trim());
    const missing: string[] = [];
    for (const [field, value] of Object.entries(mapping.constants ?? {}) as Array<[MappedField, string]>)
      this.values[SLOT[field]] = value;
    for (const [field, column] of Object.entries(mapping.columns) as Array<[MappedField, string]>) {
      const index = trimmed.indexOf(column);
      if (index === -1 && !mapping.optional?.includes(field)) missing.push(column);
      else if (index === -1) continue;
      else this.columns.push([SLOT[field], index, this.values[SLOT[field]] ?? ""]);
    }
    if (missing.length > 0) throw new Error(`${file}: the header has no column ${missing.join(", ")}`);
  }

  read(line: number, fields: string[]): RowResult {
    if (fields.length !== this.width) {
      return this.reject(line, `expected ${this.width} columns, found ${fields.length}`);
    }
    const values = this.values;
    for (const [slot, index, constant] of this.columns) {
      const value = fields[index]?.trim() ?? "";
      values[slot] = value !== "" ? value : constant;
    }
    const row = emptyIngestRow(this.file, line);
    const problem = this.fill(row, values);
    return problem === undefined ? { row } : this.reject(line, problem);
  }

  /** Fills a row from raw values; answers the reason when the row cannot be used. */
  private fill(row: IngestRow, values: string[]): string | undefined {
    const normalize = this.normalize;
    const value = (slot: number): string => values[slot] ?? "";
    row.apn = cleanText(value(APN));
    const fips = normalize.fips(value(FIPS));
    row.fips = fips.fips;
    if (!fips.valid) return row.fips === "" ? "no county FIPS code" : `invalid FIPS "${value(FIPS)}"`;
    this.fillStreet(row, values);
    const number = normalize.number(value(NUMBER));
    const numberSuffix = normalize.numberSuffix(value(NUMBER_SUFFIX));
    row.addressNumber = number.addressNumber;
    row.addressNumberSuffix = numberSuffixOf(number, numberSuffix);
    row.occupancyType = normalize.unitType(value(UNIT_TYPE));
    row.occupancyId = unitOf(row.occupancyType, normalize.unitId(value(UNIT_ID)), number, numberSuffix);
    row.city = normalize.city(value(CITY));
    row.state = normalize.state(value(STATE));
    if (value(PARENT_APNS)) {
      row.parentApns = value(PARENT_APNS)
        .split(";")
        .map((apn) => cleanText(apn))
        .filter((apn) => apn !== "");
    }
    const unusable = readCoordinates(row, value(LAT), value(LON));
    if (unusable !== undefined) return unusable;
    const zip = normalize.zip(value(ZIP5));
    if (!zip) return `invalid ZIP "${value(ZIP5)}"`;
    row.zip5 = zip.zip5;
    row.zip4 = normalize.zip4(value(ZIP4)) || zip.zip4;
    if (row.apn === "" && row.streetName === "") return "no APN and no street address";
    if (row.streetName === "" && (row.addressNumber !== "" || row.occupancyId !== "")) {
      return "house number or unit without a street name";
    }
    this.fillPlace(row);
    return undefined;
  }

  private fillStreet(row: IngestRow, values: string[]): void {
    const street = values[STREET] ?? "";
    const name = values[STREET_NAME] ?? "";
    if (street !== "" && name === "") {
      const parts = this.normalize.street(street);
      row.predirectional = parts.predirectional;
      row.streetName = parts.streetName;
      row.streetSuffix = parts.streetSuffix;
      row.postdirectional = parts.postdirectional;
    } else {
      row.streetName = this.normalize.streetName(name);
      row.streetSuffix = this.normalize.suffix(values[STREET_SUFFIX] ?? "");
    }
    const pre = values[PREDIRECTIONAL] ?? "";
    const post = values[POSTDIRECTIONAL] ?? "";
    if (pre) row.predirectional = this.normalize.directional(pre);
    if (post) row.postdirectional = this.normalize.directional(post);
  }

  /** A row without ZIP gets the city's only ZIP, or the ZIP nearest its coordinates; a row without city the ZIP's. */
  private fillPlace(row: IngestRow): void {
    if (row.zip5 === "" && row.city !== "" && row.state !== "") {
      const zips = this.gazetteer.zipsOf(row.city, row.state);
      if (zips.length === 1) {
        row.zip5 = zips[0] ?? "";
        this.inferred.zipFromCity++;
      }
    }
    if (row.zip5 === "" && row.lat !== null && row.lon !== null) {
      const place = this.gazetteer.nearestZip(row.lat, row.lon, row.state);
      if (place) {
        row.zip5 = place.zip5;
        this.inferred.zipFromCoordinates++;
      }
    }
    if (row.zip5 !== "" && (row.city === "" || row.state === "")) {
      const place = this.gazetteer.zip(row.zip5);
      if (place && row.city === "") {
        row.city = place.city;
        this.inferred.cityFromZip++;
      }
      if (place && row.state === "") row.state = place.state;
    }
  }

  private reject(line: number, reason: string): { reject: Reject } {
    return { reject: { file: this.file, line, reason } };
  }
}

/** Coordinates in decimal degrees, both or neither; answers the reason when they are unusable. */
function readCoordinates(row: IngestRow, latText: string, lonText: string): string | undefined {
  if (latText === "" && lonText === "") return undefined;
  const lat = parseDecimal(latText);
  const lon = parseDecimal(lonText);
  if (latText === "" || lonText === "" || !Number.isFinite(lat) || !Number.isFinite(lon)) {
    return `invalid coordinates "${latText}", "${lonText}"`;
  }
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return `coordinates out of range "${latText}", "${lonText}"`;
  row.lat = lat;
  row.lon = lon;
  return undefined;
}

const POWERS_OF_TEN = Array.from({ length: 16 }, (_, k) => 10 ** k);

/**
 * `Number(text)`, with a fast path for plain decimals of at most 15 digits (`-122.2712345`): the
 * digits as an integer divided by a power of ten. Both are exact doubles and IEEE division rounds
 * correctly, so the result is the correctly rounded value `Number` answers (Clinger 1990).
 */
export function parseDecimal(text: string): number {
  const negative = text.charCodeAt(0) === 45; // "-"
  let digits = 0;
  let mantissa = 0;
  let fraction = -1;
  for (let i = negative ? 1 : 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      mantissa = mantissa * 10 + (code - 48);
      digits++;
      if (fraction >= 0) fraction++;
    } else if (code === 46 && fraction < 0)
      fraction = 0; // "."
    else return Number(text);
  }
  if (digits === 0 || digits > 15 || fraction === 0) return Number(text);
  const value = mantissa / POWERS_OF_TEN[Math.max(fraction, 0)]!;
  return negative ? -value : value;
}

import { stateHighwayName } from "../../parse/vocabulary/highway.js";
import type { Parser } from "../../parse/parser.js";
import { standardDirectional, standardSuffix } from "../../usps/usps.js";
import type { ColumnMapping, MappedField } from "./column-mapping.js";
import { DEFAULT_MISSING } from "./column-mapping.js";
import type { Gazetteer } from "../../places/gazetteer.js";
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
} from "../normalize.js";
import type { IngestRow } from "../parcel-row.js";
import { emptyIngestRow, TEXT_FIELDS } from "../parcel-row.js";
import type { LonLat } from "../sources/record-source.js";
import { stateOfCounty } from "../../places/state-fips.js";

/** A row that cannot be used: reported with file, line and reason, and counted. */
export interface Reject {
  file: string;
  line: number;
  reason: string;
}

/** A row kept with a value changed or dropped (a placeholder number, a replaced ZIP): same shape. */
export type Note = Reject;

/** A row, or the reason it cannot be used (no wrapper object: one is read per input row). */
export type RowResult = IngestRow | Reject;

export function isReject(result: RowResult): result is Reject {
  return "reason" in result;
}

/** What was filled in from elsewhere than the row, counted for the ingest report. */
export interface InferenceCounts {
  zipFromCity: number;
  zipFromCoordinates: number;
  cityFromZip: number;
}

export interface RowReaderOptions {
  /** Splits a whole-address column (`columns.address`): Situs's own parser. */
  parser?: Parser;
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
  readonly zip = memoized((raw: string) => normalizeZip(raw.replace(/^(\d{5})\.0+$/, "$1")));
  readonly zip4 = memoized((raw: string) => normalizeZip(raw)?.zip4 || raw.trim());
}

/** Slots of the raw values of one row, read by constant index (`values[APN]`), not by field name. */
const MAPPED_FIELDS = [
  ...TEXT_FIELDS,
  "street",
  "address",
  "lat",
  "lon",
  "parentApns",
] as const satisfies readonly MappedField[];
const SLOT = Object.fromEntries(MAPPED_FIELDS.map((field, i) => [field, i])) as Record<MappedField, number>;
const { apn: APN, fips: FIPS, addressNumber: NUMBER, addressNumberSuffix: NUMBER_SUFFIX } = SLOT;
const { predirectional: PREDIRECTIONAL, postdirectional: POSTDIRECTIONAL, street: STREET } = SLOT;
const { streetName: STREET_NAME, streetSuffix: STREET_SUFFIX, occupancyType: UNIT_TYPE } = SLOT;
const { occupancyId: UNIT_ID, city: CITY, state: STATE, zip5: ZIP5, zip4: ZIP4 } = SLOT;
const { lat: LAT, lon: LON, parentApns: PARENT_APNS, address: ADDRESS } = SLOT;
/** A house number written as a placeholder (`XXX`, Pierce County) or holding no digit at all. */
const PLACEHOLDER_NUMBER = /^[^0-9]*$/;
/** A fraction written at the start of the street name instead of after the number. */
const LEADING_FRACTION = /^(\d+\/\d+) (.+)$/;

/**
 * Turns the records of one file into parcel rows through a column mapping. Created per file from
 * its header; throws at once when the mapping names a column the header lacks.
 */
export class RowReader {
  /**
   * Every mapped column as (slot, column index, constant) in three flat arrays: a constant fills
   * the column's empty values. Flat, because the loop over them runs for every field of every row.
   */
  private readonly slots: number[] = [];
  private readonly indexes: number[] = [];
  private readonly constants: string[] = [];
  /** Whether the mapping names a lat or lon column (then a record's point is not used). */
  private readonly coordinateColumns: boolean;
  /** The raw values of the row being read: constants, overwritten by the row's non-empty values. */
  private readonly values: string[] = MAPPED_FIELDS.map(() => "");
  private readonly normalize = new RowNormalizers();
  readonly inferred: InferenceCounts = { zipFromCity: 0, zipFromCoordinates: 0, cityFromZip: 0 };
  /** Rows kept with a value changed or dropped, with the reason. */
  readonly notes: Note[] = [];
  /** Missing-value tokens, uppercase; only values this short can be one. */
  private readonly missing: Set<string>;
  private readonly missingLength: number;
  private readonly missingStarts = new Set<number>();
  /** The last ZIP taken, with the raw value and state it was taken for. */
  private lastZip = { raw: "", zip5: "", state: "" };
  private readonly parser: Parser | undefined;

  constructor(
    private readonly file: string,
    header: string[],
    mapping: ColumnMapping,
    private readonly gazetteer: Gazetteer,
    options: RowReaderOptions = {},
    private readonly width = header.length,
  ) {
    this.missing = new Set((mapping.missing ?? DEFAULT_MISSING).map((token) => token.trim().toUpperCase()));
    this.missingLength = Math.max(0, ...[...this.missing].map((token) => token.length));
    // Most values (digits, ZIPs, suffixes) are ruled out by their first character alone.
    for (const token of this.missing) {
      this.missingStarts.add(token.charCodeAt(0));
      this.missingStarts.add(token.toLowerCase().charCodeAt(0));
    }
    this.parser = options.parser;
    if (mapping.columns.address !== undefined && !this.parser) {
      throw new Error(`${file}: a mapping with an "address" column needs the address parser`);
    }
    const trimmed = header.map((name) => name.trim());
    const missing: string[] = [];
    for (const [field, value] of Object.entries(mapping.constants ?? {}) as Array<[MappedField, string]>)
      this.values[SLOT[field]] = value;
    for (const [field, column] of Object.entries(mapping.columns) as Array<[MappedField, string]>) {
      const index = trimmed.indexOf(column);
      if (index === -1 && !mapping.optional?.includes(field)) missing.push(column);
      else if (index === -1) continue;
      else {
        this.slots.push(SLOT[field]);
        this.indexes.push(index);
        this.constants.push(this.values[SLOT[field]] ?? "");
      }
    }
    this.coordinateColumns = this.slots.some((slot) => slot === LAT || slot === LON);
    if (missing.length > 0) throw new Error(`${file}: the header has no column ${missing.join(", ")}`);
  }

  /**
   * A record as a row. `point` (geometry formats) gives the coordinates when the mapping names no
   * lat/lon columns (named columns win); `problem` (unusable geometry) rejects the row.
   */
  read(line: number, fields: string[], point?: LonLat | null, problem?: string): RowResult {
    if (problem !== undefined) return this.reject(line, problem);
    if (fields.length !== this.width) {
      return this.reject(line, `expected ${this.width} columns, found ${fields.length}`);
    }
    const { values, slots, indexes, constants } = this;
    for (let i = 0; i < slots.length; i++) {
      const value = this.present(fields[indexes[i]!]?.trim() ?? "");
      values[slots[i]!] = value !== "" ? value : constants[i]!;
    }
    const row = emptyIngestRow(this.file, line);
    if (point && !this.coordinateColumns) {
      row.lat = point.lat;
      row.lon = point.lon;
    }
    const unusable = this.fill(row, values);
    return unusable === undefined ? row : this.reject(line, unusable);
  }

  /** A value, or "" when it is one of the missing-value tokens (`NA`, `<Null>`, …). */
  private present(value: string): string {
    if (value === "" || value.length > this.missingLength || !this.missingStarts.has(value.charCodeAt(0)))
      return value;
    return this.missing.has(value.toUpperCase()) ? "" : value;
  }

  /** Fills a row from raw values; answers the reason when the row cannot be used. */
  private fill(row: IngestRow, raw: string[]): string | undefined {
    const normalize = this.normalize;
    // The parsed parts of a whole address fill a copy: the reader's own slots carry constants.
    // Every slot holds a string (the row's value or the mapping's constant, "" for neither); the
    // slots are read by constant index, with no closure made per row.
    const values = (raw[ADDRESS] ?? "") !== "" ? this.splitAddress(row.line, raw.slice()) : raw;
    // SPEC.md: the APN "as the county writes it"; identity compares a normalized key instead.
    row.apn = values[APN]!;
    const fips = normalize.fips(values[FIPS]!);
    row.fips = fips.fips;
    if (!fips.valid) return row.fips === "" ? "no county FIPS code" : `invalid FIPS "${values[FIPS]!}"`;
    this.fillStreet(row, values);
    const number = normalize.number(values[NUMBER]!);
    const numberSuffix = normalize.numberSuffix(values[NUMBER_SUFFIX]!);
    row.addressNumber = number.addressNumber;
    row.addressNumberSuffix = numberSuffixOf(number, numberSuffix);
    const fraction = isDigit(row.streetName, 0) ? LEADING_FRACTION.exec(row.streetName) : null;
    if (fraction && row.addressNumberSuffix === "") {
      // Berkeley writes `2415` + `1/2 DURANT`: the half belongs to the number (DECISIONS.md).
      row.addressNumberSuffix = fraction[1]!;
      row.streetName = fraction[2]!;
    }
    if (
      row.addressNumber !== "" &&
      !isDigit(row.addressNumber, 0) &&
      PLACEHOLDER_NUMBER.test(row.addressNumber)
    ) {
      this.note(row.line, `house number "${values[NUMBER]!}" is no number: the parcel is kept without it`);
      row.addressNumber = "";
      row.addressNumberSuffix = "";
    }
    if (row.predirectional !== "" || row.postdirectional !== "") this.repairDirectionals(row);
    row.occupancyType = normalize.unitType(values[UNIT_TYPE]!);
    row.occupancyId = unitOf(row.occupancyType, normalize.unitId(values[UNIT_ID]!), number, numberSuffix);
    row.city = normalize.city(values[CITY]!);
    row.state = normalize.state(values[STATE]!);
    if (values[PARENT_APNS]!) {
      row.parentApns = values[PARENT_APNS]!.split(";")
        .map((apn) => apn.trim())
        .filter((apn) => apn !== "");
    }
    const countyState = stateOfCounty(row.fips);
    const unusable = readCoordinates(row, values[LAT]!, values[LON]!) ?? this.implausible(row, countyState);
    if (unusable !== undefined) return unusable;
    if (row.apn === "" && row.streetName === "") return "no APN and no street address";
    if (row.streetName === "" && (row.addressNumber !== "" || row.occupancyId !== "")) {
      return "house number or unit without a street name";
    }
    const zipProblem = this.fillZip(row, values[ZIP5]!, values[ZIP4]!, countyState);
    if (zipProblem !== undefined) return zipProblem;
    this.fillPlace(row);
    return undefined;
  }

  /**
   * The ZIP, taken only when it is a real ZIP (the gazetteer) of the row's state (its own, else
   * its county's). A 3- or 4-digit ZIP is padded with the zeros spreadsheets drop (New England)
   * only when the padded ZIP passes the same test. A ZIP that fails is replaced by the one
   * inferred from the city or the coordinates (noted), or the row is rejected with the reason.
   */
  private fillZip(row: IngestRow, raw: string, rawZip4: string, countyState: string): string | undefined {
    const zip = this.normalize.zip(raw);
    if (!zip) return this.replaceZip(row, `invalid ZIP "${raw}"`);
    row.zip4 = this.normalize.zip4(rawZip4) || zip.zip4;
    if (zip.zip5 === "") return undefined;
    const state = row.state || countyState;
    if (zip.zip5 === this.lastZip.zip5 && state === this.lastZip.state && raw === this.lastZip.raw) {
      row.zip5 = zip.zip5; // files are sorted: most rows repeat the previous row's good ZIP
      return undefined;
    }
    const place = this.gazetteer.zip(zip.zip5);
    const padded = !/^\d{5}/.test(raw.trim());
    const written = padded ? `ZIP "${raw.trim()}" (padded ${zip.zip5})` : `ZIP ${zip.zip5}`;
    if (!place) return this.replaceZip(row, `${written} is no US ZIP`);
    if (state !== "" && place.state !== state) {
      return this.replaceZip(row, `${written} is a ZIP of ${place.state}, not ${state}`);
    }
    row.zip5 = zip.zip5;
    this.lastZip = { raw, zip5: zip.zip5, state };
    return undefined;
  }

  /** A ZIP that cannot be taken: replaced when the city or coordinates give one, else the reason. */
  private replaceZip(row: IngestRow, problem: string): string | undefined {
    row.zip5 = "";
    row.zip4 = "";
    this.fillPlace(row);
    if (row.zip5 === "") return problem;
    this.note(row.line, `${problem}: replaced by ${row.zip5}`);
    return undefined;
  }

  /** Coordinates outside the county's state: 0, 0, projected values read as degrees, swapped. */
  private implausible(row: IngestRow, countyState: string): string | undefined {
    if (row.lat === null || row.lon === null) return undefined;
    if (row.lat === 0 && row.lon === 0) return "coordinates 0, 0 are no place in the county";
    const state = countyState || row.state;
    if (state === "" || this.gazetteer.hasZipNear(row.lat, row.lon, state)) return undefined;
    return `coordinates ${row.lat}, ${row.lon} are not in ${state} (projected values read as degrees, or swapped?)`;
  }

  /**
   * A whole-address column (`SITUS_ADDR`), split by Situs's own parser into the slots the
   * mapping's own columns leave empty. A leading placeholder number (`XXX MASHELL AV S`) is dropped
   * first; an address that is no street address (a PO box, an intersection) is noted and left out.
   */
  private splitAddress(line: number, values: string[]): string[] {
    const raw = values[ADDRESS] ?? "";
    const text = raw.replace(/^X+\s+/i, "");
    if (text !== raw) this.note(line, `house number placeholder in "${raw}" dropped`);
    const answer = this.parser!.parse(text);
    const parts = answer.components;
    if (!["street", "ambiguous"].includes(answer.type) || !parts.streetName) {
      this.note(line, `address "${raw}" is no street address (read as ${answer.type}): left out`);
      return values;
    }
    const fill = (slot: number, part: string | undefined): void => {
      if (part !== undefined && (values[slot] ?? "") === "") values[slot] = part;
    };
    if ((values[STREET] ?? "") === "" && (values[STREET_NAME] ?? "") === "") {
      fill(PREDIRECTIONAL, parts.predirectional);
      fill(STREET_NAME, parts.streetName);
      fill(STREET_SUFFIX, parts.streetSuffix);
      fill(POSTDIRECTIONAL, parts.postdirectional);
    }
    fill(NUMBER, parts.addressNumber);
    fill(NUMBER_SUFFIX, parts.addressNumberSuffix);
    fill(UNIT_TYPE, parts.occupancyType);
    fill(UNIT_ID, parts.occupancyId);
    fill(CITY, parts.city);
    fill(STATE, parts.state);
    fill(ZIP5, parts.zip5);
    fill(ZIP4, parts.zip4);
    return values;
  }

  /**
   * A directional column holding something else (Yuba County's `SFXDIR` has `RD`, `1/2`, `CA`):
   * a fraction goes to the number's suffix, a street type after the name to the suffix when it
   * has none, anything else is dropped; each change is noted.
   */
  private repairDirectionals(row: IngestRow): void {
    for (const side of ["predirectional", "postdirectional"] as const) {
      const value = row[side];
      if (value === "" || standardDirectional(value) !== undefined) continue;
      row[side] = "";
      const suffix = standardSuffix(value);
      if (/^\d+\/\d+$/.test(value) && row.addressNumberSuffix === "") {
        row.addressNumberSuffix = value;
        this.note(row.line, `${side} "${value}" is the number's suffix`);
      } else if (side === "postdirectional" && suffix !== undefined && row.streetSuffix === "") {
        row.streetSuffix = suffix;
        this.note(row.line, `${side} "${value}" is the street suffix`);
      } else this.note(row.line, `${side} "${value}" is no direction: dropped`);
    }
  }

  private note(line: number, reason: string): void {
    this.notes.push({ file: this.file, line, reason });
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
      const place = this.gazetteer.nearestZip(row.lat, row.lon, row.state || stateOfCounty(row.fips));
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
    row.streetName = stateHighwayName(row.streetName, row.state || stateOfCounty(row.fips));
  }

  private reject(line: number, reason: string): Reject {
    return { file: this.file, line, reason };
  }
}

function isDigit(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code >= 48 && code <= 57;
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

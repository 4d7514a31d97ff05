import type { ColumnMapping, MappedField } from "./column-mapping.js";
import type { Gazetteer } from "./gazetteer.js";
import {
  cleanText,
  normalizeDirectional,
  normalizeNumber,
  normalizeState,
  normalizeStreetName,
  normalizeSuffix,
  normalizeUnitId,
  normalizeUnitType,
  normalizeZip,
  splitNumber,
  splitStreet,
} from "./normalize.js";
import type { IngestRow } from "./parcel-row.js";
import { emptyIngestRow } from "./parcel-row.js";

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
 * Turns the records of one file into parcel rows through a column mapping. Created per file from
 * its header; throws at once when the mapping names a column the header lacks.
 */
export class RowReader {
  private readonly indexes: Array<[MappedField, number]>;
  readonly inferred: InferenceCounts = { zipFromCity: 0, zipFromCoordinates: 0, cityFromZip: 0 };

  constructor(
    private readonly file: string,
    header: string[],
    private readonly mapping: ColumnMapping,
    private readonly gazetteer: Gazetteer,
    private readonly width = header.length,
  ) {
    const trimmed = header.map((name) => name.trim());
    const missing: string[] = [];
    this.indexes = [];
    for (const [field, column] of Object.entries(mapping.columns) as Array<[MappedField, string]>) {
      const index = trimmed.indexOf(column);
      if (index === -1 && !mapping.optional?.includes(field)) missing.push(column);
      else if (index === -1) continue;
      else this.indexes.push([field, index]);
    }
    if (missing.length > 0) throw new Error(`${file}: the header has no column ${missing.join(", ")}`);
  }

  read(line: number, fields: string[]): RowResult {
    if (fields.length !== this.width) {
      return this.reject(line, `expected ${this.width} columns, found ${fields.length}`);
    }
    const raw: Partial<Record<MappedField, string>> = { ...this.mapping.constants };
    for (const [field, index] of this.indexes) {
      const value = fields[index]?.trim() ?? "";
      if (value !== "" || raw[field] === undefined) raw[field] = value;
    }
    const row = emptyIngestRow(this.file, line);
    const problem = this.fill(row, raw);
    return problem === undefined ? { row } : this.reject(line, problem);
  }

  /** Fills a row from raw values; answers the reason when the row cannot be used. */
  private fill(row: IngestRow, raw: Partial<Record<MappedField, string>>): string | undefined {
    row.apn = cleanText(raw.apn ?? "");
    row.fips = (raw.fips ?? "").trim().padStart(raw.fips?.trim() ? 5 : 0, "0");
    if (!/^\d{5}$/.test(row.fips))
      return row.fips === "" ? "no county FIPS code" : `invalid FIPS "${raw.fips}"`;
    fillStreet(row, raw);
    const number = splitNumber(raw.addressNumber ?? "");
    row.addressNumber = number.addressNumber;
    row.addressNumberSuffix = normalizeNumber(raw.addressNumberSuffix ?? "") || number.addressNumberSuffix;
    row.occupancyType = normalizeUnitType(raw.occupancyType ?? "");
    row.occupancyId = normalizeUnitId(raw.occupancyId ?? "");
    row.city = cleanText(raw.city ?? "");
    row.state = normalizeState(raw.state ?? "");
    if (raw.parentApns) {
      row.parentApns = raw.parentApns
        .split(";")
        .map((apn) => cleanText(apn))
        .filter((apn) => apn !== "");
    }
    const coordinates = readCoordinates(raw.lat ?? "", raw.lon ?? "");
    if (typeof coordinates === "string") return coordinates;
    [row.lat, row.lon] = coordinates;
    const zip = normalizeZip(raw.zip5 ?? "");
    if (!zip) return `invalid ZIP "${raw.zip5}"`;
    row.zip5 = zip.zip5;
    row.zip4 = normalizeZip(raw.zip4 ?? "")?.zip4 || (raw.zip4 ?? "").trim() || zip.zip4;
    if (row.apn === "" && row.streetName === "") return "no APN and no street address";
    if (row.streetName === "" && (row.addressNumber !== "" || row.occupancyId !== "")) {
      return "house number or unit without a street name";
    }
    this.fillPlace(row);
    return undefined;
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

function fillStreet(row: IngestRow, raw: Partial<Record<MappedField, string>>): void {
  if (raw.street !== undefined && raw.street !== "" && !raw.streetName) {
    Object.assign(row, splitStreet(raw.street));
  } else {
    row.streetName = normalizeStreetName(raw.streetName ?? "");
    row.streetSuffix = normalizeSuffix(raw.streetSuffix ?? "");
  }
  if (raw.predirectional) row.predirectional = normalizeDirectional(raw.predirectional);
  if (raw.postdirectional) row.postdirectional = normalizeDirectional(raw.postdirectional);
}

/** Coordinates in decimal degrees, both or neither; answers the reason when they are unusable. */
function readCoordinates(latText: string, lonText: string): [number | null, number | null] | string {
  if (latText === "" && lonText === "") return [null, null];
  const lat = Number(latText);
  const lon = Number(lonText);
  if (latText === "" || lonText === "" || !Number.isFinite(lat) || !Number.isFinite(lon)) {
    return `invalid coordinates "${latText}", "${lonText}"`;
  }
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return `coordinates out of range "${latText}", "${lonText}"`;
  return [lat, lon];
}

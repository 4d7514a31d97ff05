import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { onPath } from "../../../src/parcels/sources/gdal-source.js";
import type { RecordSource, SourceRecord } from "../../../src/parcels/sources/open-source.js";
import { SHARED_PARCELS } from "../index-fixtures.js";

export const SHARED_GIS = join(SHARED_PARCELS, "gis");
export const GIS = {
  sanFrancisco: join(SHARED_GIS, "san-francisco", "eas_addresses_with_units", "eas_addresses_with_units.shp"),
  yuba: join(SHARED_GIS, "yuba", "AddressPoints", "AddressPntsYubaCounty.shp"),
  saline: join(SHARED_GIS, "saline", "mills_parcels", "parcels.geojson"),
  davis: join(SHARED_GIS, "davis", "in_house_gis_parcels", "parcels.geojson"),
  pierce: join(SHARED_GIS, "pierce", "eatonville_parcels_features", "parcels_features.geojson"),
  bucks: join(SHARED_GIS, "bucks", "openaddresses_fixture", "addresses.geojson"),
} as const;

/** Tests that write fixtures with GDAL skip, naming the package, where ogr2ogr is absent. */
export const NEEDS_GDAL = onPath("ogr2ogr") ? false : "needs ogr2ogr (Debian package gdal-bin)";

export async function readAll(source: RecordSource): Promise<SourceRecord[]> {
  const records: SourceRecord[] = [];
  for await (const batch of source.batches()) for (const record of batch) records.push(record);
  return records;
}

/** A record's fields by name. */
export function named(source: RecordSource, record: SourceRecord): Record<string, string> {
  return Object.fromEntries(source.fields.map((name, i) => [name, record.fields[i] ?? ""]));
}

export function featureCollection(features: unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ type: "FeatureCollection", ...extra, features });
}

export function pointFeature(lon: number, lat: number, properties: Record<string, unknown>): unknown {
  return { type: "Feature", properties, geometry: { type: "Point", coordinates: [lon, lat] } };
}

export function ogr2ogr(...args: string[]): void {
  execFileSync("ogr2ogr", args, { stdio: ["ignore", "ignore", "pipe"] });
}

/** Writes a zip (stored, no compression: APPNOTE.TXT §4.3) of the given files under their names. */
export function writeZip(file: string, entries: Array<[name: string, path: string]>): void {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, path] of entries) {
    const data = readFileSync(path);
    const nameBytes = Buffer.from(name);
    const header = (signature: number, central: boolean): Buffer => {
      const b = Buffer.alloc(central ? 46 : 30);
      b.writeUInt32LE(signature, 0);
      let at = 4;
      if (central) at = b.writeUInt16LE(20, at);
      at = b.writeUInt16LE(20, at); // version needed
      at = b.writeUInt16LE(0, at); // flags
      at = b.writeUInt16LE(0, at); // stored
      at = b.writeUInt32LE(0, at); // time, date
      at = b.writeUInt32LE(crc32(data), at);
      at = b.writeUInt32LE(data.length, at);
      at = b.writeUInt32LE(data.length, at);
      b.writeUInt16LE(nameBytes.length, at);
      if (central) b.writeUInt32LE(offset, 42);
      return b;
    };
    centrals.push(header(0x02014b50, true), nameBytes);
    const local = [header(0x04034b50, false), nameBytes, data];
    locals.push(...local);
    offset += local.reduce((sum, b) => sum + b.length, 0);
  }
  const central = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(offset, 16);
  writeFileSync(file, Buffer.concat([...locals, central, end]));
}

type Ring = Array<[number, number]>;

/** Even-odd ray casting (W. R. Franklin's PNPOLY): inside the outer ring and outside every hole. */
export function insidePolygon(point: { lon: number; lat: number }, rings: Ring[]): boolean {
  const inRing = (ring: Ring): boolean => {
    let inside = false;
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i]!;
      const [xj, yj] = ring[j]!;
      if (yi > point.lat !== yj > point.lat && point.lon < ((xj - xi) * (point.lat - yi)) / (yj - yi) + xi)
        inside = !inside;
    }
    return inside;
  };
  return inRing(rings[0]!) && rings.slice(1).every((hole) => !inRing(hole));
}

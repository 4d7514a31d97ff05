import proj4 from "proj4";
import type { Transform } from "./geometry.js";

/** How a file's coordinates become WGS84 degrees: no transform when they already are. */
export interface Projection {
  description: string;
  transform?: Transform;
}

export const WGS84: Projection = { description: "WGS 84 longitude/latitude (no reprojection)" };

/**
 * The projection of a shapefile's `.prj` (OGC or ESRI WKT). Esri writes some WKT with unquoted
 * names (`GEOGCS[GCS_WGS_1984,…]`, San Francisco's EAS export), which proj4's WKT parser refuses:
 * those names are quoted first. Geographic coordinates on WGS 84 or NAD83 (the same within a metre,
 * and proj4 treats them as the same datum) are read as they are.
 */
export function projectionFromWkt(wkt: string, where: string): Projection {
  const quoted = wkt.trim().replace(/([A-Za-z_]+\[)([^"[\],\d+\-.][^"[\],]*)(?=[,\]])/g, '$1"$2"');
  const name = /^[A-Z]+\["([^"]*)"/.exec(quoted)?.[1] ?? "unnamed";
  let converter: proj4.Converter;
  try {
    converter = proj4(quoted, "EPSG:4326");
  } catch (error) {
    throw new Error(
      `${where}: proj4 cannot read this projection (${(error as Error).message}); ` +
        "--format gdal reads the file through GDAL, which reprojects it",
    );
  }
  if (isIdentity(converter)) return { description: `${name}: longitude/latitude, no reprojection` };
  return {
    description: `${name} (${where}), reprojected to WGS 84 with proj4`,
    transform: transformOf(converter),
  };
}

/**
 * The projection named by an old-style GeoJSON `crs` member (GeoJSON 2008 §3; RFC 7946 dropped it
 * and fixed WGS 84): CRS84, EPSG:4326 and EPSG:4269 (NAD83) are longitude/latitude already; other
 * EPSG codes are reprojected when proj4 knows them (3857), else the file is refused.
 */
export function projectionFromGeoJsonCrs(crs: unknown, file: string): Projection {
  if (crs === null || crs === undefined) return WGS84;
  const properties = (crs as { properties?: { name?: unknown; code?: unknown } }).properties;
  const name =
    typeof properties?.name === "string"
      ? properties.name
      : properties?.code !== undefined
        ? `EPSG:${String(properties.code)}`
        : JSON.stringify(crs);
  if (/CRS:?84$/i.test(name)) return WGS84;
  const code = /EPSG:{1,2}(?:[\d.]+:)?(\d+)$/i.exec(name)?.[1];
  if (code === "4326" || code === "4269")
    return { description: `${name}: longitude/latitude, no reprojection` };
  const known = code !== undefined && proj4.defs(`EPSG:${code}`) !== undefined;
  if (!known) {
    throw new Error(
      `${file}: the GeoJSON "crs" names ${name}, which this reader cannot reproject; ` +
        "--format gdal reads the file through GDAL (ogr2ogr), which reprojects it",
    );
  }
  const converter = proj4(`EPSG:${code}`, "EPSG:4326");
  return { description: `${name}, reprojected to WGS 84 with proj4`, transform: transformOf(converter) };
}

function transformOf(converter: proj4.Converter): Transform {
  return (x, y) => {
    const [lon, lat] = converter.forward([x, y]);
    return { lon: lon ?? NaN, lat: lat ?? NaN };
  };
}

/** True when the converter leaves longitude/latitude as they are (a geographic WGS 84 or NAD83 source). */
function isIdentity(converter: proj4.Converter): boolean {
  return [
    [-122.4, 37.7],
    [-74, 40.7],
    [10, -30],
  ].every(([x, y]) => {
    const [lon, lat] = converter.forward([x!, y!]);
    return Math.abs((lon ?? NaN) - x!) < 1e-9 && Math.abs((lat ?? NaN) - y!) < 1e-9;
  });
}

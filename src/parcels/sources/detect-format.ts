import { open, stat } from "node:fs/promises";
import { extname } from "node:path";
import type { SourceFormat } from "./record-source.js";
import { ZipArchive } from "./zip-archive.js";

/** Extensions that name their format; `.geojson` and `.json` are sniffed (OpenAddresses writes lines). */
const EXTENSIONS: Record<string, SourceFormat | "json" | "zip"> = {
  ".csv": "csv",
  ".tsv": "csv",
  ".txt": "csv",
  ".geojson": "json",
  ".json": "json",
  ".geojsonl": "geojsonl",
  ".geojsons": "geojsonl",
  ".geojsonseq": "geojsonl",
  ".ndjson": "geojsonl",
  ".jsonl": "geojsonl",
  ".shp": "shapefile",
  ".dbf": "shapefile",
  ".shx": "shapefile",
  ".zip": "zip",
  ".gdb": "gdal",
  ".gpkg": "gdal",
  ".sqlite": "gdal",
  ".kml": "gdal",
  ".kmz": "gdal",
  ".fgb": "gdal",
  ".gml": "gdal",
  ".gpx": "gdal",
  ".tab": "gdal",
  ".mif": "gdal",
  ".xlsx": "gdal",
  ".ods": "gdal",
};

const SNIFF_BYTES = 1 << 16;

/**
 * The format of a file, from its extension and its first bytes: a directory is for GDAL (a File
 * Geodatabase `.gdb` is one), `.geojson` is a FeatureCollection or GeoJSON-lines by its first line,
 * a zip holding a `.shp` is a shapefile (any other zip goes to GDAL, which reads inside zips), and
 * an unknown extension is sniffed: `{` … FeatureCollection, one Feature a line, `PK` (zip), the
 * shapefile and dBASE magic numbers, SQLite (GeoPackage), FlatGeobuf; other text is CSV.
 */
export async function detectFormat(file: string): Promise<SourceFormat> {
  const info = await stat(file).catch(() => undefined);
  if (!info) throw new Error(`${file}: no such file or directory`);
  if (info.isDirectory()) return "gdal";
  const byExtension = EXTENSIONS[extname(file).toLowerCase()];
  if (byExtension !== undefined && byExtension !== "json" && byExtension !== "zip") return byExtension;
  const head = await readStart(file);
  if (byExtension === "zip" || isZip(head)) return zipFormat(file);
  if (byExtension === "json") return jsonFormat(head, info.size <= head.length);
  return sniff(file, head, info.size <= head.length);
}

async function readStart(file: string): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function isZip(head: Buffer): boolean {
  return head.length >= 4 && head.readUInt32LE(0) === 0x04034b50; // "PK\3\4"
}

async function zipFormat(file: string): Promise<SourceFormat> {
  const zip = await ZipArchive.open(file);
  try {
    return zip.entries.some((e) => /\.shp$/i.test(e.fileName)) ? "shapefile" : "gdal";
  } finally {
    zip.close();
  }
}

function sniff(file: string, head: Buffer, whole: boolean): SourceFormat {
  if (head.length >= 4 && head.readInt32BE(0) === 9994) return "shapefile";
  if (head.subarray(0, 16).toString("latin1") === "SQLite format 3\0") return "gdal";
  if (head.subarray(0, 3).toString("latin1") === "fgb" && head[3] === 3) return "gdal";
  if (looksLikeDbf(head)) return "shapefile";
  if (head.includes(0)) {
    throw new Error(
      `${file}: binary content of no format situs reads directly (CSV, GeoJSON, GeoJSON-lines, shapefile); ` +
        "if GDAL reads it, try --format gdal",
    );
  }
  const text = head
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trimStart();
  if (text.startsWith("{") || text.startsWith("\x1e")) return jsonFormat(head, whole);
  if (/^<\?xml|^<kml|^<gpx|^<gml/i.test(text)) return "gdal";
  return "csv";
}

/** A dBASE III+ header: version byte, a plausible date and a header length of 32 bytes per field plus 33. */
function looksLikeDbf(head: Buffer): boolean {
  if (head.length < 32 || ![0x03, 0x83, 0x8b, 0x30, 0x31, 0xf5].includes(head[0]!)) return false;
  const month = head[2]!;
  const day = head[3]!;
  const headerLength = head.readUInt16LE(8);
  return (
    month >= 1 && month <= 12 && day >= 1 && day <= 31 && headerLength >= 65 && (headerLength - 33) % 32 === 0
  );
}

/**
 * GeoJSON-lines when the first line is one whole Feature (or starts with RS, RFC 8142); a
 * FeatureCollection (or anything else the GeoJSON reader will judge) otherwise. A first line longer
 * than the bytes read is judged by how it starts.
 */
function jsonFormat(head: Buffer, whole: boolean): SourceFormat {
  const text = head
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .replace(/^\s*\n/, "");
  if (text.startsWith("\x1e")) return "geojsonl";
  const newline = text.indexOf("\n");
  if (newline === -1 && !whole)
    return /^\s*\{\s*"type"\s*:\s*"Feature"\s*[,}]/.test(text) ? "geojsonl" : "geojson";
  const first = newline === -1 ? text : text.slice(0, newline);
  try {
    const value = JSON.parse(first) as { type?: unknown } | null;
    if (value?.type === "Feature") return "geojsonl";
  } catch {
    // a line that is no whole JSON value: a FeatureCollection over several lines
  }
  return "geojson";
}

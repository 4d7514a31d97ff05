import { openCsv } from "./csv-source.js";
import { detectFormat } from "./detect-format.js";
import { openGdal } from "./gdal-source.js";
import { openGeoJsonLines } from "./geojson-lines-source.js";
import { openGeoJson } from "./geojson-source.js";
import type { RecordSource, SourceFormat } from "./record-source.js";
import { isSourceFormat, SOURCE_FORMATS } from "./record-source.js";
import { openShapefile } from "./shapefile-source.js";

export type { LonLat, RecordSource, SourceFormat, SourceRecord } from "./record-source.js";
export { isSourceFormat, SOURCE_FORMATS } from "./record-source.js";
export { detectFormat } from "./detect-format.js";

export interface SourceOptions {
  /** The file's format; detected from its extension and content when absent. */
  format?: SourceFormat;
  /** CSV only: the field delimiter (default ","). */
  delimiter?: string;
  /** Shapefile zips and GDAL datasets with several layers: the one to read. */
  layer?: string;
}

/**
 * Opens an input file in whatever format it is: reads what the fields are (and, for geometry
 * formats, the projection) and answers a source of its records. Every failure is an Error whose
 * message names the file and what was found or expected.
 */
export async function openSource(file: string, options: SourceOptions = {}): Promise<RecordSource> {
  const format = options.format ?? (await detectFormat(file));
  if (!isSourceFormat(format))
    throw new Error(`${file}: unknown format "${String(format)}" (${SOURCE_FORMATS.join(", ")})`);
  switch (format) {
    case "csv":
      return openCsv(file, options.delimiter);
    case "geojson":
      return openGeoJson(file);
    case "geojsonl":
      return openGeoJsonLines(file);
    case "shapefile":
      return openShapefile(file, options.layer);
    case "gdal":
      return openGdal(file, options.layer);
  }
}

/**
 * The records of an input file, whatever format the county published it in: a CSV's rows, the
 * features of a GeoJSON file, GeoJSON-lines, a shapefile, or anything GDAL reads. Each record is
 * its field values aligned with `fields`, plus, for geometry formats, a point inside the feature.
 */
export const SOURCE_FORMATS = ["csv", "geojson", "geojsonl", "shapefile", "gdal"] as const;
export type SourceFormat = (typeof SOURCE_FORMATS)[number];

/** WGS84 degrees. */
export interface LonLat {
  lon: number;
  lat: number;
}

export interface SourceRecord {
  /**
   * Where a person finds it: the CSV physical line of the record's start, the GeoJSON-lines line
   * number, the feature number (1-based) for the other formats.
   */
  line: number;
  /** Values aligned with `RecordSource.fields`; a missing property is "". */
  fields: string[];
  /** Geometry formats: a point inside the feature, WGS84; null when the feature has no geometry. */
  point?: LonLat | null;
  /** Geometry that cannot be used, with the reason (the row is rejected). */
  problem?: string;
}

export interface RecordSource {
  file: string;
  format: SourceFormat;
  /**
   * Column or property names: the CSV header, the DBF fields, the union of the properties of the
   * first features (GeoJSON, GeoJSON-lines, GDAL).
   */
  fields: string[];
  hasGeometry: boolean;
  /** How coordinates become WGS84 ("WGS 84 lon/lat", "EPSG:2226 reprojected with proj4", …). */
  crs?: string;
  /** Geometry formats: how many records of each geometry type were read so far ("none": no geometry). */
  geometryTypes?: () => Map<string, number>;
  /** Batches of records, consumed in order; a batch must be consumed before the next is asked. */
  batches(): AsyncIterable<Iterable<SourceRecord>>;
}

export function isSourceFormat(value: string): value is SourceFormat {
  return (SOURCE_FORMATS as readonly string[]).includes(value);
}

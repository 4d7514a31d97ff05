import { createReadStream } from "node:fs";
import type { ScanItem } from "./feature-collection-scanner.js";
import { FeatureCollectionScanner } from "./feature-collection-scanner.js";
import { FeatureFields, PREVIEW_FEATURES } from "./feature-record.js";
import type { Projection } from "./projection.js";
import { projectionFromGeoJsonCrs } from "./projection.js";
import type { RecordSource, SourceRecord } from "./record-source.js";

const GEOMETRY_TYPES = new Set([
  "Point",
  "MultiPoint",
  "LineString",
  "MultiLineString",
  "Polygon",
  "MultiPolygon",
  "GeometryCollection",
]);

/** What opening learnt: the top-level members and the first features. */
interface CollectionHead {
  members: Map<string, unknown>;
  /** Members after the features array (read only when `type` did not come before it). */
  trailing: Map<string, unknown>;
  fields: FeatureFields;
  hasGeometry: boolean;
  sawFeatures: boolean;
}

/**
 * A GeoJSON FeatureCollection, streamed (feature-collection-scanner.ts). Opening reads the members
 * before `features` and the first features (for the fields); when `type` does not come before
 * `features` (Pierce County), it scans on to the end for the members after the array, without
 * parsing the features. A UTF-8 byte-order mark is skipped. A `crs` member (GeoJSON 2008) is honoured
 * (projection.ts).
 */
export async function openGeoJson(file: string): Promise<RecordSource> {
  const head = await readHead(file);
  const type = head.members.get("type") ?? head.trailing.get("type");
  if (type !== "FeatureCollection" || !head.sawFeatures) refuse(file, type);
  const crsMember = head.members.has("crs") ? head.members.get("crs") : head.trailing.get("crs");
  const projection = projectionFromGeoJsonCrs(crsMember, file);
  const fields = head.fields;
  return {
    file,
    format: "geojson",
    fields: fields.names,
    hasGeometry: head.hasGeometry,
    crs: projection.description,
    geometryTypes: () => fields.geometryTypes(),
    batches: () => featureBatches(file, fields, projection, crsMember !== undefined),
  };
}

function refuse(file: string, type: unknown): never {
  if (type === "Feature")
    throw new Error(
      `${file}: a single GeoJSON Feature, not a FeatureCollection (for one Feature a line: --format geojsonl)`,
    );
  if (typeof type === "string" && GEOMETRY_TYPES.has(type))
    throw new Error(`${file}: a bare GeoJSON geometry (${type}), not a FeatureCollection of parcels`);
  if (type === undefined || type === "FeatureCollection")
    throw new Error(`${file}: not a GeoJSON FeatureCollection (no "features" array)`);
  throw new Error(`${file}: not a GeoJSON FeatureCollection (its type is ${JSON.stringify(type)})`);
}

async function readHead(file: string): Promise<CollectionHead> {
  const head: CollectionHead = {
    members: new Map(),
    trailing: new Map(),
    fields: new FeatureFields(),
    hasGeometry: false,
    sawFeatures: false,
  };
  const scanner = new FeatureCollectionScanner(file);
  let inFeatures = false;
  let previewed = 0;
  /** Answers true when opening has read enough. */
  const take = (item: ScanItem): boolean => {
    if (typeof item === "string") {
      if (previewed++ < PREVIEW_FEATURES) {
        const feature = parseFeature(item);
        head.fields.add(feature);
        if ((feature as { geometry?: unknown } | undefined)?.geometry) head.hasGeometry = true;
      }
      return previewed >= PREVIEW_FEATURES && head.members.has("type");
    }
    if ("features" in item) {
      inFeatures = item.features === "start";
      head.sawFeatures = true;
      return !inFeatures && head.members.has("type");
    }
    (head.sawFeatures ? head.trailing : head.members).set(item.member, item.value);
    if (item.member === "type" && item.value !== "FeatureCollection") return true;
    return false;
  };
  let first = true;
  for await (const chunk of createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 16 })) {
    scanner.push(first ? (chunk as string).replace(/^\uFEFF/, "") : (chunk as string));
    first = false;
    for (let item = scanner.next(); item !== undefined; item = scanner.next()) if (take(item)) return head;
    if (scanner.done) return head;
  }
  scanner.end();
  return head;
}

function parseFeature(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function* featureBatches(
  file: string,
  fields: FeatureFields,
  projection: Projection,
  crsKnown: boolean,
): AsyncGenerator<Iterable<SourceRecord>> {
  const scanner = new FeatureCollectionScanner(file);
  let afterFeatures = false;
  function* records(): Generator<SourceRecord> {
    for (let item = scanner.next(); item !== undefined; item = scanner.next()) {
      if (typeof item === "string") {
        const feature = parseFeature(item);
        const line = scanner.features;
        yield feature === undefined
          ? {
              line,
              fields: new Array<string>(fields.names.length).fill(""),
              point: null,
              problem: "feature is not valid JSON",
            }
          : fields.record(feature, line, projection.transform);
      } else if ("features" in item) afterFeatures = item.features === "end";
      else if (afterFeatures && item.member === "crs" && !crsKnown) {
        // Only reached when `type` came before `features` and `crs` after: too late for the rows read.
        throw new Error(
          `${file}: a "crs" member after the features array; move it before "features" or use --format gdal`,
        );
      }
    }
  }
  let first = true;
  for await (const chunk of createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 20 })) {
    scanner.push(first ? (chunk as string).replace(/^\uFEFF/, "") : (chunk as string));
    first = false;
    yield records();
  }
  scanner.end();
}

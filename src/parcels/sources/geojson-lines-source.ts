import { createReadStream } from "node:fs";
import { FeatureFields, PREVIEW_FEATURES } from "./feature-record.js";
import type { Transform } from "./geometry.js";
import type { LineHandler } from "./geojson-lines.js";
import { featureLineBatches } from "./geojson-lines.js";
import { WGS84 } from "./projection.js";
import type { RecordSource, SourceRecord } from "./record-source.js";

/** The first features of a GeoJSON-lines stream: their fields, and what the first line holds. */
export interface LinesPreview {
  fields: FeatureFields;
  hasGeometry: boolean;
  features: number;
  /** Why the first non-blank line is no Feature, if it is not one. */
  firstLineProblem?: string;
  firstLine?: number;
}

/** Reads up to `limit` features of a stream (then stops reading it) for the union of their properties. */
export async function previewFeatureLines(
  input: AsyncIterable<Buffer | string>,
  limit = PREVIEW_FEATURES,
): Promise<LinesPreview> {
  const preview: LinesPreview = { fields: new FeatureFields(), hasGeometry: false, features: 0 };
  const handler: LineHandler<void> = {
    feature: (feature, line) => {
      const type = (feature as { type?: unknown } | null)?.type;
      if (preview.features === 0 && preview.firstLine === undefined && type !== "Feature") {
        preview.firstLine = line;
        preview.firstLineProblem = `is not a GeoJSON Feature (${JSON.stringify(type ?? typeof feature)})`;
      }
      preview.firstLine ??= line;
      preview.features++;
      preview.fields.add(feature);
      if ((feature as { geometry?: unknown }).geometry) preview.hasGeometry = true;
    },
    invalid: (line, reason) => {
      if (preview.firstLine !== undefined) return;
      preview.firstLine = line;
      preview.firstLineProblem = reason.replace(/^line /, "");
    },
  };
  let seen = 0;
  read: for await (const batch of featureLineBatches(input, handler)) {
    for (const _ of batch) if (++seen >= limit) break read;
  }
  return preview;
}

/** Turns each line's feature into a record aligned with `fields`; a line that is not JSON, a rejected record. */
export function recordHandler(fields: FeatureFields, transform?: Transform): LineHandler<SourceRecord> {
  return {
    feature: (feature, line) => fields.record(feature, line, transform),
    ...(transform ? {} : { plainLine: (text, from, to, line) => fields.lineRecord(text, from, to, line) }),
    invalid: (line, reason) => ({
      line,
      fields: new Array<string>(fields.names.length).fill(""),
      point: null,
      problem: reason,
    }),
  };
}

/** GeoJSON-lines (OpenAddresses' per-source output) and GeoJSON text sequences: WGS84 (RFC 7946). */
export async function openGeoJsonLines(file: string): Promise<RecordSource> {
  const preview = await previewFeatureLines(createReadStream(file, { highWaterMark: 1 << 16 }));
  if (preview.firstLineProblem !== undefined) {
    throw new Error(
      `${file}: line ${preview.firstLine} ${preview.firstLineProblem}; GeoJSON-lines has one GeoJSON Feature a line`,
    );
  }
  const fields = preview.fields;
  return {
    file,
    format: "geojsonl",
    fields: fields.names,
    hasGeometry: preview.hasGeometry,
    crs: WGS84.description,
    geometryTypes: () => fields.geometryTypes(),
    batches: () =>
      featureLineBatches(createReadStream(file, { highWaterMark: 1 << 20 }), recordHandler(fields)),
  };
}

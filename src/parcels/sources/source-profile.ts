import type { LonLat, RecordSource, SourceFormat } from "./record-source.js";

/** What the first records of a file hold in one field. */
export interface FieldProfile {
  name: string;
  /** Records with a non-blank value. */
  filled: number;
  /** Up to SAMPLES distinct values, in order of appearance. */
  samples: string[];
  /** Distinct values (counted up to DISTINCT_LIMIT). */
  distinct: number;
}

export interface SourceProfile {
  file: string;
  format: SourceFormat;
  crs: string;
  hasGeometry: boolean;
  /** Geometry types of the records read ("none": no geometry). */
  geometryTypes: Array<[string, number]>;
  records: number;
  /** Records whose geometry gives no point, by reason. */
  problems: Array<[string, number]>;
  fields: FieldProfile[];
  /** The first ROWS_KEPT records' values, for checks across fields (one APN the other's with a prefix). */
  rows: string[][];
  /** The points of the first ROWS_KEPT records with a geometry (to tell the state they lie in). */
  points: LonLat[];
}

export const PROFILE_RECORDS = 10_000;
const SAMPLES = 5;
const DISTINCT_LIMIT = 1000;
const ROWS_KEPT = 500;

/** Reads up to `limit` records of an opened source (then stops reading it) and profiles its fields. */
export async function profileSource(source: RecordSource, limit = PROFILE_RECORDS): Promise<SourceProfile> {
  const fields = source.fields.map((name) => ({
    name,
    filled: 0,
    samples: [] as string[],
    seen: new Set<string>(),
  }));
  const problems = new Map<string, number>();
  const rows: string[][] = [];
  const points: LonLat[] = [];
  let records = 0;
  read: for await (const batch of source.batches()) {
    for (const record of batch) {
      records++;
      if (rows.length < ROWS_KEPT) rows.push(record.fields);
      if (record.point && points.length < ROWS_KEPT) points.push(record.point);
      if (record.problem !== undefined) problems.set(record.problem, (problems.get(record.problem) ?? 0) + 1);
      record.fields.forEach((value, i) => {
        const field = fields[i];
        if (!field || value.trim() === "") return;
        field.filled++;
        if (field.seen.size < DISTINCT_LIMIT && !field.seen.has(value)) {
          field.seen.add(value);
          if (field.samples.length < SAMPLES) field.samples.push(value);
        }
      });
      // stop before another batch is asked for: the geometry counts are of the records read
      if (records >= limit) break read;
    }
  }
  return {
    file: source.file,
    format: source.format,
    crs: source.crs ?? (source.hasGeometry ? "WGS 84 longitude/latitude" : "none (no geometry)"),
    hasGeometry: source.hasGeometry,
    geometryTypes: [...(source.geometryTypes?.() ?? new Map<string, number>())],
    records,
    problems: [...problems].sort((a, b) => b[1] - a[1]),
    fields: fields.map(({ name, filled, samples, seen }) => ({ name, filled, samples, distinct: seen.size })),
    rows,
    points,
  };
}

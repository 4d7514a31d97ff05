import { FeatureLineParser } from "./feature-line-parser.js";
import type { Transform } from "./geometry.js";
import { geometryPoint } from "./geometry.js";
import { propertyText } from "./property-text.js";
import type { SourceRecord } from "./record-source.js";

/** How many features a source reads when it opens, for the union of their property names. */
export const PREVIEW_FEATURES = 500;

/**
 * The fields of a feature source: the union of the property names of its first features, in
 * first-seen order. Properties that appear only later are not read (a mapping names them from
 * the header an inspection shows).
 */
export class FeatureFields {
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();
  /** Geometry types of the records made so far ("none" for a feature without geometry). */
  private readonly types = new Map<string, number>();
  private points = 0;

  private parser: FeatureLineParser | undefined;

  /**
   * The record of a GeoJSON-lines feature read by the fast path (feature-line-parser.ts), or
   * undefined when the line needs JSON.parse.
   */
  lineRecord(text: string, from: number, to: number, line: number): SourceRecord | undefined {
    this.parser ??= new FeatureLineParser(this.names, this.index);
    const parsed = this.parser.parse(text, from, to, line);
    if (parsed === undefined) return undefined;
    if (parsed.point) this.points++;
    else this.types.set("none", (this.types.get("none") ?? 0) + 1);
    return parsed;
  }

  /** Fields named up front (a DBF header). */
  static of(names: string[]): FeatureFields {
    const fields = new FeatureFields();
    fields.add({ properties: Object.fromEntries(names.map((name) => [name, null])) });
    return fields;
  }

  /** How many records of each geometry type were made. */
  geometryTypes(): Map<string, number> {
    const types = new Map(this.types);
    if (this.points > 0) types.set("Point", (types.get("Point") ?? 0) + this.points);
    return types;
  }

  /** Adds the property names of one feature (a parsed GeoJSON Feature). */
  add(feature: unknown): void {
    const properties = propertiesOf(feature);
    if (!properties) return;
    for (const name of Object.keys(properties)) {
      if (this.index.has(name)) continue;
      this.index.set(name, this.names.length);
      this.names.push(name);
    }
  }

  /** A parsed feature as a record: its property values as text, aligned with `names`, and its point. */
  record(feature: unknown, line: number, transform?: Transform): SourceRecord {
    const fields = new Array<string>(this.names.length).fill("");
    if (
      typeof feature !== "object" ||
      feature === null ||
      (feature as { type?: unknown }).type !== "Feature"
    ) {
      const type =
        typeof feature === "object" && feature !== null ? (feature as { type?: unknown }).type : feature;
      return {
        line,
        fields,
        point: null,
        problem: `not a GeoJSON Feature (${JSON.stringify(type) ?? typeof type})`,
      };
    }
    const properties = propertiesOf(feature);
    if (properties) {
      for (const name in properties) {
        const at = this.index.get(name);
        if (at !== undefined) fields[at] = propertyText(properties[name]);
      }
    }
    const geometry = (feature as { geometry?: unknown }).geometry;
    const point = pointFast(geometry, transform);
    if (point) {
      this.points++;
      return { line, fields, point };
    }
    const type = (geometry as { type?: unknown } | null)?.type;
    const name = typeof type === "string" ? type : "none";
    this.types.set(name, (this.types.get(name) ?? 0) + 1);
    const found = geometryPoint(geometry, transform);
    return found.problem === undefined
      ? { line, fields, point: found.point }
      : { line, fields, point: null, problem: found.problem };
  }
}

function propertiesOf(feature: unknown): Record<string, unknown> | undefined {
  const properties = (feature as { properties?: unknown } | null)?.properties;
  return typeof properties === "object" && properties !== null
    ? (properties as Record<string, unknown>)
    : undefined;
}

/** Address points (most of OpenAddresses): a WGS84 Point in range, without the general path. */
function pointFast(geometry: unknown, transform?: Transform): { lon: number; lat: number } | undefined {
  if (transform || typeof geometry !== "object" || geometry === null) return undefined;
  const { type, coordinates } = geometry as { type?: unknown; coordinates?: unknown };
  if (type !== "Point" || !Array.isArray(coordinates)) return undefined;
  const lon: unknown = coordinates[0];
  const lat: unknown = coordinates[1];
  if (typeof lon !== "number" || typeof lat !== "number") return undefined;
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lon, lat } : undefined;
}

import polylabel from "polylabel";
import type { LonLat } from "./record-source.js";

/** Source coordinates (x, y) to WGS84 degrees; may throw or answer non-finite values. */
export type Transform = (x: number, y: number) => LonLat;

/** A feature's point, or why its geometry gives none (`point` is then null). */
export interface GeometryPoint {
  point: LonLat | null;
  problem?: string;
}

type Ring = Array<[number, number]>;

const NO_GEOMETRY: GeometryPoint = { point: null };
const LINE: GeometryPoint = { point: null, problem: "a line geometry has no parcel point" };

/** About 0.1 m in degrees of latitude (1° ≈ 111.32 km): the precision of a polygon's point. */
const PRECISION_DEGREES = 0.1 / 111_320;

/**
 * The point of a GeoJSON geometry, in WGS84: a Point itself, a MultiPoint's first point, and for a
 * Polygon or MultiPolygon a point guaranteed inside the parcel: the pole of inaccessibility
 * (polylabel, Agafonkin 2016) of its largest polygon. Never a centroid, which falls outside an
 * L- or U-shaped lot. Lines give a problem; an empty geometry gives null.
 */
export function geometryPoint(geometry: unknown, transform?: Transform): GeometryPoint {
  if (geometry === null || geometry === undefined) return NO_GEOMETRY;
  if (typeof geometry !== "object" || !("type" in geometry)) return problem("unreadable geometry");
  const coordinates = "coordinates" in geometry ? geometry.coordinates : undefined;
  switch (geometry.type) {
    case "Point":
      return isEmpty(coordinates) ? NO_GEOMETRY : vertexPoint(coordinates, transform);
    case "MultiPoint":
      return Array.isArray(coordinates) && coordinates.length > 0
        ? vertexPoint(coordinates[0], transform)
        : NO_GEOMETRY;
    case "Polygon":
      return polygonsPoint([coordinates], transform);
    case "MultiPolygon":
      return polygonsPoint(Array.isArray(coordinates) ? coordinates : [], transform);
    case "LineString":
    case "MultiLineString":
      return isEmpty(coordinates) ? NO_GEOMETRY : LINE;
    case "GeometryCollection":
      return collectionPoint("geometries" in geometry ? geometry.geometries : undefined, transform);
    default:
      return problem(`unknown geometry type ${JSON.stringify(geometry.type)}`);
  }
}

function problem(reason: string): GeometryPoint {
  return { point: null, problem: reason };
}

function isEmpty(coordinates: unknown): boolean {
  return !Array.isArray(coordinates) || coordinates.length === 0;
}

/** A collection's largest polygon, else its first point; lines alone give a problem. */
function collectionPoint(members: unknown, transform?: Transform): GeometryPoint {
  if (!Array.isArray(members) || members.length === 0) return NO_GEOMETRY;
  const polygons: unknown[] = [];
  let first: GeometryPoint | undefined;
  for (const member of members as Array<{ type?: unknown; coordinates?: unknown }>) {
    if (member?.type === "Polygon") polygons.push(member.coordinates);
    else if (member?.type === "MultiPolygon" && Array.isArray(member.coordinates))
      polygons.push(...(member.coordinates as unknown[]));
    else first ??= geometryPoint(member, transform);
  }
  if (polygons.length > 0) return polygonsPoint(polygons, transform);
  return first ?? NO_GEOMETRY;
}

/** A position in WGS84, or the reason it is unusable. */
function vertex(position: unknown, transform?: Transform): LonLat | string {
  if (!Array.isArray(position) || position.length < 2) return "a position without two coordinates";
  const [x, y] = position as unknown[];
  if (typeof x !== "number" || typeof y !== "number" || !Number.isFinite(x) || !Number.isFinite(y))
    return `coordinates that are not numbers (${String(x)}, ${String(y)})`;
  if (!transform) return { lon: x, lat: y };
  let point: LonLat;
  try {
    point = transform(x, y);
  } catch (error) {
    return `coordinates (${x}, ${y}) that cannot be reprojected: ${(error as Error).message}`;
  }
  if (!Number.isFinite(point.lon) || !Number.isFinite(point.lat))
    return `coordinates (${x}, ${y}) that reproject to no point`;
  return point;
}

function vertexPoint(position: unknown, transform?: Transform): GeometryPoint {
  const point = vertex(position, transform);
  return typeof point === "string" ? problem(`the geometry has ${point}`) : checked(point);
}

/** A WGS84 point, or a problem when it is outside the range of degrees (a missing or wrong projection). */
function checked(point: LonLat): GeometryPoint {
  if (Math.abs(point.lat) <= 90 && Math.abs(point.lon) <= 180) return { point };
  return problem(
    `coordinates (${point.lon}, ${point.lat}) are not longitude and latitude: the file's projection is missing or wrong`,
  );
}

/**
 * The pole of inaccessibility of the largest polygon (by area). Longitudes are scaled by the cosine
 * of the latitude so that distances in degrees are not stretched east-west (polylabel measures
 * distances in the plane it is given).
 */
function polygonsPoint(polygons: unknown[], transform?: Transform): GeometryPoint {
  let best: { rings: Ring[]; area: number; scale: number } | undefined;
  for (const polygon of polygons) {
    if (!Array.isArray(polygon) || polygon.length === 0) continue;
    const rings: Ring[] = [];
    for (const ring of polygon as unknown[]) {
      if (!Array.isArray(ring)) return problem("the geometry has a ring that is not a list of positions");
      const points: Ring = [];
      for (const position of ring) {
        const point = vertex(position, transform);
        if (typeof point === "string") return problem(`the geometry has ${point}`);
        points.push([point.lon, point.lat]);
      }
      rings.push(points);
    }
    const outer = rings[0];
    if (!outer || outer.length === 0) continue;
    const scale = Math.cos((middleLatitude(outer) * Math.PI) / 180);
    const scaled = rings.map((ring) => ring.map(([lon, lat]): [number, number] => [lon * scale, lat]));
    const area = scaled.reduce((sum, ring, i) => sum + (i === 0 ? 1 : -1) * Math.abs(ringArea(ring)), 0);
    if (!best || area > best.area) best = { rings: scaled, area, scale };
  }
  if (!best) return NO_GEOMETRY;
  const [x, y] = polylabel(best.rings, PRECISION_DEGREES);
  return checked({ lon: x / (best.scale || 1), lat: y });
}

function middleLatitude(ring: Ring): number {
  let min = Infinity;
  let max = -Infinity;
  for (const [, lat] of ring) {
    if (lat < min) min = lat;
    if (lat > max) max = lat;
  }
  return (min + max) / 2;
}

/** Signed area by the shoelace formula. */
function ringArea(ring: Ring): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    sum += (xj - xi) * (yj + yi);
  }
  return sum / 2;
}
